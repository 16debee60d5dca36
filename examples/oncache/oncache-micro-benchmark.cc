/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The ONCache paper's micro-benchmarks in bare metal, standard overlay and ONCache
// modes: TCP and UDP stream throughput with GSO/GRO-like super-segments for 1, 2, 4, 8 flows
// (one pod pair per flow), closed-loop 1-byte TCP_RR, UDP_RR and TCP_CRR rates, and CPU time
// per transaction / per Gbit (application time included). Prints ONCache's gain over the
// overlay next to the paper's numbers, the cache hit rate and the slow-path packets per
// connection; writes a CSV and a gnuplot PNG of the throughput sweep.
//
//   oncache-micro-benchmark                               # default, well under a minute
//   oncache-micro-benchmark --duration=100ms --flows=1,2,4,8,16
//
// The calibration (doc/oncache/oncache.rst, "Calibration") fits every cost to a named
// measurement of the eBPF testbed (utils/oncache-fit.py), LinkDelay to the paper's bare-metal
// RR period; the RR ProcessingTime and the UDP datagram size keep their earlier paper fits.
// ONCache's gains in the table are predictions.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/gnuplot.h"
#include "ns3/internet-module.h"
#include "ns3/oncache-module.h"
#include "ns3/suite-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("OncacheMicroBenchmark");

