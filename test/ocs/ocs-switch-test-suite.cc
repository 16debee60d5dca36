/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The optical circuit switch: nothing leaves an unmapped port, a circuit adds propagation
// only, frames straddling a change are cut, dark time loses exactly the affected port's
// frames (and the IPv4 interfaces can follow the circuits), bad requests are refused.
// Tests: ocs-switch, ocs-port-channel, ocs-helper
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4.h"
#include "ns3/ocs-helper.h"
#include "ns3/ocs-port-channel.h"
#include "ns3/ocs-switch.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"

#include <functional>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

/// A sink of OcsSwitch::Drop.
using DropCallback = Callback<void, Ptr<const Packet>, uint32_t, OcsSwitch::DropReason>;

/// A switch with one node per port and the times frames were received, by port.
struct Rig
{
    NodeContainer nodes;                              //!< one per port
    Ptr<OcsSwitch> ocs;                               //!< the switch
    std::map<uint32_t, std::vector<Time>> arrivals;   //!< port -> receive times
    std::map<uint32_t, uint64_t> drops;               //!< port -> frames dropped (Drop trace)
    std::map<uint32_t, std::vector<Address>> senders; //!< port -> sender address per receipt
};

/// Builds \p ports nodes on a new switch: 1 Gbit/s devices, the given delays; raw frames
/// received by a device are recorded in the rig (no IP stack).
void
BuildRawRig(Rig& rig, uint32_t ports, const Time& hopDelay, const Time& darkTime)
{
    rig.nodes.Create(ports);
    OcsHelper helper;
    helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    helper.SetOcsAttribute("Delay", TimeValue(hopDelay));
    helper.SetOcsAttribute("ReconfigurationTime", TimeValue(darkTime));
    rig.ocs = helper.Install(rig.nodes);
    Rig* r = &rig;
    for (uint32_t port = 0; port < ports; ++port)
    {
        rig.ocs->GetDevice(port)->SetReceiveCallback(
            [r,
             port](const Ptr<NetDevice>&, const Ptr<const Packet>&, uint16_t, const Address& from) {
                r->arrivals[port].push_back(Simulator::Now());
                r->senders[port].push_back(from);
                return true;
            });
    }
    rig.ocs->TraceConnectWithoutContext(
        "Drop",
        DropCallback([r](const Ptr<const Packet>&, uint32_t port, OcsSwitch::DropReason) {
            ++r->drops[port];
        }));
}

/// Sends \p count raw frames of \p payload bytes (+2 bytes of PPP header) from a device.
void
SendFrames(Ptr<NetDevice> device, uint32_t count, uint32_t payload)
{
    for (uint32_t i = 0; i < count; ++i)
    {
        device->Send(Create<Packet>(payload), device->GetBroadcast(), 0x0800);
    }
}

uint64_t
CountOf(const std::map<uint32_t, std::vector<Time>>& m, uint32_t port)
{
    auto it = m.find(port);
    return it == m.end() ? 0 : it->second.size();
}

uint64_t
CountOf(const std::map<uint32_t, uint64_t>& m, uint32_t port)
{
    auto it = m.find(port);
    return it == m.end() ? 0 : it->second;
}

/// \return true if \p got are exactly the times \p want
bool
ArrivalsAre(const std::vector<Time>& got, const std::vector<Time>& want)
{
    return got == want;
}

} // namespace

