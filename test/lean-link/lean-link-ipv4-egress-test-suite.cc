/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The fast paths' ways past ns-3's per-packet lookups, against the ns-3 calls they replace.
//
// LeanLinkIpv4Egress (TrafficControlLayer::Send without its map lookup): a device with a root
// queue disc puts the same bytes on the wire at the same times as TrafficControlLayer::Send
// with an Ipv4QueueDiscItem, and takes the short way only once the layer has scanned the
// devices; a device without a queue disc, a queue disc deleted and replaced, and a device
// with two transmission queues go through TrafficControlLayer::Send (the replacement gets
// the packets; the two-queue device's select-queue callback picks the queue). Controls: a
// packet enqueued into the replaced queue disc, as a short way that missed the replacement
// would do, does not reach the new one; on one queue the index is 0, not the callback's.
// On the fabric's own devices (RED on lean links) the short way is taken; on PFC links
// (no queue disc) it is not. A LeanLinkNetDevice with Egress=Clock and no queue disc (its
// own queue) gets the same bytes at the same times as through TrafficControlLayer::Send.
//
// LeanLinkIpv4QueueDiscItem: GetSize equals Ipv4QueueDiscItem's before and after AddHeader and
// after the packet grows (a device header).
//
// LeanLinkTakeIpv4Receive (one node-wide handler entry per protocol): with a host fast path on a
// node that also has a device that needs ARP, UDP over that device (ARP included) reaches IPv4
// once per packet (control: a second traffic-control registration makes it twice), and RoCE
// packets on the device taken reach the fast path, once each.
// Tests: lean-link-ipv4-egress, lean-link-ipv4-queue-disc-item

#include "clos/clos-wire-digest.h"

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/data-rate.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/lean-link-helper.h"
#include "ns3/lean-link-ipv4-egress.h"
#include "ns3/lean-link-ipv4-queue-disc-item.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/queue-disc.h"
#include "ns3/roce-host-path.h"
#include "ns3/simple-channel.h"
#include "ns3/simple-net-device-helper.h"
#include "ns3/simple-net-device.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// How the test hands packets to the traffic-control layer.
enum class Via
{
    EGRESS,         //!< LeanLinkIpv4Egress::Send
    TC_SEND,        //!< TrafficControlLayer::Send with a new Ipv4QueueDiscItem (ns-3's call)
    TC_SEND_UNICAST //!< as TC_SEND to the peer's address, not the broadcast one (control)
};

/// The sending device's queue discs.
enum class Setup
{
    ROOT,           //!< a FIFO root queue disc, one transmission queue
    NO_ROOT,        //!< no queue disc
    REPLACED,       //!< the root deleted and a new one installed and scanned before the sends
    REPLACED_STALE, //!< as REPLACED; then one packet enqueued into the old root (control)
    TWO_QUEUES,     //!< a FIFO root on a device with two transmission queues
    CLOCK           //!< no queue disc, LeanLinkNetDevice with Egress=Clock (its own queue)
};

/// What one run saw.
struct EgressRun : ClosWireDigest
{
    bool shortAtStart = false;     //!< IsShort before the node's initialization
    bool shortAtSend = false;      //!< IsShort at the first send
    bool direct = false;           //!< IsDirect
    uint64_t oldRootPackets = 0;   //!< packets the first root queue disc received
    uint64_t newRootPackets = 0;   //!< packets the replacing root queue disc received
    std::vector<uint32_t> txQueue; //!< transmission queue index of each item the root got
};

constexpr uint32_t PACKETS = 6; //!< packets sent, back to back

/// A FIFO root queue disc on \p device, its Enqueue trace recording the queue index.
Ptr<QueueDisc>
InstallFifo(Ptr<NetDevice> device, EgressRun* run)
{
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("100p"));
    Ptr<QueueDisc> root = tch.Install(device).Get(0);
    root->TraceConnectWithoutContext(
        "Enqueue",
        Callback<void, Ptr<const QueueDiscItem>>([run](Ptr<const QueueDiscItem> item) {
            run->txQueue.push_back(item->GetTxQueueIndex());
        }));
    return root;
}