namespace
{

/// Result of one run.
struct Result
{
    double value = 0;             //!< Gbit/s or transactions/s
    double cpuPerUnitUs = 0;      //!< CPU us per transaction or per Gbit (both hosts)
    double hitRate = 0;           //!< fast-path share of all data-path decisions, percent
    double slowPerConnection = 0; //!< mean slow-path egress packets per connection
};

/// What the program measures.
struct Options
{
    Time duration = MilliSeconds(20);           //!< simulated time per run
    std::vector<uint32_t> flows = {1, 2, 4, 8}; //!< flow counts of the stream sweep
    uint32_t udpDatagram = 0;                   //!< UDP super-datagram payload, 0 = default
    uint32_t kvConcurrency = 4;                 //!< key-value connections
    uint32_t run = 0;                           //!< runs done (progress)
    uint32_t runs = 0;                          //!< runs in total (progress)
    bool progress = true;                       //!< print a progress line per run
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

/// Print a progress line on stderr.
void
Progress(Options& o, const std::string& what, OncacheMode mode)
{
    ++o.run;
    std::cerr << "[" << o.run << "/" << o.runs << "] " << what << " " << OncacheModeToString(mode)
              << std::endl;
}

/// Build a two-host cluster.
Ptr<OncacheCluster>
Build(OncacheMode mode, uint32_t pods, bool superSegments, Ptr<OncacheTopologyHelper>& helper)
{
    helper = CreateObject<OncacheTopologyHelper>();
    helper->SetAttribute("Mode", EnumValue(mode));
    helper->SetAttribute("PodsPerHost", UintegerValue(pods));
    if (superSegments)
    {
        // The testbed's measured bulk-TCP skb size (utils/oncache-fit.py).
        helper->SetAttribute("SuperSegmentBytes", UintegerValue(oncachefit::kSuperSegmentBytes));
        // A stream's receive work shares its application core (RFS), so that one flow is
        // bound by one receiver core (as the suite models the testbed); flows of different
        // pods use different cores.
        helper->SetDatapathAttribute("ReceiveSteering", EnumValue(OncacheHostDatapath::STEER_RFS));
    }
    return helper->Install();
}

/// Busy time of both hosts.
Time
Busy(const Ptr<OncacheStatsTracker>& stats)
{
    return stats->GetHostBusy(0) + stats->GetHostBusy(1);
}

/**
 * Stream throughput: `flows` pod pairs (pod k of host 0 sends to pod k of host 1), TCP bulk
 * (iperf3 -l 64K, Nagle on) or a CPU-paced UDP stream of super-datagrams (UDP GSO/GRO).
 * Returns the aggregate goodput in Gbit/s and the CPU us per Gbit, after a warm-up fifth.
 */
Result
RunStream(OncacheMode mode, bool tcp, uint32_t flows, const Options& o)
{
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
    // Linux's default (Nagle on): without it ns-3 sends the tail of every 64 KB write as a
    // separate small segment once the sender is application-limited.
    Config::SetDefault("ns3::TcpSocket::TcpNoDelay", BooleanValue(false));
    Ptr<OncacheTopologyHelper> helper;
    Ptr<OncacheCluster> cluster = Build(mode, flows, true, helper);
    Ptr<OncacheStatsTracker> stats = CreateObject<OncacheStatsTracker>();
    stats->Install(cluster);
    std::vector<std::function<uint64_t()>> rx;
    for (uint32_t k = 0; k < flows; ++k)
    {
        Ipv4Address server = helper->GetPodAddress(1, k);
        Ipv4Address client = helper->GetPodAddress(0, k);
        if (tcp)
        {
            PacketSinkHelper sink("ns3::TcpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), 5001));
            Ptr<PacketSink> s =
                DynamicCast<PacketSink>(sink.Install(cluster->GetPod(server)).Get(0));
            BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(server, 5001));
            // One write per segment: ns-3's TcpTxBuffer then never merges (copies) writes,
            // which made bulk runs 3-5x slower in wall time.
            bulk.SetAttribute("SendSize", UintegerValue(helper->GetPodMtu() - 52));
            bulk.Install(cluster->GetPod(client)).Start(MicroSeconds(1 + k));
            rx.emplace_back([s]() { return s->GetTotalRx(); });
        }
        else
        {
            OncacheUdpStreamHelper stream(server, 5201);
            uint32_t datagram = o.udpDatagram ? o.udpDatagram : OncacheUdpStreamClient::GSO_SIZE;
            ONCACHE_REQUIRE(datagram + 28 <= helper->GetPodMtu(),
                            std::invalid_argument,
                            "udpDatagram: " << datagram << " bytes do not fit the pod MTU "
                                            << helper->GetPodMtu() << " minus 28");
            stream.SetClientAttribute("PacketSize", UintegerValue(datagram));
            Ptr<OncacheUdpStreamServer> s =
                DynamicCast<OncacheUdpStreamServer>(stream.InstallServer(cluster).Get(0));
            stream.InstallClient(cluster, client).Start(MicroSeconds(1 + k));
            rx.emplace_back([s]() { return s->GetTotalRx(); });
        }
    }
    auto total = [&rx]() {
        uint64_t bytes = 0;
        for (const auto& f : rx)
        {
            bytes += f();
        }
        return bytes;
    };
    Time warmUp = o.duration / 5;
    uint64_t atWarmUp = 0;
    Time busyAtWarmUp(0);
    Simulator::Schedule(warmUp, [&]() {
        atWarmUp = total();
        busyAtWarmUp = Busy(stats);
    });
    Simulator::Stop(o.duration);
    Simulator::Run();
    Result r;
    double gbit = (total() - atWarmUp) * 8.0 / 1e9;
    r.value = gbit / (o.duration - warmUp).GetSeconds();
    r.cpuPerUnitUs = gbit > 0 ? (Busy(stats) - busyAtWarmUp).GetMicroSeconds() / gbit : 0;
    CacheStats(stats, r);
    Simulator::Destroy();
    Config::SetDefault("ns3::TcpSocket::TcpNoDelay", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(131072));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(131072));
    return r;
}

/// Closed-loop 1-byte request/response rate (transactions/s) and CPU us per transaction.
Result
RunRr(OncacheMode mode, bool tcp, bool connectPerTransaction, const Options& o)
{
    Ptr<OncacheTopologyHelper> helper;
    Ptr<OncacheCluster> cluster = Build(mode, 1, false, helper);
    Ptr<OncacheStatsTracker> stats = CreateObject<OncacheStatsTracker>();
    stats->Install(cluster);
    Ipv4Address server = helper->GetPodAddress(1, 0);
    OncacheRrHelper rr(tcp ? "ns3::TcpSocketFactory" : "ns3::UdpSocketFactory", server, 7000);
    rr.SetClientAttribute("NewConnectionPerTransaction", BooleanValue(connectPerTransaction));
    rr.InstallServer(cluster->GetPod(server));
    ApplicationContainer client =
        rr.InstallClients(NodeContainer(cluster->GetPod(helper->GetPodAddress(0, 0))));
    client.Start(MicroSeconds(100));
    Time warmUp = o.duration / 5;
    uint64_t transactions = 0;
    client.Get(0)->TraceConnectWithoutContext(
        "Transaction",
        MakeBoundCallback(
            +[](uint64_t* n, Time* w, Time) { *n += Simulator::Now() > *w; },
            &transactions,
            &warmUp));
    Time busyAtWarmUp(0);
    Simulator::Schedule(warmUp, [&]() { busyAtWarmUp = Busy(stats); });
    Simulator::Stop(o.duration);
    Simulator::Run();
    Result r;
    r.value = transactions / (o.duration - warmUp).GetSeconds();
    Time busy = Busy(stats) - busyAtWarmUp;
    r.cpuPerUnitUs = transactions ? busy.GetMicroSeconds() * 1.0 / transactions : 0;
    CacheStats(stats, r);
    Simulator::Destroy();
    return r;
}

/// Memcached-like closed-loop key-value load: requests/s, and mean and p99 latency in us.
Result
RunKv(OncacheMode mode, const Options& o, double& meanUs, double& p99Us)
{
    Ptr<OncacheTopologyHelper> helper;
    Ptr<OncacheCluster> cluster = Build(mode, 1, false, helper);
    Ptr<OncacheStatsTracker> stats = CreateObject<OncacheStatsTracker>();
    stats->Install(cluster);
    Ipv4Address server = helper->GetPodAddress(1, 0);
    OncacheKvHelper kv(server);
    kv.SetClientAttribute("Concurrency", UintegerValue(o.kvConcurrency));
    kv.InstallServer(cluster->GetPod(server));
    ApplicationContainer clients =
        kv.Install(NodeContainer(cluster->GetPod(helper->GetPodAddress(0, 0))));
    OncacheKvHelper::AssignStreams(clients, 1);
    clients.Start(MicroSeconds(100));
    Ptr<OncacheKvTracker> tracker = CreateObject<OncacheKvTracker>();
    tracker->Install(clients);
    Time busyAtWarmUp(0);
    Simulator::Schedule(o.duration / 5, [&]() {
        tracker->Reset();
        busyAtWarmUp = Busy(stats);
    });
    Simulator::Stop(o.duration);
    Simulator::Run();
    Result r;
    r.value = tracker->GetRate();
    uint64_t n = tracker->GetTransactions();
    r.cpuPerUnitUs = n ? (Busy(stats) - busyAtWarmUp).GetMicroSeconds() * 1.0 / n : 0;
    meanUs = tracker->GetMeanLatency().GetNanoSeconds() / 1e3;
    p99Us = tracker->GetPercentile(99).GetNanoSeconds() / 1e3;
    CacheStats(stats, r);
    Simulator::Destroy();
    return r;
}

/// Parse a comma-separated list of flow counts.
std::vector<uint32_t>
ParseFlows(const std::string& text)
{
    std::vector<uint32_t> flows;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        char* end = nullptr;
        unsigned long n = std::strtoul(item.c_str(), &end, 10);
        ONCACHE_REQUIRE(!item.empty() && *end == '\0' && n >= 1 && n <= 64,
                        std::invalid_argument,
                        "flows: '" << item << "' is not a flow count in [1, 64]");
        flows.push_back(static_cast<uint32_t>(n));
    }
    ONCACHE_REQUIRE(!flows.empty(), std::invalid_argument, "flows: empty list");
    return flows;
}