/// Frames sent into a port with no circuit are counted and traced, never delivered; once
/// the port is mapped, the same frames are delivered (the control).
class VclosOcsUnmappedTest : public TestCase
{
  public:
    VclosOcsUnmappedTest()
        : TestCase("no frame leaves through an unmapped port; mapped, it is delivered")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        BuildRawRig(rig, 3, MicroSeconds(1), Time(0));
        Ptr<OcsSwitch> ocs = rig.ocs;
        Simulator::Schedule(MilliSeconds(1), &SendFrames, ocs->GetDevice(0), 10, 500);
        Simulator::Schedule(MilliSeconds(2), [ocs]() { ocs->Connect(0, 1); });
        Simulator::Schedule(MilliSeconds(3), &SendFrames, ocs->GetDevice(0), 10, 500);
        // Port 2 stays unmapped while 0 <-> 1 is up: its frames go nowhere either.
        Simulator::Schedule(MilliSeconds(3), &SendFrames, ocs->GetDevice(2), 5, 500);
        Simulator::Stop(MicroSeconds(1500));
        Simulator::Run();
        // Before the circuit: nothing delivered anywhere, all 10 dropped as unmapped.
        NS_TEST_EXPECT_MSG_EQ(CountOf(rig.arrivals, 1) + CountOf(rig.arrivals, 2), 0, "leaked");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetDroppedFrames(OcsSwitch::UNMAPPED), 10, "unmapped drops");
        NS_TEST_EXPECT_MSG_EQ(CountOf(rig.drops, 0), 10, "Drop trace on port 0");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetPortChannel(0)->GetNDevices(), 1, "no peer yet");
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        // Control: mapped, the same frames arrive at port 1 and only there.
        NS_TEST_EXPECT_MSG_EQ(CountOf(rig.arrivals, 1), 10, "mapped port delivers");
        NS_TEST_EXPECT_MSG_EQ(CountOf(rig.arrivals, 0), 0, "port 2's frames reached port 0");
        NS_TEST_EXPECT_MSG_EQ(CountOf(rig.arrivals, 2), 0, "a frame came back to port 2");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetDroppedFrames(OcsSwitch::UNMAPPED), 15, "unmapped drops");
        NS_TEST_EXPECT_MSG_EQ(CountOf(rig.drops, 2), 5, "Drop trace on port 2");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetForwardedFrames(), 10, "forwarded");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetPortChannel(0)->GetNDevices(), 2, "peer on the channel");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetPortChannel(0)->GetDevice(1),
                              Ptr<NetDevice>(ocs->GetDevice(1)),
                              "the channel's second device is the circuit peer");
        Simulator::Destroy();
    }
};

/// One frame through a circuit takes one serialisation and two hop delays, by hand: 1000
/// bytes at 1 Gbit/s = 8 us, hops 5 us: sent at 1 ms, received at 1.018 ms; a second frame
/// back to back at 1.026 ms (no store-and-forward, no queue in the switch). The control runs
/// the same check on a plain point-to-point wire of 5 us, where it must fail (1.013 ms).
class VclosOcsTimingTest : public TestCase
{
  public:
    VclosOcsTimingTest()
        : TestCase("a circuit adds propagation only: serialisation + 2 hop delays")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<Time> expected = {MicroSeconds(1018), MicroSeconds(1026)};
        Rig rig;
        BuildRawRig(rig, 2, MicroSeconds(5), Time(0));
        NS_TEST_ASSERT_MSG_EQ(rig.ocs->Connect(0, 1), true, "circuit refused");
        Simulator::Schedule(MilliSeconds(1), &SendFrames, rig.ocs->GetDevice(0), 2, 998);
        Simulator::Schedule(MilliSeconds(2), &SendFrames, rig.ocs->GetDevice(1), 2, 998);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(ArrivalsAre(rig.arrivals[1], expected), true, "0 -> 1 timing");
        const std::vector<Time> back = {MicroSeconds(2018), MicroSeconds(2026)};
        NS_TEST_EXPECT_MSG_EQ(ArrivalsAre(rig.arrivals[0], back), true, "1 -> 0 timing");
        if (rig.arrivals[1].size() == 2)
        {
            NS_TEST_EXPECT_MSG_EQ(rig.arrivals[1][0], expected[0], "first frame");
            NS_TEST_EXPECT_MSG_EQ(rig.arrivals[1][1], expected[1], "second frame");
        }
        Simulator::Destroy();

        // Control: a plain wire with one 5 us hop.
        NodeContainer pair;
        pair.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(5)));
        NetDeviceContainer devices = p2p.Install(pair);
        std::vector<Time> wire;
        devices.Get(1)->SetReceiveCallback(
            [&wire](const Ptr<NetDevice>&, const Ptr<const Packet>&, uint16_t, const Address&) {
                wire.push_back(Simulator::Now());
                return true;
            });
        Simulator::Schedule(MilliSeconds(1), &SendFrames, devices.Get(0), 2, 998);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(ArrivalsAre(wire, expected), false, "the check cannot fail");
        const std::vector<Time> oneHop = {MicroSeconds(1013), MicroSeconds(1021)};
        NS_TEST_EXPECT_MSG_EQ(ArrivalsAre(wire, oneHop), true, "measurement of the wire");
        Simulator::Destroy();
    }
};

