/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Simulator performance of the oncache data path: one TCP flow of 64 KB super-segments at
// 100 Gbit/s between two pods, in each mode; prints the wall-clock seconds per simulated
// second and the events executed per wall-clock second. Side by side, in the same process,
// the same flow written as a stock ns-3 program (two nodes on a 100 Gbit/s point-to-point
// link with the same MTU, delay and TCP settings, no pods, no CPU model), and the ratios. The
// stock flow is not CPU-bound, so it delivers about 2.5x the bytes: compare per event and per
// byte delivered, not per simulated second. Timing
// figures only: nothing is asserted (wall-clock time depends on the machine and its load).
//
//   oncache-datapath-benchmark --duration=50ms
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/oncache-check.h"
#include "ns3/oncache-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/suite-module.h"

#include <chrono>
#include <functional>
#include <iomanip>
#include <iostream>
#include <stdexcept>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("OncacheDatapathBenchmark");

namespace
{

/// Figures of one run.
struct Figures
{
    double wallPerSimSecond = 0; //!< wall-clock seconds per simulated second
    double eventsPerSecond = 0;  //!< events per wall-clock second
    uint64_t events = 0;         //!< events executed
    double gbps = 0;             //!< goodput, to show the run did real work
};

/// Run the simulation built so far for `duration`, time it, and destroy it.
Figures
Measure(Time duration, const std::function<uint64_t()>& receivedBytes)
{
    Simulator::Stop(duration);
    auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Figures f;
    f.events = Simulator::GetEventCount();
    f.wallPerSimSecond = wall / duration.GetSeconds();
    f.eventsPerSecond = wall > 0 ? f.events / wall : 0;
    f.gbps = receivedBytes() * 8.0 / duration.GetSeconds() / 1e9;
    Simulator::Destroy();
    return f;
}

/// Run one TCP flow for `duration` in `mode` and time it.
Figures
Run(OncacheMode mode, Time duration)
{
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::TcpNoDelay", BooleanValue(false));
    Ptr<OncacheTopologyHelper> helper = CreateObject<OncacheTopologyHelper>();
    helper->SetAttribute("Mode", EnumValue(mode));
    helper->SetAttribute("SuperSegmentBytes", UintegerValue(65000));
    helper->SetDatapathAttribute("ReceiveSteering", EnumValue(OncacheHostDatapath::STEER_RFS));
    Ptr<OncacheCluster> cluster = helper->Install();
    Ipv4Address server = helper->GetPodAddress(1, 0);
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 5001));
    Ptr<PacketSink> s = DynamicCast<PacketSink>(sink.Install(cluster->GetPod(server)).Get(0));
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(server, 5001));
    // One write per segment: ns-3's TcpTxBuffer then never merges (copies) writes.
    bulk.SetAttribute("SendSize", UintegerValue(helper->GetPodMtu() - 52));
    bulk.Install(cluster->GetPod(helper->GetPodAddress(0, 0))).Start(MicroSeconds(1));
    return Measure(duration, [s]() { return s->GetTotalRx(); });
}

/// The same flow as a stock ns-3 program: two nodes, one point-to-point link, BulkSend to
/// PacketSink.
Figures
RunStock(Time duration)
{
    Ptr<OncacheTopologyHelper> reference = CreateObject<OncacheTopologyHelper>();
    reference->SetAttribute("Mode", EnumValue(ONCACHE_MODE_BARE_METAL));
    reference->SetAttribute("SuperSegmentBytes", UintegerValue(65000));
    TimeValue delay;
    reference->GetAttribute("LinkDelay", delay);
    const uint32_t mtu = reference->GetPodMtu();
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::TcpNoDelay", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mtu - 52));
    NodeContainer hosts(2);
    PointToPointHelper link; // full duplex (a stock CSMA channel is a shared bus)
    link.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    link.SetChannelAttribute("Delay", delay);
    link.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    NetDeviceContainer nics = link.Install(hosts);
    InternetStackHelper().Install(hosts);
    Ipv4AddressHelper addresses("198.18.0.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(nics);
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 5001));
    Ptr<PacketSink> s = DynamicCast<PacketSink>(sink.Install(hosts.Get(1)).Get(0));
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(interfaces.GetAddress(1), 5001));
    bulk.SetAttribute("SendSize", UintegerValue(mtu - 52));
    bulk.Install(hosts.Get(0)).Start(MicroSeconds(1));
    return Measure(duration, [s]() { return s->GetTotalRx(); });
}

} // namespace

/// The benchmark; bad input throws (SuiteRunProgram prints one line).
int
Body(int argc, char* argv[])
{
    Time duration = MilliSeconds(50);
    SuiteCommandLine cmd(__FILE__);
    cmd.AddValue("duration", "Simulated time of each run (1 ms to 10 s)", duration);
    cmd.Parse(argc, argv);
    ONCACHE_REQUIRE(duration >= MilliSeconds(1) && duration <= Seconds(10),
                    std::invalid_argument,
                    "duration: " << duration.As(Time::MS) << " is not within 1 ms to 10 s");
    std::cout << "1-flow TCP, 64 KB super-segments, 100 Gbit/s, " << duration.As(Time::MS)
              << " simulated per mode\n"
              << std::left << std::setw(12) << "mode" << std::right << std::setw(14)
              << "wall s/sim-s" << std::setw(14) << "M events/s" << std::setw(12) << "events"
              << std::setw(10) << "Gbit/s"
              << "\n";
    auto print = [](const std::string& name, const Figures& f) {
        std::cout << std::left << std::setw(12) << name << std::right << std::fixed
                  << std::setprecision(2) << std::setw(14) << f.wallPerSimSecond << std::setw(14)
                  << f.eventsPerSecond / 1e6 << std::setw(12) << f.events << std::setprecision(1)
                  << std::setw(10) << f.gbps << "\n";
    };
    Figures stock = RunStock(duration);
    std::vector<std::pair<std::string, Figures>> ours;
    for (auto mode : {ONCACHE_MODE_BARE_METAL, ONCACHE_MODE_OVERLAY, ONCACHE_MODE_ONCACHE})
    {
        ours.emplace_back(OncacheModeToString(mode), Run(mode, duration));
        print(ours.back().first, ours.back().second);
    }
    print("stock ns-3", stock);
    std::cout << "ratios against stock ns-3 (same MTU, delay and TCP; no pods, no CPU model):\n";
    for (const auto& [name, f] : ours)
    {
        std::cout << "  " << std::left << std::setw(10) << name << std::right << std::fixed
                  << std::setprecision(2) << " events/s x"
                  << f.eventsPerSecond / stock.eventsPerSecond << ", wall per simulated second x"
                  << f.wallPerSimSecond / stock.wallPerSimSecond << ", events x"
                  << static_cast<double>(f.events) / stock.events << ", wall per byte delivered x"
                  << (f.wallPerSimSecond / f.gbps) / (stock.wallPerSimSecond / stock.gbps) << "\n";
    }
    return 0;
}

int
main(int argc, char* argv[])
{
    return SuiteRunProgram(argc, argv, Body);
}