/// Percent change of a over b.
double
Pct(double a, double b)
{
    return b > 0 ? (a / b - 1) * 100 : 0.0;
}

/// Write and render the throughput sweep plot.
void
Plot(const std::string& prefix,
     const std::vector<uint32_t>& flows,
     const std::map<std::pair<std::string, OncacheMode>, std::map<uint32_t, Result>>& sweep)
{
    Gnuplot plot("", "Stream throughput vs flows (one pod pair per flow)");
    plot.SetTerminal("pngcairo size 900,600");
    plot.SetLegend("flows (pod pairs)", "goodput (Gbit/s)");
    plot.AppendExtra("set key top left");
    plot.AppendExtra("set logscale x 2");
    SuitePlotBounds bounds;
    for (const auto& [key, results] : sweep)
    {
        Gnuplot2dDataset data(key.first + " " + OncacheModeToString(key.second));
        data.SetStyle(Gnuplot2dDataset::LINES_POINTS);
        for (uint32_t n : flows)
        {
            data.Add(n, results.at(n).value);
            bounds.Add(n, results.at(n).value);
        }
        plot.AddDataset(data);
    }
    plot.AppendExtra(bounds.XRange() + bounds.YRange());
    if (!SuiteRenderPlot(plot, prefix))
    {
        return;
    }
    std::cout << "plot: " << prefix << ".png\n";
}