/**
 * \param via how packets go to the traffic-control layer
 * \param setup the sending device's queue discs
 * \return the frames the peer received (time and bytes), queue disc counts
 */
EgressRun
RunEgress(Via via, Setup setup)
{
    EgressRun run;
    NodeContainer nodes(2);
    for (uint32_t i = 0; i < 2; ++i)
    {
        nodes.Get(i)->AggregateObject(CreateObject<TrafficControlLayer>());
    }
    Ptr<SimpleChannel> channel = CreateObject<SimpleChannel>();
    channel->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
    Ptr<NetDevice> tx;
    Ptr<NetDevice> rx;
    if (setup == Setup::CLOCK)
    {
        LeanLinkHelper lean;
        lean.SetDeviceAttribute("DataRate", DataRateValue(DataRate("10Gbps")));
        lean.SetDeviceAttribute("Egress", StringValue("Clock"));
        lean.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        NetDeviceContainer pair = lean.Install(nodes.Get(0), nodes.Get(1));
        tx = pair.Get(0);
        rx = pair.Get(1);
    }
    if (setup == Setup::TWO_QUEUES)
    {
        Ptr<SimpleNetDevice> two = CreateObject<SimpleNetDevice>();
        tx = two;
        two->SetAttribute("PointToPointMode", BooleanValue(true));
        two->SetAttribute("DataRate", DataRateValue(DataRate("10Gbps")));
        two->SetAddress(Mac48Address::Allocate());
        nodes.Get(0)->AddDevice(two);
        two->SetChannel(channel);
        two->SetQueue(CreateObject<DropTailQueue<Packet>>());
        Ptr<NetDeviceQueueInterface> ndqi =
            CreateObjectWithAttributes<NetDeviceQueueInterface>("NTxQueues", UintegerValue(2));
        ndqi->SetSelectQueueCallback([](Ptr<QueueItem>) -> std::size_t { return 1; });
        tx->AggregateObject(ndqi);
    }
    SimpleNetDeviceHelper simple;
    simple.SetNetDevicePointToPointMode(true);
    simple.SetDeviceAttribute("DataRate", DataRateValue(DataRate("10Gbps")));
    simple.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("2p"));
    if (!rx)
    {
        rx = simple.Install(nodes.Get(1), channel).Get(0);
    }
    if (!tx)
    {
        tx = simple.Install(nodes.Get(0), channel).Get(0);
    }
    nodes.Get(1)->RegisterProtocolHandler(Node::ProtocolHandler([&run](Ptr<NetDevice>,
                                                                       Ptr<const Packet> packet,
                                                                       uint16_t protocol,
                                                                       const Address&,
                                                                       const Address& to,
                                                                       NetDevice::PacketType) {
                                              if (protocol == Ipv4L3Protocol::PROT_NUMBER)
                                              {
                                                  uint8_t mac[Address::MAX_SIZE];
                                                  const uint32_t n = to.CopyTo(mac);
                                                  ClosFnv1a(run.digest, mac, n);
                                                  run.Record(0, packet);
                                              }
                                          }),
                                          0,
                                          rx,
                                          true); // promiscuous: the frame's own destination

    Ptr<TrafficControlLayer> tc = nodes.Get(0)->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> oldRoot;
    if (setup != Setup::NO_ROOT && setup != Setup::CLOCK)
    {
        oldRoot = InstallFifo(tx, &run);
    }
    const LeanLinkIpv4Egress egress(tc, tx);
    run.shortAtStart = egress.IsShort();
    run.direct = egress.IsDirect();
    Ptr<QueueDisc> newRoot;
    if (setup == Setup::REPLACED || setup == Setup::REPLACED_STALE)
    {
        Simulator::Schedule(NanoSeconds(500), [&]() {
            tc->DeleteRootQueueDiscOnDevice(tx);
            newRoot = InstallFifo(tx, &run);
            tc->ScanDevices(); // as TrafficControlLayer::DoInitialize does
            newRoot->Initialize();
        });
    }
    auto send = [&](uint32_t i) {
        if (i == 0)
        {
            run.shortAtSend = egress.IsShort();
        }
        Ptr<Packet> payload = Create<Packet>(1000 + 10 * i);
        Ipv4Header header;
        header.SetSource(Ipv4Address("10.0.0.1"));
        header.SetDestination(Ipv4Address("10.0.0.2"));
        header.SetProtocol(17);
        header.SetPayloadSize(payload->GetSize());
        header.SetTtl(64 - i);
        header.SetTos(0x02);
        header.SetIdentification(i);
        if (via == Via::EGRESS)
        {
            egress.Send(payload, header);
        }
        else
        {
            tc->Send(tx,
                     Create<Ipv4QueueDiscItem>(payload,
                                               via == Via::TC_SEND ? tx->GetBroadcast()
                                                                   : rx->GetAddress(),
                                               Ipv4L3Protocol::PROT_NUMBER,
                                               header));
        }
    };
    for (uint32_t i = 0; i < PACKETS; ++i)
    {
        Simulator::Schedule(MicroSeconds(1), [&send, i]() { send(i); });
    }
    if (setup == Setup::REPLACED_STALE)
    {
        // What a short way that missed the replacement would do: the old root, not the new.
        Simulator::Schedule(MicroSeconds(2), [&]() {
            Ptr<Packet> payload = Create<Packet>(100);
            Ipv4Header header;
            header.SetPayloadSize(100);
            oldRoot->Enqueue(Create<Ipv4QueueDiscItem>(payload,
                                                       tx->GetBroadcast(),
                                                       Ipv4L3Protocol::PROT_NUMBER,
                                                       header));
        });
    }
    Simulator::Run();
    if (oldRoot)
    {
        run.oldRootPackets = oldRoot->GetStats().nTotalReceivedPackets;
    }
    if (newRoot)
    {
        run.newRootPackets = newRoot->GetStats().nTotalReceivedPackets;
    }
    Simulator::Destroy();
    return run;
}

