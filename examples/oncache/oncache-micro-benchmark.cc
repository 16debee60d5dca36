/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A first cut of the paper's micro-benchmarks (spec section 5): 1-flow TCP throughput with
// GSO-like super-segments, closed-loop 1-byte TCP_RR, UDP_RR and TCP_CRR rates, and 1-flow UDP
// stream goodput, in bare
// metal, standard overlay and ONCache modes, with the CPU time per transaction. Prints a table
// with ONCache's gain over the overlay next to the paper's, and writes a CSV.
//
// The costs are the spec's INFERRED defaults (section 1.3), not yet calibrated to the paper's
// absolute numbers (see doc/oncache/oncache.rst, "Validation").
//
//   oncache-micro-benchmark --duration=20ms --csv=oncache-micro-benchmark.csv
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/oncache-module.h"

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <stdexcept>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("OncacheMicroBenchmark");

namespace
{

/// Result of one run.
struct Result
{
    double wallPerSimSecond = 0;  //!< wall-clock seconds per simulated second
    double eventsPerSecond = 0;   //!< events executed per wall-clock second
    double value = 0;             //!< Gbit/s or transactions/s
    double cpuPerUnitUs = 0;      //!< CPU us per transaction or per Gbit
    double hitRate = 0;           //!< fast-path share of all data-path decisions
    double slowPerConnection = 0; //!< mean slow-path egress packets per connection
};

/// Fill the cache statistics of a result from a tracker.
void
CacheStats(const Ptr<OncacheStatsTracker>& stats, Result& r)
{
    uint64_t fast = 0;
    uint64_t all = 0;
    for (auto dir : {OncacheHostDatapath::EGRESS, OncacheHostDatapath::INGRESS})
    {
        for (int p = 0; p <= OncacheHostDatapath::PATH_FALLBACK; ++p)
        {
            uint64_t n = stats->GetPathCount(dir, static_cast<OncacheHostDatapath::Path>(p));
            all += n;
            fast += p == OncacheHostDatapath::PATH_FAST ? n : 0;
        }
    }
    r.hitRate = all ? 100.0 * fast / all : 0;
    uint64_t slow = 0;
    for (const auto& flow : stats->GetFlows())
    {
        slow += stats->GetFlow(flow).egressSlow;
    }
    r.slowPerConnection = stats->GetFlows().empty() ? 0 : slow * 1.0 / stats->GetFlows().size();
}

/// Build a two-host cluster in a mode.
Ptr<OncacheCluster>
Build(OncacheMode mode, uint32_t superSegment, Ptr<OncacheTopologyHelper>& helper)
{
    helper = CreateObject<OncacheTopologyHelper>();
    helper->SetAttribute("Mode", EnumValue(mode));
    helper->SetAttribute("SuperSegmentBytes", UintegerValue(superSegment));
    return helper->Install();
}

/// 1-flow TCP bulk throughput (Gbit/s) and CPU us per Gbit transferred.
Result
RunTcpStream(OncacheMode mode, Time duration)
{
    // Large socket buffers, as Linux autotuning would give; 64 KB application writes.
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
    Ptr<OncacheTopologyHelper> helper;
    Ptr<OncacheCluster> cluster = Build(mode, 65000, helper);
    Ptr<OncacheStatsTracker> stats = CreateObject<OncacheStatsTracker>();
    stats->Install(cluster);
    Ipv4Address server = helper->GetPodAddress(1, 0);
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 5001));
    Ptr<PacketSink> s = DynamicCast<PacketSink>(sink.Install(cluster->GetPod(server)).Get(0));
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(server, 5001));
    bulk.SetAttribute("SendSize", UintegerValue(65536));
    bulk.Install(cluster->GetPod(helper->GetPodAddress(0, 0))).Start(MicroSeconds(1));
    Time warmUp = duration / 5;
    uint64_t atWarmUp = 0;
    Simulator::Schedule(warmUp, [&]() { atWarmUp = s->GetTotalRx(); });
    Simulator::Stop(duration);
    auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    double seconds = (duration - warmUp).GetSeconds();
    Result r;
    r.value = (s->GetTotalRx() - atWarmUp) * 8.0 / seconds / 1e9;
    double gbit = s->GetTotalRx() * 8.0 / 1e9;
    r.cpuPerUnitUs = (stats->GetHostBusy(0) + stats->GetHostBusy(1)).GetMicroSeconds() / gbit;
    r.wallPerSimSecond = wall / duration.GetSeconds();
    r.eventsPerSecond = Simulator::GetEventCount() / wall;
    Simulator::Destroy();
    return r;
}