/// The data-path modes compared: bare metal, the standard overlay and ONCache.
const OncacheMode kModes[] = {ONCACHE_MODE_BARE_METAL, ONCACHE_MODE_OVERLAY, ONCACHE_MODE_ONCACHE};

/// A request/response metric.
struct Rr
{
    std::string metric;                    //!< name
    bool tcp;                              //!< TCP or UDP
    bool crr;                              //!< a connection per transaction
    std::map<OncacheMode, Result> results; //!< per mode
};

/// Every run's result.
struct Measurements
{
    /// Stream results by protocol ("TCP", "UDP") and mode, then flow count.
    std::map<std::pair<std::string, OncacheMode>, std::map<uint32_t, Result>> sweep;
    std::vector<Rr> rrs;                                        //!< TCP RR, UDP RR, TCP CRR
    std::map<OncacheMode, Result> kvs;                          //!< key-value load, per mode
    std::map<OncacheMode, std::pair<double, double>> kvLatency; //!< KV mean and p99 latency, us

    /**
     * \param proto "TCP" or "UDP"
     * \param mode the mode
     * \param n the flow count
     * \return the stream result
     */
    const Result* Stream(const std::string& proto, OncacheMode mode, uint32_t n) const
    {
        return &sweep.at({proto, mode}).at(n);
    }
};

/**
 * \brief Check the options and the request-response and key-value sizes before the first run.
 * \param o the options; receives the parsed flow counts
 * \param flows the comma-separated flow counts
 * \throws std::invalid_argument for a bad option
 */
void
Validate(Options& o, const std::string& flows)
{
    ONCACHE_REQUIRE(o.duration >= MilliSeconds(1) && o.duration <= Seconds(10),
                    std::invalid_argument,
                    "duration: " << o.duration.As(Time::MS) << " is not within 1 ms to 10 s");
    o.flows = ParseFlows(flows);
    ONCACHE_REQUIRE(o.udpDatagram + 1000 <= oncachefit::kSuperSegmentBytes,
                    std::invalid_argument,
                    "udpDatagram: " << o.udpDatagram << " bytes exceed "
                                    << oncachefit::kSuperSegmentBytes - 1000 << " (a "
                                    << oncachefit::kSuperSegmentBytes << "-byte super-segment)");
    ONCACHE_REQUIRE(o.kvConcurrency >= 1 && o.kvConcurrency <= 1024,
                    std::invalid_argument,
                    "kvConcurrency: " << o.kvConcurrency << " is not in [1, 1024]");
    // The request-response and key-value runs' sizes (--ns3::OncacheRrClient::...,
    // --ns3::OncacheKvServer::... etc.), refused before the first run rather than after
    // the stream sweep.
    for (const char* protocol : {"ns3::TcpSocketFactory", "ns3::UdpSocketFactory"})
    {
        OncacheRrHelper(protocol, Ipv4Address::GetLoopback(), 7000).Validate();
    }
    OncacheKvHelper(Ipv4Address::GetLoopback()).Validate();
}

/**
 * \brief Run every measurement: the stream sweep, request/response and key-value load.
 * \param o the options (counts the runs for the progress lines)
 * \return the results
 */