/// LeanLinkIpv4Egress against TrafficControlLayer::Send.
class LeanLinkIpv4EgressTestCase : public TestCase
{
  public:
    LeanLinkIpv4EgressTestCase()
        : TestCase(
              "LeanLinkIpv4Egress: the same frames as TrafficControlLayer::Send; the short way "
              "only with a scanned root queue disc on one queue; a replaced, missing or "
              "multi-queue root goes through the layer")
    {
    }

  private:
    void DoRun() override
    {
        for (Setup setup :
             {Setup::ROOT, Setup::NO_ROOT, Setup::REPLACED, Setup::TWO_QUEUES, Setup::CLOCK})
        {
            const EgressRun egress = RunEgress(Via::EGRESS, setup);
            const EgressRun reference = RunEgress(Via::TC_SEND, setup);
            const std::string name = std::to_string(static_cast<int>(setup));
            // Without a queue disc the layer drops what a stopped device queue (2 packets, one
            // more on the wire) cannot take, as ns-3 does: 3 frames.
            NS_TEST_ASSERT_MSG_EQ(egress.frames,
                                  (setup == Setup::NO_ROOT ? 3 : PACKETS),
                                  "setup " << name << ": frames");
            NS_TEST_ASSERT_MSG_EQ(egress.digest,
                                  reference.digest,
                                  "setup " << name << ": same bytes at the same times");
            NS_TEST_ASSERT_MSG_EQ((egress.txQueue == reference.txQueue),
                                  true,
                                  "setup " << name << ": same transmission queues");
            NS_TEST_ASSERT_MSG_EQ(egress.shortAtStart,
                                  false,
                                  "setup " << name << ": no short way before the layer's scan");
            // Clock: the device is the queue, handed the packets directly (control: every
            // other setup goes through a queue disc or the layer).
            NS_TEST_ASSERT_MSG_EQ(egress.direct,
                                  (setup == Setup::CLOCK),
                                  "setup " << name << ": direct only to a clock device");
            NS_TEST_ASSERT_MSG_EQ(egress.shortAtSend,
                                  (setup == Setup::ROOT),
                                  "setup " << name
                                           << ": short way only with a scanned root "
                                              "on one queue");
        }
        // The replaced root: the new one gets every packet, the old one none after the swap.
        const EgressRun replaced = RunEgress(Via::EGRESS, Setup::REPLACED);
        NS_TEST_ASSERT_MSG_EQ(replaced.newRootPackets, PACKETS, "the new root gets them");
        NS_TEST_ASSERT_MSG_EQ(replaced.oldRootPackets, 0, "the old root gets none");
        // Control: an enqueue into the old root (a stale short way) is seen by that check.
        const EgressRun stale = RunEgress(Via::EGRESS, Setup::REPLACED_STALE);
        NS_TEST_ASSERT_MSG_NE(stale.oldRootPackets, 0, "control: the stale enqueue is seen");
        // Two queues: the layer's select-queue callback (queue 1) decides, as in ns-3.
        const EgressRun two = RunEgress(Via::EGRESS, Setup::TWO_QUEUES);
        NS_TEST_ASSERT_MSG_EQ(two.txQueue.size(), PACKETS, "two queues: items enqueued");
        NS_TEST_ASSERT_MSG_EQ(two.txQueue.front(), 1, "two queues: the callback's queue");
        // Control: on one queue the index is 0 (the check above would see a short way).
        const EgressRun one = RunEgress(Via::EGRESS, Setup::ROOT);
        NS_TEST_ASSERT_MSG_EQ(one.txQueue.front(), 0, "control: one queue, index 0");
        // Control: the digest sees the item's address (the one LeanLinkIpv4Egress reads once).
        NS_TEST_ASSERT_MSG_NE(RunEgress(Via::TC_SEND_UNICAST, Setup::ROOT).digest,
                              one.digest,
                              "control: another destination address changes the digest");
    }
};