/// 1-flow UDP stream goodput (Gbit/s, iperf3 -u -b 0 like) and CPU us per Gbit received.
Result
RunUdpStream(OncacheMode mode, Time duration)
{
    Ptr<OncacheTopologyHelper> helper;
    Ptr<OncacheCluster> cluster = Build(mode, 0, helper);
    Ptr<OncacheStatsTracker> stats = CreateObject<OncacheStatsTracker>();
    stats->Install(cluster);
    OncacheUdpStreamHelper stream(helper->GetPodAddress(1, 0), 5201);
    stream.SetClientAttribute("PacketSize", UintegerValue(helper->GetPodMtu() - 28));
    Ptr<OncacheUdpStreamServer> sink =
        DynamicCast<OncacheUdpStreamServer>(stream.InstallServer(cluster).Get(0));
    stream.InstallClient(cluster, helper->GetPodAddress(0, 0)).Start(MicroSeconds(1));
    Time warmUp = duration / 5;
    uint64_t atWarmUp = 0;
    Simulator::Schedule(warmUp, [&]() { atWarmUp = sink->GetTotalRx(); });
    Simulator::Stop(duration);
    Simulator::Run();
    Result r;
    r.value = (sink->GetTotalRx() - atWarmUp) * 8.0 / (duration - warmUp).GetSeconds() / 1e9;
    double gbit = sink->GetTotalRx() * 8.0 / 1e9;
    r.cpuPerUnitUs = (stats->GetHostBusy(0) + stats->GetHostBusy(1)).GetMicroSeconds() / gbit;
    Simulator::Destroy();
    return r;
}