Measurements
Measure(Options& o)
{
    o.runs = o.progress ? 3 * (4 + 2 * o.flows.size()) : 0;
    auto step = [&](const std::string& what, OncacheMode mode) {
        if (o.progress)
        {
            Progress(o, what, mode);
        }
    };
    Measurements m;
    for (const std::string proto : {"TCP", "UDP"})
    {
        for (auto mode : kModes)
        {
            for (uint32_t n : o.flows)
            {
                step(proto + " stream, " + std::to_string(n) + " flow(s),", mode);
                m.sweep[{proto, mode}][n] = RunStream(mode, proto == "TCP", n, o);
            }
        }
    }
    m.rrs = {{"TCP RR", true, false, {}},
             {"UDP RR", false, false, {}},
             {"TCP CRR", true, true, {}}};
    for (auto& rr : m.rrs)
    {
        for (auto mode : kModes)
        {
            step(rr.metric + ",", mode);
            rr.results[mode] = RunRr(mode, rr.tcp, rr.crr, o);
        }
    }
    for (auto mode : kModes)
    {
        step("memcached-like KV,", mode);
        double mean = 0;
        double p99 = 0;
        m.kvs[mode] = RunKv(mode, o, mean, p99);
        m.kvLatency[mode] = {mean, p99};
    }
    return m;
}

/**
 * \brief Write the CSV: one row per metric, flow count and mode.
 * \param csv the file
 * \param o the options
 * \param m the results
 * \throws std::invalid_argument when the file cannot be written
 */
void
WriteCsv(const std::string& csv, const Options& o, const Measurements& m)
{
    std::ofstream out(csv);
    ONCACHE_REQUIRE(out.good(), std::invalid_argument, "csv: cannot write " << csv);
    out << "metric,flows,mode,value,unit,cpu_us_per_unit,hit_rate_pct,slow_per_connection\n";
    out << std::setprecision(6);
    for (const auto& [key, results] : m.sweep)
    {
        for (const auto& [n, r] : results)
        {
            out << key.first << " stream," << n << "," << OncacheModeToString(key.second) << ","
                << r.value << ",Gbit/s," << r.cpuPerUnitUs << "," << r.hitRate << ","
                << r.slowPerConnection << "\n";
        }
    }
    for (const auto& rr : m.rrs)
    {
        for (auto mode : kModes)
        {
            const Result& r = rr.results.at(mode);
            out << rr.metric << ",1," << OncacheModeToString(mode) << "," << r.value << ",trans/s,"
                << r.cpuPerUnitUs << "," << r.hitRate << "," << r.slowPerConnection << "\n";
        }
    }

    for (auto mode : kModes)
    {
        const Result& r = m.kvs.at(mode);
        out << "KV requests," << o.kvConcurrency << "," << OncacheModeToString(mode) << ","
            << r.value << ",req/s," << r.cpuPerUnitUs << "," << r.hitRate << ","
            << r.slowPerConnection << "\n";
        out << "KV mean latency," << o.kvConcurrency << "," << OncacheModeToString(mode) << ","
            << m.kvLatency.at(mode).first << ",us,,,\n";
        out << "KV p99 latency," << o.kvConcurrency << "," << OncacheModeToString(mode) << ","
            << m.kvLatency.at(mode).second << ",us,,,\n";
    }
}

/// A row of the comparison table.
struct Line
{
    std::string metric;   //!< name
    const Result* r[3];   //!< bare metal, overlay, ONCache
    bool cpu;             //!< compare CPU per unit instead of the value
    std::string paperOvl; //!< paper: overlay vs bare metal
    std::string paperOnc; //!< paper: ONCache vs overlay
};

/**
 * \param o the options
 * \param m the results
 * \return the comparison table's rows, with the paper's figures
 */
