/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Simulator performance of the oncache data path: one TCP flow of 64 KB super-segments at
// 100 Gbit/s between two pods, in each mode; prints the wall-clock seconds per simulated
// second and the events executed per wall-clock second. Timing figures only: nothing is
// asserted (wall-clock time depends on the machine and its load).
//
//   oncache-datapath-benchmark --duration=50ms
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/oncache-module.h"

#include <chrono>
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
    Simulator::Stop(duration);
    auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Figures f;
    f.events = Simulator::GetEventCount();
    f.wallPerSimSecond = wall / duration.GetSeconds();
    f.eventsPerSecond = wall > 0 ? f.events / wall : 0;
    f.gbps = s->GetTotalRx() * 8.0 / duration.GetSeconds() / 1e9;
    Simulator::Destroy();
    return f;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time duration = MilliSeconds(50);
    CommandLine cmd(__FILE__);
    cmd.AddValue("duration", "Simulated time of each run", duration);
    cmd.Parse(argc, argv);
    if (duration < MilliSeconds(1))
    {
        std::cerr << "error: duration: " << duration.As(Time::MS) << " is below 1 ms" << std::endl;
        return 1;
    }
    std::cout << "1-flow TCP, 64 KB super-segments, 100 Gbit/s, " << duration.As(Time::MS)
              << " simulated per mode\n"
              << std::left << std::setw(12) << "mode" << std::right << std::setw(14)
              << "wall s/sim-s" << std::setw(14) << "M events/s" << std::setw(12) << "events"
              << std::setw(10) << "Gbit/s"
              << "\n";
    for (auto mode : {ONCACHE_MODE_BARE_METAL, ONCACHE_MODE_OVERLAY, ONCACHE_MODE_ONCACHE})
    {
        Figures f = Run(mode, duration);
        std::cout << std::left << std::setw(12) << OncacheModeToString(mode) << std::right
                  << std::fixed << std::setprecision(2) << std::setw(14) << f.wallPerSimSecond
                  << std::setw(14) << f.eventsPerSecond / 1e6 << std::setw(12) << f.events
                  << std::setprecision(1) << std::setw(10) << f.gbps << "\n";
    }
    return 0;
}