/// A frame is cut when the circuit changes while its bits pass the switch, by hand: 1000
/// bytes at 1 Gbit/s, hops 5 us, sent at 1 ms: its bits pass the switch from 1.005 to
/// 1.013 ms. A disconnect at 1.009 ms cuts it; at 1.004 ms it finds the port unmapped;
/// at 1.014 ms it has been forwarded (the controls) and, still on the output fibre, arrives
/// with its sender's address (PointToPointNetDevice::GetRemote).
class VclosOcsCutTest : public TestCase
{
  public:
    VclosOcsCutTest()
        : TestCase("a frame passing the switch during a change is cut")
    {
    }

  private:
    struct Outcome
    {
        uint64_t delivered;
        uint64_t cut;
        uint64_t unmapped;
        bool senderKnown; //!< every receipt named port 0's device as its sender
    };

    static Outcome RunWithDisconnectAt(const Time& when)
    {
        Rig rig;
        BuildRawRig(rig, 2, MicroSeconds(5), Time(0));
        rig.ocs->Connect(0, 1);
        Ptr<OcsSwitch> ocs = rig.ocs;
        Simulator::Schedule(MilliSeconds(1), &SendFrames, ocs->GetDevice(0), 1, 998);
        Simulator::Schedule(when, [ocs]() { ocs->Disconnect(0); });
        Simulator::Run();
        bool senderKnown = true;
        for (const Address& from : rig.senders[1])
        {
            senderKnown = senderKnown && from == ocs->GetDevice(0)->GetAddress();
        }
        Outcome o{CountOf(rig.arrivals, 1),
                  ocs->GetDroppedFrames(OcsSwitch::CUT),
                  ocs->GetDroppedFrames(OcsSwitch::UNMAPPED),
                  senderKnown};
        Simulator::Destroy();
        return o;
    }

    void DoRun() override
    {
        Outcome during = RunWithDisconnectAt(MicroSeconds(1009));
        NS_TEST_EXPECT_MSG_EQ(during.delivered, 0, "a cut frame was delivered");
        NS_TEST_EXPECT_MSG_EQ(during.cut, 1, "cut");
        Outcome before = RunWithDisconnectAt(MicroSeconds(1004));
        NS_TEST_EXPECT_MSG_EQ(before.delivered, 0, "delivered through no circuit");
        NS_TEST_EXPECT_MSG_EQ(before.cut, 0, "cut before its first bit arrived");
        NS_TEST_EXPECT_MSG_EQ(before.unmapped, 1, "unmapped");
        Outcome after = RunWithDisconnectAt(MicroSeconds(1014));
        NS_TEST_EXPECT_MSG_EQ(after.delivered, 1, "a frame that had passed was lost");
        NS_TEST_EXPECT_MSG_EQ(after.cut + after.unmapped, 0, "dropped after it had passed");
        // It was on the output fibre (received at 1.018 ms) when its circuit went down: the
        // receiver still sees who sent it.
        NS_TEST_EXPECT_MSG_EQ(after.senderKnown, true, "sender unknown after tear-down");
    }
};