std::vector<Line>
TableLines(const Options& o, const Measurements& m)
{
    auto at = [&](const std::string& p, OncacheMode mode, uint32_t n) {
        return m.Stream(p, mode, n);
    };
    std::vector<Line> lines;
    uint32_t first = o.flows.front();
    std::string f = " " + std::to_string(first) + "-flow Gbit/s";
    lines.push_back(
        {"TCP" + f,
         {at("TCP", kModes[0], first), at("TCP", kModes[1], first), at("TCP", kModes[2], first)},
         false,
         "-11%",
         first == 1 ? "+11.5%" : (first == 2 ? "+14%" : "")});
    lines.push_back(
        {"UDP" + f,
         {at("UDP", kModes[0], first), at("UDP", kModes[1], first), at("UDP", kModes[2], first)},
         false,
         "",
         "+20%"});
    for (const auto& rr : m.rrs)
    {
        lines.push_back(
            {rr.metric + " trans/s",
             {&rr.results.at(kModes[0]), &rr.results.at(kModes[1]), &rr.results.at(kModes[2])},
             false,
             rr.crr ? "" : (rr.tcp ? "-29%" : ""),
             rr.crr ? "modest" : (rr.tcp ? "+36%" : "+34%")});
    }
    lines.push_back({"KV requests/s",
                     {&m.kvs.at(kModes[0]), &m.kvs.at(kModes[1]), &m.kvs.at(kModes[2])},
                     false,
                     "",
                     "+27.8%"});
    lines.push_back({"CPU us/TCP RR trans",
                     {&m.rrs[0].results.at(kModes[0]),
                      &m.rrs[0].results.at(kModes[1]),
                      &m.rrs[0].results.at(kModes[2])},
                     true,
                     "",
                     "-26..-32%"});
    lines.push_back(
        {"CPU us/Gbit TCP" + f.substr(0, f.size() - 7),
         {at("TCP", kModes[0], first), at("TCP", kModes[1], first), at("TCP", kModes[2], first)},
         true,
         "",
         "lower"});
    lines.push_back(
        {"CPU us/Gbit UDP" + f.substr(0, f.size() - 7),
         {at("UDP", kModes[0], first), at("UDP", kModes[1], first), at("UDP", kModes[2], first)},
         true,
         "",
         "lower"});
    return lines;
}

/**
 * \brief Print the table: ONCache's gain over the overlay, and the overlay's loss against bare
 *        metal, next to the ONCache paper's (ONCache vs Antrea from its evaluation, Antrea vs
 *        bare metal from its overhead measurements).
 * \param lines its rows
 */
void
PrintTable(const std::vector<Line>& lines)
{
    std::cout << std::left << std::setw(24) << "metric" << std::right << std::setw(10)
              << "BareMetal" << std::setw(10) << "Overlay" << std::setw(10) << "ONCache"
              << std::setw(10) << "ovl/bare" << std::setw(8) << "paper" << std::setw(10)
              << "onc/ovl" << std::setw(11) << "paper"
              << "\n";
    for (const auto& line : lines)
    {
        double v[3];
        for (int i = 0; i < 3; ++i)
        {
            v[i] = line.cpu ? line.r[i]->cpuPerUnitUs : line.r[i]->value;
        }
        std::cout << std::left << std::setw(24) << line.metric << std::right << std::fixed;
        for (double x : v)
        {
            std::ostringstream cell;
            cell << std::fixed << std::setprecision(1) << (x >= 1000 ? x / 1000 : x)
                 << (x >= 1000 ? "k" : "");
            std::cout << std::setw(10) << cell.str();
        }
        std::cout << std::setprecision(1) << std::setw(9) << Pct(v[1], v[0]) << "%" << std::setw(8)
                  << line.paperOvl << std::setw(9) << Pct(v[2], v[1]) << "%" << std::setw(11)
                  << line.paperOnc << "\n";
    }
}

/**
 * \brief Print the sweep: aggregate goodput per flow count and ONCache's gain.
 * \param o the options
 * \param m the results
 */