/// The fabric's devices: short way on RED over lean links and p2p, not on PFC devices.
class LeanLinkIpv4EgressFabricTestCase : public TestCase
{
  public:
    LeanLinkIpv4EgressFabricTestCase()
        : TestCase("LeanLinkIpv4Egress on the fabric: short way on every switch port with RED "
                   "(lean and p2p links), not on PFC ports (no queue disc)")
    {
    }

  private:
    /// \return (ports with the short way at 1 ns, ports) over the switches
    std::pair<uint32_t, uint32_t> Count(const std::string& linkLayer, bool lean)
    {
        Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
        helper->SetAttribute("Leaves", UintegerValue(2));
        helper->SetAttribute("ServersPerLeaf", UintegerValue(2));
        helper->SetAttribute("GpusPerServer", UintegerValue(1));
        helper->SetAttribute("LinkLayer", StringValue(linkLayer));
        helper->SetAttribute("LeanLinks", BooleanValue(lean));
        Ptr<ClosFabric> fabric = helper->Install();
        // Built when ClosSwitchForwarder builds its own: after ClosFabricHelper::Install.
        std::vector<LeanLinkIpv4Egress> egress;
        for (const NodeContainer* set : {&fabric->GetLeaves(), &fabric->GetSpines()})
        {
            for (auto it = set->Begin(); it != set->End(); ++it)
            {
                Ptr<Ipv4L3Protocol> ipv4 = (*it)->GetObject<Ipv4L3Protocol>();
                Ptr<TrafficControlLayer> tc = (*it)->GetObject<TrafficControlLayer>();
                for (uint32_t i = 1; i < ipv4->GetNInterfaces(); ++i)
                {
                    egress.emplace_back(tc, ipv4->GetNetDevice(i));
                }
            }
        }
        std::pair<uint32_t, uint32_t> count{0, static_cast<uint32_t>(egress.size())};
        Simulator::Schedule(NanoSeconds(1), [&]() {
            for (const auto& port : egress)
            {
                count.first += port.IsShort();
            }
        });
        Simulator::Stop(NanoSeconds(2));
        Simulator::Run();
        Simulator::Destroy();
        return count;
    }

