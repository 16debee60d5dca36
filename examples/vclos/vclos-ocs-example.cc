/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// TCP through an optical circuit switch whose circuits move, with a dark time.
//
// Host a sends one long TCP flow (BulkSend) to host d. Both hang off one OcsSwitch, as do
// two relays (spine-like switches routing with ClosEcmpRouting), b and c, with two ports
// each; all six ports share 10.0.0.0/24 (point-to-point devices need no ARP, so a frame
// reaches whatever the circuit joins):
//
//     port 0: a (10.0.0.1)    port 2: b (.3)    port 4: c (.5)
//     port 1: d (10.0.0.2)    port 3: b (.4)    port 5: c (.6)
//
// The flow starts on the path a -0-2- b -3-1- d. At --moveAt both circuits move in one
// batch to a -0-4- c -5-1- d, so ports 0, 1, 4 and 5 are dark for --darkTime while ports 2
// and 3 are left unmapped. With --follow (default) the IPv4 interfaces follow the circuits
// (OcsHelper::FollowCircuits), so a's and d's TCP find no route while the ports are
// dark; without it they keep sending into the dark ports.
//
// Writes <output>.csv, one row per --bin: what the sink received, the switch forwarded and
// dropped (by reason), and the sender's congestion window. Prints the outage on stdout.

#include "ns3/applications-module.h"
#include "ns3/clos-ecmp-routing-helper.h"
#include "ns3/clos-ecmp-routing.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/ocs-helper.h"
#include "ns3/ocs-switch.h"
#include "ns3/suite-command-line.h"

#include <array>
#include <cmath>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("VclosOcsExample");

namespace
{

/// What one time bin saw.
struct Bin
{
    uint64_t rxBytes = 0;              //!< bytes the sink received
    uint64_t forwarded = 0;            //!< frames the switch forwarded
    std::array<uint64_t, 3> dropped{}; //!< frames the switch dropped, by reason
    uint32_t cwnd = 0;                 //!< sender's cwnd at the end of the bin (bytes)
};

/// The run's measurements.
struct Record
{
    Time bin;              //!< bin width
    std::vector<Bin> bins; //!< by bin
    uint32_t cwnd = 0;     //!< latest cwnd
    Time lastRxBeforeMove; //!< sink's last receipt before the move
    Time firstRxAfterMove; //!< sink's first receipt after the move (or -1)
    Time moveAt;           //!< when the circuits moved
    Time circuitsUp;       //!< when the last new circuit came up
    uint64_t rxBytes = 0;  //!< total at the sink

    Bin& At(const Time& t)
    {
        auto index = static_cast<std::size_t>(t.GetInteger() / bin.GetInteger());
        if (index >= bins.size())
        {
            bins.resize(index + 1);
        }
        return bins[index];
    }
};

/// The most CSV rows a run may ask for (--stopAt / --bin): each is a row kept in memory and
/// an event.
constexpr int64_t MAX_BINS = 1000000;

/// \return an empty string, or the one-line reason the options are refused
std::string
CheckOptions(const Time& darkTime,
             const Time& moveAt,
             const Time& stopAt,
             const Time& bin,
             const Time& minRto,
             const Time& hopDelay)
{
    if (darkTime.IsStrictlyNegative())
    {
        return "--darkTime: must not be negative, got " + std::to_string(darkTime.GetSeconds());
    }
    if (hopDelay.IsStrictlyNegative())
    {
        return "--hopDelay: must not be negative";
    }
    if (!bin.IsStrictlyPositive() || bin > stopAt)
    {
        return "--bin: must be positive and at most --stopAt";
    }
    if (stopAt.GetInteger() / bin.GetInteger() > MAX_BINS)
    {
        return "--bin: must be at least --stopAt / " + std::to_string(MAX_BINS) + " (" +
               std::to_string(MAX_BINS) + " CSV rows)";
    }
    if (!minRto.IsStrictlyPositive())
    {
        return "--minRto: must be positive";
    }
    if (!moveAt.IsStrictlyPositive() || moveAt >= stopAt)
    {
        return "--moveAt: must be after 0 s and before --stopAt";
    }
    if (stopAt > Seconds(600))
    {
        return "--stopAt: at most 600 s";
    }
    return "";
}

} // namespace