void
PrintSweep(const Options& o, const Measurements& m)
{
    std::cout << "\nstream sweep (Gbit/s, aggregate; one pod pair per flow)\n"
              << std::left << std::setw(6) << "proto" << std::right << std::setw(6) << "flows"
              << std::setw(10) << "BareMetal" << std::setw(10) << "Overlay" << std::setw(10)
              << "ONCache" << std::setw(10) << "ovl/bare" << std::setw(10) << "onc/ovl"
              << std::setw(11) << "hit rate" << std::setw(12) << "slow/conn"
              << "\n";
    for (const std::string proto : {"TCP", "UDP"})
    {
        for (uint32_t n : o.flows)
        {
            const Result* r[3] = {m.Stream(proto, kModes[0], n),
                                  m.Stream(proto, kModes[1], n),
                                  m.Stream(proto, kModes[2], n)};
            std::cout << std::left << std::setw(6) << proto << std::right << std::setw(6) << n
                      << std::setprecision(1);
            for (const Result* x : r)
            {
                std::cout << std::setw(10) << x->value;
            }
            std::cout << std::setw(9) << Pct(r[1]->value, r[0]->value) << "%" << std::setw(9)
                      << Pct(r[2]->value, r[1]->value) << "%" << std::setprecision(2)
                      << std::setw(10) << r[2]->hitRate << "%" << std::setw(12)
                      << r[2]->slowPerConnection << "\n";
        }
    }
}

/**
 * \brief Print the key-value latencies, the paper's stream gains and ONCache's cache figures.
 * \param o the options
 * \param m the results
 */
void
PrintSummary(const Options& o, const Measurements& m)
{
    std::cout << "\nmemcached-like KV (" << o.kvConcurrency
              << " connections, 100 B GETs, Pareto values): mean / p99 latency us:";
    for (auto mode : kModes)
    {
        std::cout << "  " << OncacheModeToString(mode) << " " << std::setprecision(1)
                  << m.kvLatency.at(mode).first << " / " << m.kvLatency.at(mode).second;
    }
    std::cout << "\n  ONCache vs overlay mean latency " << std::setprecision(1)
              << Pct(m.kvLatency.at(kModes[2]).first, m.kvLatency.at(kModes[1]).first)
              << "% (paper, Memcached: -22.7% latency, +27.8% throughput)\n\n";
    std::cout << "paper: TCP +11.5% (1 flow), +14% (2 flows), all converge at >= 4 flows; "
                 "UDP +20% (+19.7..+31.8% at low parallelism)\n";
    const Result& rr = m.rrs[0].results.at(ONCACHE_MODE_ONCACHE);
    const Result& crr = m.rrs[2].results.at(ONCACHE_MODE_ONCACHE);
    std::cout << "\nONCache: cache hit rate " << std::setprecision(2) << rr.hitRate
              << "% in TCP RR, " << crr.hitRate << "% in TCP CRR; slow-path packets per "
              << "connection (egress) " << crr.slowPerConnection
              << " in TCP CRR (expected: exactly 3)\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    std::string csv = "oncache-micro-benchmark.csv";
    std::string plot = "oncache-micro-benchmark";
    std::string flows = "1,2,4,8";
    SuiteCommandLine cmd(__FILE__);
    cmd.AddValue("duration",
                 "Simulated time of each run, 1 ms to 10 s (the first fifth is warm-up)",
                 o.duration);
    cmd.AddValue("flows", "Comma-separated flow counts of the stream sweep", flows);
    cmd.AddValue("udpDatagram",
                 "UDP super-datagram payload in bytes (0: the calibrated default)",
                 o.udpDatagram);
    cmd.AddValue("kvConcurrency",
                 "Connections of the memcached-like key-value client",
                 o.kvConcurrency);
    cmd.AddOutputPrefix("csv", "Output CSV file", csv);
    cmd.AddOutputPrefix("plot",
                        "Output prefix of the sweep plot (.plt, .png); none: no plot",
                        plot);
    cmd.AddValue("progress", "Print a progress line per run on stderr", o.progress);
    cmd.Parse(argc, argv);
    try
    {
        Validate(o, flows);
        const Measurements m = Measure(o);
        WriteCsv(csv, o, m);
        PrintTable(TableLines(o, m));
        PrintSweep(o, m);
        PrintSummary(o, m);
        if (plot != "none")
        {
            Plot(plot, o.flows, m.sweep);
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