    void DoRun() override
    {
        const auto lean = Count("p2p", true);
        NS_TEST_ASSERT_MSG_GT(lean.second, 0, "switch ports");
        NS_TEST_ASSERT_MSG_EQ(lean.first, lean.second, "lean links with RED: all short");
        const auto p2p = Count("p2p", false);
        NS_TEST_ASSERT_MSG_EQ(p2p.first, p2p.second, "p2p links with RED: all short");
        const auto pfc = Count("pfc", true);
        NS_TEST_ASSERT_MSG_EQ(pfc.first, 0, "PFC links (no queue disc): none short");
    }
};

/// LeanLinkIpv4QueueDiscItem::GetSize against Ipv4QueueDiscItem::GetSize.
class LeanLinkIpv4QueueDiscItemTestCase : public TestCase
{
  public:
    LeanLinkIpv4QueueDiscItemTestCase()
        : TestCase("LeanLinkIpv4QueueDiscItem: GetSize as Ipv4QueueDiscItem's, before and after "
                   "AddHeader and after the packet grows")
    {
    }

  private:
    void DoRun() override
    {
        Ipv4Header header;
        header.SetPayloadSize(700);
        Ptr<Packet> a = Create<Packet>(700);
        Ptr<Packet> b = Create<Packet>(700);
        Ptr<QueueDiscItem> ours = Create<LeanLinkIpv4QueueDiscItem>(a, Address(), 0x0800, header);
        Ptr<QueueDiscItem> ns3 = Create<Ipv4QueueDiscItem>(b, Address(), 0x0800, header);
        NS_TEST_ASSERT_MSG_EQ(ours->GetSize(), 720, "before AddHeader: 700 + 20 (by hand)");
        NS_TEST_ASSERT_MSG_EQ(ours->GetSize(), ns3->GetSize(), "before AddHeader");
        ours->AddHeader();
        ns3->AddHeader();
        NS_TEST_ASSERT_MSG_EQ(ours->GetSize(), ns3->GetSize(), "after AddHeader");
        a->AddHeader(header); // a device's header, say
        b->AddHeader(header);
        NS_TEST_ASSERT_MSG_EQ(ours->GetSize(), 740, "after the packet grew");
        NS_TEST_ASSERT_MSG_EQ(ours->GetSize(), ns3->GetSize(), "after the packet grew");
    }
};

/// What the receive-side run saw.
struct ReceiveRun
{
    uint32_t ipv4RxFromArpDevice = 0; //!< Ipv4L3Protocol Rx at the host, from the ARP device
    uint32_t udpReceived = 0;         //!< UDP datagrams the host's socket received
    uint32_t roceReceived = 0;        //!< RoCE packets the host path's callback received
    uint64_t fastReceived = 0;        //!< packets the host path counted
};

/**
 * A host H with RoceHostPath: a point-to-point SimpleNetDevice to P (taken) and a shared
 * SimpleNetDevice to C (needs ARP, not taken). C sends UDP datagrams to H's port 9 (after
 * ARP); P sends UDP datagrams to H's port 4791.
 * \param doubleRegistration register TrafficControlLayer::Receive for IPv4 on the ARP device
 *        a second time (control)
 * \return what it saw
 */