namespace
{

/// One UDP flow's counts.
struct UdpFlow
{
    uint64_t sentBytes = 0;     //!< payload bytes the sender's socket accepted
    uint64_t receivedBytes = 0; //!< payload bytes the receiver's socket got
};

/// UDP over IPv4 through a 4-port switch: a (port 0) -> b (port 1) and x (port 2) -> y
/// (port 3), 500-byte datagrams every 100 us from 0.1 s to 0.3 s (2000 each). Circuits 0-1
/// and 2-3 come up at 10 ms (dark time 10 ms). At 0.20005 s port 0's circuit is torn down
/// and at 0.20505 s set up again (dark until 0.21505 s); with \p alsoSecond, port 2's too.
struct DarkRun
{
    UdpFlow ab;                               //!< the reconfigured flow
    UdpFlow xy;                               //!< the other flow
    std::map<uint32_t, uint64_t> dropFrames;  //!< port -> frames dropped
    std::map<uint32_t, uint64_t> dropPayload; //!< port -> UDP payload bytes dropped
    uint64_t unmapped = 0;                    //!< frames dropped, by reason
    uint64_t dark = 0;                        //!< ...
    uint64_t cut = 0;                         //!< ...
    std::map<std::string, bool> interfaceUp;  //!< "node@ms" -> IPv4 interface 1 up
};

constexpr uint64_t PAYLOAD = 500;
constexpr uint32_t FRAME_OVERHEAD = 2 + 20 + 8; // PPP, IPv4, UDP

void
StartFlow(const Ptr<Node>& from, const Ptr<Node>& to, UdpFlow* flow)
{
    Ipv4Address dst = to->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    Ptr<Socket> rx = Socket::CreateSocket(to, UdpSocketFactory::GetTypeId());
    rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
    rx->SetRecvCallback([flow](Ptr<Socket> s) {
        while (Ptr<Packet> p = s->Recv())
        {
            flow->receivedBytes += p->GetSize();
        }
    });
    Ptr<Socket> tx = Socket::CreateSocket(from, UdpSocketFactory::GetTypeId());
    tx->Bind();
    tx->Connect(InetSocketAddress(dst, 9));
    for (uint32_t k = 0; k < 2000; ++k)
    {
        Simulator::Schedule(Seconds(0.1) + MicroSeconds(100) * k, [tx, flow]() {
            int sent = tx->Send(Create<Packet>(static_cast<uint32_t>(PAYLOAD)));
            if (sent > 0)
            {
                flow->sentBytes += static_cast<uint64_t>(sent);
            }
        });
    }
}

DarkRun
RunDark(bool alsoSecond, bool follow)
{
    DarkRun run;
    NodeContainer nodes;
    nodes.Create(4);
    OcsHelper helper;
    helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    helper.SetOcsAttribute("Delay", TimeValue(MicroSeconds(1)));
    helper.SetOcsAttribute("ReconfigurationTime", TimeValue(MilliSeconds(10)));
    Ptr<OcsSwitch> ocs = helper.Install(nodes);
    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.0");
    addresses.Assign(OcsHelper::GetDevices(ocs));
    if (follow)
    {
        OcsHelper::FollowCircuits(ocs);
    }
    ocs->Connect(0, 1);
    ocs->Connect(2, 3);
    DarkRun* r = &run;
    ocs->TraceConnectWithoutContext(
        "Drop",
        DropCallback([r](const Ptr<const Packet>& frame, uint32_t port, OcsSwitch::DropReason) {
            ++r->dropFrames[port];
            r->dropPayload[port] += frame->GetSize() - FRAME_OVERHEAD;
        }));
    StartFlow(nodes.Get(0), nodes.Get(1), &run.ab);
    StartFlow(nodes.Get(2), nodes.Get(3), &run.xy);
    std::vector<uint32_t> moved = {0};
    if (alsoSecond)
    {
        moved.push_back(2);
    }
    for (uint32_t port : moved)
    {
        Simulator::Schedule(MicroSeconds(200050), [ocs, port]() { ocs->Disconnect(port); });
        Simulator::Schedule(MicroSeconds(205050), [ocs, port]() { ocs->Connect(port, port + 1); });
    }
    for (uint32_t node : {0U, 1U, 2U})
    {
        for (uint32_t ms : {5U, 150U, 203U, 210U, 216U})
        {
            Simulator::Schedule(MilliSeconds(ms), [r, node, ms, nodes]() {
                r->interfaceUp[std::to_string(node) + "@" + std::to_string(ms)] =
                    nodes.Get(node)->GetObject<Ipv4>()->IsUp(1);
            });
        }
    }
    Simulator::Stop(Seconds(0.5));
    Simulator::Run();
    run.unmapped = ocs->GetDroppedFrames(OcsSwitch::UNMAPPED);
    run.dark = ocs->GetDroppedFrames(OcsSwitch::DARK);
    run.cut = ocs->GetDroppedFrames(OcsSwitch::CUT);
    Simulator::Destroy();
    return run;
}

} // namespace