/// Closed-loop 1-byte request/response rate (transactions/s) and CPU us per transaction.
Result
RunRr(OncacheMode mode, bool tcp, bool connectPerTransaction, Time duration)
{
    Ptr<OncacheTopologyHelper> helper;
    Ptr<OncacheCluster> cluster = Build(mode, 0, helper);
    Ptr<OncacheStatsTracker> stats = CreateObject<OncacheStatsTracker>();
    stats->Install(cluster);
    Ipv4Address server = helper->GetPodAddress(1, 0);
    OncacheRrHelper rr(tcp ? "ns3::TcpSocketFactory" : "ns3::UdpSocketFactory", server, 7000);
    rr.SetClientAttribute("NewConnectionPerTransaction", BooleanValue(connectPerTransaction));
    rr.InstallServer(cluster->GetPod(server));
    ApplicationContainer client =
        rr.InstallClients(NodeContainer(cluster->GetPod(helper->GetPodAddress(0, 0))));
    client.Start(MicroSeconds(100));
    Time warmUp = duration / 5;
    uint64_t transactions = 0;
    client.Get(0)->TraceConnectWithoutContext(
        "Transaction",
        MakeBoundCallback(
            +[](uint64_t* n, Time* w, Time) { *n += Simulator::Now() > *w; },
            &transactions,
            &warmUp));
    Time busyAtWarmUp(0);
    Simulator::Schedule(warmUp,
                        [&]() { busyAtWarmUp = stats->GetHostBusy(0) + stats->GetHostBusy(1); });
    Simulator::Stop(duration);
    Simulator::Run();
    Result r;
    r.value = transactions / (duration - warmUp).GetSeconds();
    Time busy = stats->GetHostBusy(0) + stats->GetHostBusy(1) - busyAtWarmUp;
    r.cpuPerUnitUs = transactions ? busy.GetMicroSeconds() * 1.0 / transactions : 0;
    CacheStats(stats, r);
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time duration = MilliSeconds(20);
    std::string csv = "oncache-micro-benchmark.csv";
    CommandLine cmd(__FILE__);
    cmd.AddValue("duration", "Simulated time of each run (the first fifth is warm-up)", duration);
    cmd.AddValue("csv", "Output CSV file", csv);
    cmd.Parse(argc, argv);
    try
    {
        const OncacheMode modes[] = {ONCACHE_MODE_BARE_METAL,
                                     ONCACHE_MODE_OVERLAY,
                                     ONCACHE_MODE_ONCACHE};

        struct Row
        {
            std::string metric;                    //!< name
            std::string paper;                     //!< the paper's ONCache vs overlay
            std::map<OncacheMode, Result> results; //!< per mode
        };

        std::vector<Row> rows(5);
        rows[0].metric = "TCP 1-flow Gbit/s";
        rows[0].paper = "+11.5%";
        rows[1].metric = "TCP RR trans/s";
        rows[1].paper = "+36%";
        rows[2].metric = "UDP RR trans/s";
        rows[2].paper = "+34%";
        rows[3].metric = "TCP CRR trans/s";
        rows[3].paper = "modest";
        rows[4].metric = "UDP 1-flow Gbit/s";
        rows[4].paper = "+20%";
        for (auto mode : modes)
        {
            rows[0].results[mode] = RunTcpStream(mode, duration);
            rows[1].results[mode] = RunRr(mode, true, false, duration);
            rows[2].results[mode] = RunRr(mode, false, false, duration);
            rows[3].results[mode] = RunRr(mode, true, true, duration);
            rows[4].results[mode] = RunUdpStream(mode, duration);
        }
        std::ofstream out(csv);
        out << "metric,mode,value,cpu_us_per_unit\n";
        std::cout << std::left << std::setw(20) << "metric" << std::right << std::setw(12)
                  << "BareMetal" << std::setw(12) << "Overlay" << std::setw(12) << "Oncache"
                  << std::setw(14) << "ovl/bare" << std::setw(14) << "onc/ovl" << std::setw(10)
                  << "paper" << std::setw(18) << "CPU/unit onc/ovl"
                  << "\n";
        for (const auto& row : rows)
        {
            const auto& r = row.results;
            auto pct = [](double a, double b) { return b > 0 ? (a / b - 1) * 100 : 0.0; };
            std::cout << std::left << std::setw(20) << row.metric << std::right << std::fixed
                      << std::setprecision(1);
            for (auto mode : modes)
            {
                double v = r.at(mode).value;
                std::cout << std::setw(12) << (v > 1000 ? v / 1000 : v) << (v > 1000 ? "k" : "");
                out << row.metric << "," << OncacheModeToString(mode) << "," << v << ","
                    << r.at(mode).cpuPerUnitUs << "\n";
            }
            std::cout << std::setw(13)
                      << pct(r.at(ONCACHE_MODE_OVERLAY).value, r.at(ONCACHE_MODE_BARE_METAL).value)
                      << "%" << std::setw(13)
                      << pct(r.at(ONCACHE_MODE_ONCACHE).value, r.at(ONCACHE_MODE_OVERLAY).value)
                      << "%" << std::setw(10) << row.paper << std::setw(17)
                      << pct(r.at(ONCACHE_MODE_ONCACHE).cpuPerUnitUs,
                             r.at(ONCACHE_MODE_OVERLAY).cpuPerUnitUs)
                      << "%\n";
        }
        // Benchmark (not in the CSV: wall-clock time is not deterministic).
        const Result& rr = rows[1].results.at(ONCACHE_MODE_ONCACHE);
        const Result& crr = rows[3].results.at(ONCACHE_MODE_ONCACHE);
        std::cout << "\nONCache: cache hit rate " << std::setprecision(2) << rr.hitRate
                  << "% in TCP RR, " << crr.hitRate << "% in TCP CRR; slow-path packets per "
                  << "connection (egress) " << std::setprecision(2) << crr.slowPerConnection
                  << " in TCP CRR\n";
        std::cout << "\nbenchmark, 1-flow TCP at 100 Gbit/s:";
        for (auto mode : modes)
        {
            const Result& r = rows[0].results.at(mode);
            std::cout << "  " << OncacheModeToString(mode) << " " << std::setprecision(1)
                      << r.wallPerSimSecond << " s/sim-s, " << std::setprecision(2)
                      << r.eventsPerSecond / 1e6 << " M events/s;";
        }
        std::cout << "\n";
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