ReceiveRun
RunReceive(bool doubleRegistration)
{
    ReceiveRun run;
    NodeContainer nodes(3); // H, P, C
    Ptr<Node> h = nodes.Get(0);
    SimpleNetDeviceHelper simple;
    simple.SetNetDevicePointToPointMode(true);
    NetDeviceContainer hp = simple.Install(NodeContainer(h, nodes.Get(1)));
    SimpleNetDeviceHelper shared; // not point-to-point: NeedsArp
    NetDeviceContainer hc = shared.Install(NodeContainer(h, nodes.Get(2)));
    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper address("10.1.0.0", "255.255.255.0");
    address.Assign(hp);
    address.SetBase("10.2.0.0", "255.255.255.0");
    address.Assign(hc);

    Ptr<RoceHostPath> path = CreateObject<RoceHostPath>();
    path->Install(
        h,
        4791,
        RoceHostPath::ReceiveCallback(
            [&run](const Ptr<Packet>&, const Ipv4Header&, uint16_t, const Ptr<Ipv4Interface>&) {
                ++run.roceReceived;
            }));
    if (doubleRegistration)
    {
        Ptr<TrafficControlLayer> tc = h->GetObject<TrafficControlLayer>();
        h->RegisterProtocolHandler(MakeCallback(&TrafficControlLayer::Receive, tc),
                                   Ipv4L3Protocol::PROT_NUMBER,
                                   hc.Get(0));
    }
    h->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
            [&run](Ptr<const Packet>, Ptr<Ipv4>, uint32_t interface) {
                run.ipv4RxFromArpDevice += interface == 2;
            }));
    Ptr<Socket> sink = Socket::CreateSocket(h, UdpSocketFactory::GetTypeId());
    sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
    sink->SetRecvCallback(Callback<void, Ptr<Socket>>([&run](Ptr<Socket> s) {
        while (s->Recv())
        {
            ++run.udpReceived;
        }
    }));
    Ptr<Socket> fromC = Socket::CreateSocket(nodes.Get(2), UdpSocketFactory::GetTypeId());
    fromC->Connect(InetSocketAddress(Ipv4Address("10.2.0.1"), 9));
    Ptr<Socket> fromP = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
    fromP->Connect(InetSocketAddress(Ipv4Address("10.1.0.1"), 4791));
    // Three datagrams each way: ARP keeps three while it resolves (PendingQueueSize), and
    // sends its request within RequestJitter (up to 10 ms).
    for (uint32_t i = 0; i < 3; ++i)
    {
        Simulator::Schedule(MicroSeconds(10 + i), [fromC]() { fromC->Send(Create<Packet>(200)); });
        Simulator::Schedule(MicroSeconds(10 + i), [fromP]() { fromP->Send(Create<Packet>(300)); });
    }
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    run.fastReceived = path->GetFastReceived();
    Simulator::Destroy();
    return run;
}

/// LeanLinkTakeIpv4Receive's node-wide entries.
class LeanLinkIpv4ReceiveTestCase : public TestCase
{
  public:
    LeanLinkIpv4ReceiveTestCase()
        : TestCase(
              "LeanLinkTakeIpv4Receive: IPv4 on a device not taken reaches IPv4 once (control: "
              "a second registration, twice); RoCE on the device taken reaches the fast "
              "path once")
    {
    }

  private:
    void DoRun() override
    {
        const ReceiveRun run = RunReceive(false);
        NS_TEST_ASSERT_MSG_EQ(run.udpReceived, 3, "the ARP datagrams arrive (ARP resolved)");
        NS_TEST_ASSERT_MSG_EQ(run.ipv4RxFromArpDevice, 3, "once each through Ipv4L3Protocol");
        NS_TEST_ASSERT_MSG_EQ(run.roceReceived, 3, "RoCE on the taken device: fast path");
        NS_TEST_ASSERT_MSG_EQ(run.fastReceived, 3, "counted once each");
        const ReceiveRun twice = RunReceive(true);
        NS_TEST_ASSERT_MSG_EQ(twice.ipv4RxFromArpDevice, 6, "control: two registrations, twice");
    }
};

} // namespace

/// The fast paths' shortcuts past ns-3's per-packet lookups.
class LeanLinkIpv4EgressTestSuite : public TestSuite
{
  public:
    LeanLinkIpv4EgressTestSuite()
        : TestSuite("lean-link-ipv4-egress", UNIT)
    {
        AddTestCase(new LeanLinkIpv4EgressTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkIpv4EgressFabricTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkIpv4QueueDiscItemTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkIpv4ReceiveTestCase(), TestCase::QUICK);
    }
};

/// The suite's instance.
static LeanLinkIpv4EgressTestSuite g_vclosIpv4EgressTestSuite;