/// Dark-time accounting with UDP over IPv4. By hand (frames of 530 bytes take 4.24 us, hops
/// 1 us): frames sent from 0.2001 s to 0.2050 s (50) find port 0 unmapped, those from
/// 0.2051 s to 0.2150 s (100) find it dark; none straddles a change. So a -> b receives
/// 1850 of 2000, and sent = received + dropped; x -> y loses nothing. The control moves
/// port 2's circuit too: then x -> y loses the same 150, and the "nothing lost on an
/// unaffected port" check fails there as it must.
class VclosOcsDarkTimeTest : public TestCase
{
  public:
    VclosOcsDarkTimeTest()
        : TestCase("dark time: sent = received + drops, drops only on affected ports")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t total = 2000 * PAYLOAD;
        DarkRun one = RunDark(false, false);
        NS_TEST_EXPECT_MSG_EQ(one.ab.sentBytes, total, "a's sends");
        NS_TEST_EXPECT_MSG_EQ(one.ab.receivedBytes, 1850 * PAYLOAD, "b's receipts");
        NS_TEST_EXPECT_MSG_EQ(one.ab.sentBytes,
                              one.ab.receivedBytes + CountOf(one.dropPayload, 0),
                              "sent = received + traced drops");
        NS_TEST_EXPECT_MSG_EQ(one.unmapped, 50, "unmapped drops (by hand)");
        NS_TEST_EXPECT_MSG_EQ(one.dark, 100, "dark drops (by hand)");
        NS_TEST_EXPECT_MSG_EQ(one.cut, 0, "cut drops");
        NS_TEST_EXPECT_MSG_EQ(CountOf(one.dropFrames, 1), 0, "b sent nothing");
        NS_TEST_EXPECT_MSG_EQ(CountOf(one.dropFrames, 2) + CountOf(one.dropFrames, 3),
                              0,
                              "drops on the unaffected circuit");
        NS_TEST_EXPECT_MSG_EQ(one.xy.receivedBytes, total, "x -> y lost data");
        // Negative control: with port 2 moved too, its flow loses the same amount.
        DarkRun both = RunDark(true, false);
        NS_TEST_EXPECT_MSG_EQ(CountOf(both.dropFrames, 2), 150, "control: port 2 drops");
        NS_TEST_EXPECT_MSG_EQ((both.xy.receivedBytes == total), false, "control: x -> y intact");
        NS_TEST_EXPECT_MSG_EQ(both.xy.sentBytes,
                              both.xy.receivedBytes + CountOf(both.dropPayload, 2),
                              "control: sent = received + drops");
        // Without the drops the books do not balance (the accounting can fail).
        NS_TEST_EXPECT_MSG_EQ((one.ab.sentBytes == one.ab.receivedBytes), false, "no loss?");
    }
};

/// OcsHelper::FollowCircuits: the IPv4 interfaces are down while their circuit is down
/// or dark and up otherwise; a's datagrams then fail at the socket (no route) instead of
/// reaching a dark port, so the switch drops nothing. The control is the run without it
/// (VclosOcsDarkTimeTest), where the interfaces stay up and the switch drops 150 frames.
class VclosOcsFollowTest : public TestCase
{
  public:
    VclosOcsFollowTest()
        : TestCase("IPv4 interfaces follow the circuits (OcsHelper::FollowCircuits)")
    {
    }

  private:
    void DoRun() override
    {
        DarkRun run = RunDark(false, true);
        // Circuits come up at 10 ms; port 0's goes down at 200.05 ms, up at 215.05 ms.
        const std::map<std::string, bool> expected = {{"0@5", false},
                                                      {"0@150", true},
                                                      {"0@203", false},
                                                      {"0@210", false},
                                                      {"0@216", true},
                                                      {"1@5", false},
                                                      {"1@150", true},
                                                      {"1@203", false},
                                                      {"1@210", false},
                                                      {"1@216", true},
                                                      {"2@5", false},
                                                      {"2@150", true},
                                                      {"2@203", true},
                                                      {"2@210", true},
                                                      {"2@216", true}};
        for (const auto& [when, up] : expected)
        {
            NS_TEST_EXPECT_MSG_EQ(run.interfaceUp.at(when), up, "interface state at " << when);
        }
        NS_TEST_EXPECT_MSG_EQ(run.unmapped + run.dark + run.cut, 0, "frames reached a dark port");
        NS_TEST_EXPECT_MSG_EQ(run.ab.sentBytes, run.ab.receivedBytes, "sent = received");
        NS_TEST_EXPECT_MSG_EQ(run.ab.sentBytes, 1850 * PAYLOAD, "the socket refused 150");
        NS_TEST_EXPECT_MSG_EQ(run.xy.receivedBytes, 2000 * PAYLOAD, "x -> y lost data");
        DarkRun control = RunDark(false, false);
        NS_TEST_EXPECT_MSG_EQ(control.interfaceUp.at("0@210"), true, "control: stays up");
        NS_TEST_EXPECT_MSG_EQ(control.unmapped + control.dark, 150, "control: switch drops");
    }
};

/// Bad circuit requests are refused with one line and change nothing; good ones are taken.
class VclosOcsBadRequestTest : public TestCase
{
  public:
    VclosOcsBadRequestTest()
        : TestCase("bad circuit requests are refused (range, in use, self, twice, dark)")
    {
    }