int
main(int argc, char* argv[])
{
    Time darkTime = MilliSeconds(10);
    Time moveAt = Seconds(1);
    Time stopAt = Seconds(2);
    Time bin = MilliSeconds(10);
    Time minRto = MilliSeconds(200);
    Time hopDelay = MicroSeconds(1);
    DataRate dataRate("1Gbps");
    bool follow = true;
    std::string output = "vclos-ocs-example";

    SuiteCommandLine cmd(__FILE__);
    cmd.AddValue("darkTime", "OCS reconfiguration (dark) time", darkTime);
    cmd.AddValue("moveAt", "when both circuits move from relay b to relay c", moveAt);
    cmd.AddValue("stopAt", "end of the run", stopAt);
    cmd.AddValue("bin", "width of a CSV row", bin);
    cmd.AddValue("minRto", "TCP's minimum retransmission timeout (TcpSocketBase::MinRto)", minRto);
    cmd.AddValue("hopDelay", "propagation delay device <-> OCS (OcsSwitch::Delay)", hopDelay);
    cmd.AddValue("dataRate", "rate of every device (> 0)", dataRate);
    cmd.AddValue("follow", "IPv4 interfaces follow the circuits (FollowCircuits)", follow);
    cmd.AddOutputPrefix("output", "prefix of the CSV file (its folder must exist)", output);
    cmd.Parse(argc, argv);
    std::string bad = dataRate.GetBitRate() == 0
                          ? "--dataRate: must be above 0bps"
                          : CheckOptions(darkTime, moveAt, stopAt, bin, minRto, hopDelay);
    if (!bad.empty())
    {
        std::cerr << "vclos-ocs-example: " << bad << std::endl;
        return 1;
    }

    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(minRto));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));

    NodeContainer hosts; // a, d
    hosts.Create(2);
    NodeContainer relays; // b, c
    relays.Create(2);
    NodeContainer ports; // in port order
    ports.Add(hosts.Get(0));
    ports.Add(hosts.Get(1));
    ports.Add(relays.Get(0));
    ports.Add(relays.Get(0));
    ports.Add(relays.Get(1));
    ports.Add(relays.Get(1));

    OcsHelper helper;
    helper.SetDeviceAttribute("DataRate", DataRateValue(dataRate));
    helper.SetOcsAttribute("Delay", TimeValue(hopDelay));
    helper.SetOcsAttribute("ReconfigurationTime", TimeValue(darkTime));
    Ptr<OcsSwitch> ocs = helper.Install(ports);

    InternetStackHelper stack;
    stack.Install(hosts);
    // Relays route with ClosEcmpRouting, whose routes outlive an interface going down
    // (Ipv4StaticRouting deletes the routes through an interface that goes down).
    InternetStackHelper relayStack;
    relayStack.SetRoutingHelper(ClosEcmpRoutingHelper());
    relayStack.Install(relays);
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(OcsHelper::GetDevices(ocs));
    Ipv4Address aAddress = interfaces.GetAddress(0);
    Ipv4Address dAddress = interfaces.GetAddress(1);
    // Each relay: a through its first port, d through its second (hosts use the subnet).
    for (uint32_t r = 0; r < 2; ++r)
    {
        Ptr<ClosEcmpRouting> routes =
            DynamicCast<ClosEcmpRouting>(relays.Get(r)->GetObject<Ipv4>()->GetRoutingProtocol());
        routes->AddRoute(aAddress, Ipv4Mask::GetOnes(), {1});
        routes->AddRoute(dAddress, Ipv4Mask::GetOnes(), {2});
    }

    Record record;
    record.bin = bin;
    record.moveAt = moveAt;
    record.firstRxAfterMove = Time(-1);
    Record* rec = &record;

    // Circuits: a-b, b-d up from the start; the moves at moveAt.
    ocs->SetAttribute("ReconfigurationTime", TimeValue(Time(0)));
    std::string error;
    if (!ocs->Reconfigure({{0, 2}, {3, 1}}, &error))
    {
        std::cerr << "vclos-ocs-example: " << error << std::endl;
        return 1;
    }
    ocs->SetAttribute("ReconfigurationTime", TimeValue(darkTime));
    if (follow)
    {
        OcsHelper::FollowCircuits(ocs);
    }
    ocs->TraceConnectWithoutContext("CircuitDown",
                                    Callback<void, uint32_t, uint32_t>([](uint32_t a, uint32_t b) {
                                        std::cout << "t=" << Simulator::Now().GetSeconds()
                                                  << " s circuit " << a << "-" << b << " down"
                                                  << std::endl;
                                    }));
    ocs->TraceConnectWithoutContext(
        "CircuitUp",
        Callback<void, uint32_t, uint32_t>([rec](uint32_t a, uint32_t b) {
            rec->circuitsUp = Simulator::Now();
            std::cout << "t=" << Simulator::Now().GetSeconds() << " s circuit " << a << "-" << b
                      << " up" << std::endl;
        }));
    ocs->TraceConnectWithoutContext("Forward",
                                    Callback<void, Ptr<const Packet>, uint32_t, uint32_t>(
                                        [rec](const Ptr<const Packet>&, uint32_t, uint32_t) {
                                            ++rec->At(Simulator::Now()).forwarded;
                                        }));
    ocs->TraceConnectWithoutContext(
        "Drop",
        Callback<void, Ptr<const Packet>, uint32_t, OcsSwitch::DropReason>(
            [rec](const Ptr<const Packet>&, uint32_t, OcsSwitch::DropReason why) {
                ++rec->At(Simulator::Now()).dropped[why];
            }));
    Simulator::Schedule(moveAt, [ocs]() {
        std::string why;
        if (!ocs->Reconfigure({{0, 4}, {5, 1}}, &why))
        {
            NS_FATAL_ERROR(why); // cannot happen: the ports were checked at set-up
        }
    });

    uint16_t port = 9;
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sink = sinkHelper.Install(hosts.Get(1));
    sink.Start(Seconds(0));
    BulkSendHelper source("ns3::TcpSocketFactory", InetSocketAddress(dAddress, port));
    source.SetAttribute("MaxBytes", UintegerValue(0));
    ApplicationContainer sender = source.Install(hosts.Get(0));
    sender.Start(MilliSeconds(1));
    sink.Get(0)->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, const Address&>(
            [rec](const Ptr<const Packet>& p, const Address&) {
                Time now = Simulator::Now();
                rec->At(now).rxBytes += p->GetSize();
                rec->rxBytes += p->GetSize();
                if (now < rec->moveAt)
                {
                    rec->lastRxBeforeMove = now;
                }
                else if (rec->firstRxAfterMove.IsStrictlyNegative())
                {
                    rec->firstRxAfterMove = now;
                }
            }));
    Simulator::Schedule(MilliSeconds(2), [rec]() {
        Config::ConnectWithoutContext(
            "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/CongestionWindow",
            Callback<void, uint32_t, uint32_t>(
                [rec](uint32_t, uint32_t cwnd) { rec->cwnd = cwnd; }));
    });
    for (Time t = bin; t <= stopAt; t += bin)
    {
        Simulator::Schedule(t - NanoSeconds(1),
                            [rec]() { rec->At(Simulator::Now()).cwnd = rec->cwnd; });
    }

    Simulator::Stop(stopAt);
    Simulator::Run();

    std::ofstream csv(output + ".csv");
    if (!csv)
    {
        std::cerr << "vclos-ocs-example: cannot write " << output << ".csv" << std::endl;
        return 1;
    }
    csv << "time_s,rx_bytes,goodput_mbps,ocs_forwarded,drop_unmapped,drop_dark,drop_cut,"
           "cwnd_bytes\n";
    for (std::size_t i = 0; i < record.bins.size(); ++i)
    {
        const Bin& b = record.bins[i];
        csv << std::fixed << std::setprecision(6) << (bin * static_cast<int64_t>(i)).GetSeconds()
            << "," << b.rxBytes << "," << std::setprecision(3)
            << b.rxBytes * 8.0 / bin.GetSeconds() / 1e6 << "," << b.forwarded << ","
            << b.dropped[OcsSwitch::UNMAPPED] << "," << b.dropped[OcsSwitch::DARK] << ","
            << b.dropped[OcsSwitch::CUT] << "," << b.cwnd << "\n";
    }
    std::cout << std::fixed << std::setprecision(6);
    std::cout << "darkTime_s,minRto_s,follow,last_rx_before_move_s,circuits_up_s,"
                 "first_rx_after_move_s,outage_s,rx_bytes,drop_unmapped,drop_dark,drop_cut\n";
    double outage = record.firstRxAfterMove.IsStrictlyNegative()
                        ? -1
                        : (record.firstRxAfterMove - record.lastRxBeforeMove).GetSeconds();
    std::cout << darkTime.GetSeconds() << "," << minRto.GetSeconds() << "," << follow << ","
              << record.lastRxBeforeMove.GetSeconds() << "," << record.circuitsUp.GetSeconds()
              << "," << record.firstRxAfterMove.GetSeconds() << "," << outage << ","
              << record.rxBytes << "," << ocs->GetDroppedFrames(OcsSwitch::UNMAPPED) << ","
              << ocs->GetDroppedFrames(OcsSwitch::DARK) << ","
              << ocs->GetDroppedFrames(OcsSwitch::CUT) << std::endl;
    Simulator::Destroy();
    return 0;
}