  private:
    void Refused(bool accepted, const std::string& error, const std::string& needle)
    {
        NS_TEST_EXPECT_MSG_EQ(accepted, false, "accepted: " << needle);
        NS_TEST_EXPECT_MSG_EQ((error.find(needle) != std::string::npos),
                              true,
                              "'" << error << "' lacks '" << needle << "'");
        NS_TEST_EXPECT_MSG_EQ(error.find('\n'), std::string::npos, "more than one line");
    }

    void DoRun() override
    {
        Rig rig;
        BuildRawRig(rig, 4, MicroSeconds(1), Time(0));
        Ptr<OcsSwitch> ocs = rig.ocs;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(ocs->Connect(0, 1, &error), true, "control: a good circuit");
        using C = std::vector<OcsSwitch::Circuit>;
        const C before = ocs->GetCircuits();
        Refused(ocs->Connect(0, 4, &error), error, "port 4 is out of range");
        Refused(ocs->Connect(7, 2, &error), error, "port 7 is out of range");
        Refused(ocs->Connect(2, 2, &error), error, "joined to itself");
        Refused(ocs->Connect(1, 2, &error), error, "port 1 is already in a circuit with port 0");
        Refused(ocs->Connect(3, 0, &error), error, "port 0 is already in a circuit with port 1");
        Refused(ocs->Disconnect(3, &error), error, "port 3 has no circuit");
        Refused(ocs->Disconnect(9, &error), error, "port 9 is out of range");
        Refused(ocs->Reconfigure(C{{2, 3}, {3, 0}}, &error), error, "port 3 is named twice");
        Refused(ocs->Reconfigure(C{{2, 2}}, &error), error, "joined to itself");
        Refused(ocs->Reconfigure(C{{2, 3}, {0, 8}}, &error), error, "port 8 is out of range");
        NS_TEST_EXPECT_MSG_EQ((ocs->GetCircuits() == before), true, "a refusal changed state");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetPortState(2), OcsSwitch::PORT_IDLE, "batch half done");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetRefusedRequests(), 10, "refusals counted");
        // A port being set up is refused too.
        ocs->SetAttribute("ReconfigurationTime", TimeValue(MilliSeconds(1)));
        NS_TEST_EXPECT_MSG_EQ(ocs->Connect(2, 3, &error), true, "control: idle ports");
        Refused(ocs->Disconnect(2, &error), error, "port 2 is being reconfigured");
        Refused(ocs->Reconfigure(C{{3, 0}}, &error), error, "port 3 is being reconfigured");
        Refused(ocs->Connect(3, 1, &error), error, "port 3 is being reconfigured");
        // Controls: good requests are taken; a move leaves the old peers idle.
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ((ocs->GetCircuits() == C{{0, 1}, {2, 3}}), true, "circuits up");
        NS_TEST_EXPECT_MSG_EQ(ocs->Reconfigure(C{{0, 2}, {1, 3}}, &error), true, "control: a move");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetPortState(0), OcsSwitch::PORT_DARK, "moved port dark");
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ((ocs->GetCircuits() == C{{0, 2}, {1, 3}}), true, "moved");
        NS_TEST_EXPECT_MSG_EQ(ocs->Reconfigure(C{{0, 2}}, &error), true, "control: no-op");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetPortState(0), OcsSwitch::PORT_UP, "unchanged stays up");
        NS_TEST_EXPECT_MSG_EQ(ocs->Disconnect(1, &error), true, "control: disconnect");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetPortState(3), OcsSwitch::PORT_IDLE, "peer idle");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetRefusedRequests(), 13, "refusals counted");
        Simulator::Destroy();
    }
};

/// The ocs-switch suite.
class VclosOcsTestSuite : public TestSuite
{
  public:
    VclosOcsTestSuite()
        : TestSuite("ocs-switch", UNIT)
    {
        AddTestCase(new VclosOcsUnmappedTest, TestCase::QUICK);
        AddTestCase(new VclosOcsTimingTest, TestCase::QUICK);
        AddTestCase(new VclosOcsCutTest, TestCase::QUICK);
        AddTestCase(new VclosOcsDarkTimeTest, TestCase::QUICK);
        AddTestCase(new VclosOcsFollowTest, TestCase::QUICK);
        AddTestCase(new VclosOcsBadRequestTest, TestCase::QUICK);
    }
};

static VclosOcsTestSuite g_vclosOcsTestSuite; //!< the suite
