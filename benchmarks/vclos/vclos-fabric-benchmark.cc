/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Simulator speed of the vclos fabric against the same job written as a stock ns-3 program.
//
// Job: the 32-GPU cross-leaf permutation (4 leaves x 2 servers x 4 GPUs, 8 spines): every
// GPU sends one endless TCP flow to the GPU at the same position under the next leaf, for
// --simTime of simulated time. Two sides run in one process:
//  * vclos: ClosFabricHelper + CollectivePermutationHelper, per-flow 5-tuple ECMP at switches;
//  * stock: the same nodes, links, queue discs and TCP settings built from stock helpers,
//    routed by Ipv4GlobalRouting with RandomEcmpRouting (per-packet random next hop, so it
//    sprays and reorders TCP: the two sides do not carry the same traffic).
// Each side is measured for wall time of Simulator::Run (and, apart, of the setup), events
// executed, packet-hops (PhyTxBegin on every point-to-point device, ns-3's or LeanLinkNetDevice)
// and delivered bytes.
// --runs repeats both sides, alternating their order, and reports the median of each figure.
// Random streams are assigned explicitly, so a seed (--RngRun) gives the same event counts
// whatever the order. Prints a table and a CSV block on stdout, progress on stderr.

#include "ns3/applications-module.h"
#include "ns3/clos-module.h"
#include "ns3/cluster-module.h"
#include "ns3/collective-module.h"
#include "ns3/core-module.h"
#include "ns3/fluid-module.h"
#include "ns3/internet-module.h"
#include "ns3/lean-link-module.h"
#include "ns3/network-module.h"
#include "ns3/ocs-module.h"
#include "ns3/pfc-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/roce-module.h"
#include "ns3/scenario-module.h"
#include "ns3/suite-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("VclosFabricBenchmark");

namespace
{

/// The traffic both sides run. The fabric itself (shape, rates, delays, MTU, queues, TCP)
/// comes from ClosFabricHelper's attributes, for both sides: set them on the command line
/// (--ns3::ClosFabricHelper::Spines=4) and both sides change together.
struct Job
{
    uint64_t flowBytes =
        CollectivePermutationHelper::MAX_FLOW_BYTES; //!< 10 GB: never ends in simTime
    uint32_t sendSize = 0;                           //!< BulkSend write size (0: 8 segments)
    uint16_t basePort = 5000;                        //!< port of flow 0
    Time startTime = MicroSeconds(10);               //!< senders start
    Time simTime = MilliSeconds(5);                  //!< simulated time of a run
};

/// Reads a fabric parameter from the helper's attributes.
template <typename Value>
Value
Attr(const Ptr<ClosFabricHelper>& helper, const std::string& name)
{
    Value v;
    helper->GetAttribute(name, v);
    return v;
}

/// First random stream a side assigns: each side fixes all of its streams, so a seed gives
/// the same events whatever ran before it in the process.
constexpr int64_t STREAM_BASE = 1000;

/// What a side's setup returns: the sinks to read, and objects that must outlive Run.
struct Built
{
    ApplicationContainer sinks;    //!< one PacketSink per flow
    std::vector<Ptr<Object>> keep; //!< objects the scenario needs until Run ends
};

/// Builds one side of the benchmark in the (empty) simulator.
using Builder = std::function<Built(const Job&, const Ptr<ClosFabricHelper>&)>;

/// What one run of one side measured.
struct Sample
{
    double setupS = 0;  //!< wall seconds to build the scenario (incl. routing)
    double wallS = 0;   //!< wall seconds of Simulator::Run
    double cpuS = 0;    //!< CPU seconds of Simulator::Run (robust to a busy machine)
    double simS = 0;    //!< simulated seconds
    double events = 0;  //!< events executed
    double hops = 0;    //!< packets transmitted on any point-to-point device
    double rxBytes = 0; //!< bytes delivered to the sinks
    double startS = 0;  //!< simulated second the senders start
};

/// Figures derived from a sample (or median of each figure over runs).
struct Figures
{
    double setupS;        //!< setup wall seconds
    double wallS;         //!< run wall seconds
    double cpuS;          //!< run CPU seconds
    double simS;          //!< simulated seconds
    double events;        //!< events executed
    double eventsPerS;    //!< events per wall second
    double eventsPerCpuS; //!< events per CPU second
    double hops;          //!< packet-hops
    double hopsPerS;      //!< packet-hops per wall second
    double goodputGbps;   //!< delivered bits per simulated second, all flows
    double simPerWall;    //!< simulated seconds per wall second
};

/// \return figures of one sample
Figures
Derive(const Sample& s)
{
    return Figures{s.setupS,
                   s.wallS,
                   s.cpuS,
                   s.simS,
                   s.events,
                   s.events / s.wallS,
                   s.events / s.cpuS,
                   s.hops,
                   s.hops / s.wallS,
                   s.rxBytes * 8 / (s.simS - s.startS) / 1e9,
                   s.simS / s.wallS};
}

/// \return the median of each figure over samples (mean of the middle two for an even count)
Figures
MedianFigures(const std::vector<Sample>& samples)
{
    std::vector<Figures> all;
    all.reserve(samples.size());
    for (const auto& s : samples)
    {
        all.push_back(Derive(s));
    }
    Figures median = all.front();
    for (double Figures::*field : {&Figures::setupS,
                                   &Figures::wallS,
                                   &Figures::cpuS,
                                   &Figures::simS,
                                   &Figures::events,
                                   &Figures::eventsPerS,
                                   &Figures::eventsPerCpuS,
                                   &Figures::hops,
                                   &Figures::hopsPerS,
                                   &Figures::goodputGbps,
                                   &Figures::simPerWall})
    {
        std::vector<double> v;
        v.reserve(all.size());
        for (const auto& f : all)
        {
            v.push_back(f.*field);
        }
        std::sort(v.begin(), v.end());
        std::size_t n = v.size();
        median.*field = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
    return median;
}

/**
 * \brief PhyTxBegin sink: count one packet-hop (Ptr by value: the signature must match
 *        the trace source's).
 * \param counter the counter
 * \param packet the packet
 */
void
// NOLINTNEXTLINE(performance-unnecessary-value-param)
CountHop(uint64_t* counter, Ptr<const Packet> packet)
{
    ++*counter;
}

/// \return seconds elapsed since start
double
SecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/**
 * \brief Build one side, run it for job.simTime and measure it.
 * \param job the traffic
 * \param build the side's builder (given a fabric helper with the command line's attributes)
 * \return the measurements
 */
Sample
Measure(const Job& job, const Builder& build)
{
    Sample s;
    auto setupStart = std::chrono::steady_clock::now();
    Built built = build(job, CreateObject<ClosFabricHelper>());
    uint64_t hops = 0;
    uint64_t refused = 0;
    // Stock side and intra-server links: PointToPointNetDevice; vclos fabric links:
    // LeanLinkNetDevice (LeanLinks) or PointToPointNetDevice. A device with Egress=Clock
    // would schedule every frame's start for a PhyTxBegin sink, so its hops are the frames
    // it accepted (MacTx less MacTxDrop; the few not started when the run stops count too).
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        Ptr<Node> node = NodeList::GetNode(n);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<NetDevice> device = node->GetDevice(d);
            Ptr<LeanLinkNetDevice> lean = DynamicCast<LeanLinkNetDevice>(device);
            if (lean && lean->GetEgress() == LeanLinkNetDevice::CLOCK)
            {
                device->TraceConnectWithoutContext("MacTx", MakeBoundCallback(&CountHop, &hops));
                device->TraceConnectWithoutContext("MacTxDrop",
                                                   MakeBoundCallback(&CountHop, &refused));
                continue;
            }
            device->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&CountHop, &hops));
        }
    }
    Simulator::Stop(job.simTime);
    s.setupS = SecondsSince(setupStart);

    auto runStart = std::chrono::steady_clock::now();
    std::clock_t cpuStart = std::clock();
    Simulator::Run();
    s.cpuS = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    s.wallS = SecondsSince(runStart);

    s.simS = Simulator::Now().GetSeconds();
    s.startS = job.startTime.GetSeconds();
    s.events = static_cast<double>(Simulator::GetEventCount());
    s.hops = static_cast<double>(hops - refused);
    for (auto app = built.sinks.Begin(); app != built.sinks.End(); ++app)
    {
        s.rxBytes += DynamicCast<PacketSink>(*app)->GetTotalRx();
    }
    Simulator::Destroy();
    return s;
}

/// Side (a): our fabric and permutation helpers.
Built
BuildVclos(const Job& job, const Ptr<ClosFabricHelper>& fabricHelper)
{
    Ptr<ClosFabric> fabric = fabricHelper->Install();
    fabricHelper->AssignStreams(fabric, STREAM_BASE);

    Ptr<CollectivePermutationHelper> traffic = CreateObject<CollectivePermutationHelper>();
    traffic->SetAttribute("FlowBytes", UintegerValue(job.flowBytes));
    traffic->SetAttribute("SendSize", UintegerValue(job.sendSize));
    traffic->SetAttribute("BasePort", UintegerValue(job.basePort));
    traffic->SetAttribute("StartTime", TimeValue(job.startTime));
    auto pairs = CollectivePermutationHelper::LeafShift(fabric, 1);
    ApplicationContainer apps = traffic->Install(fabric, pairs);

    Built built;
    for (uint32_t i = 0; i < pairs.size(); ++i) // Install returns the sinks first
    {
        built.sinks.Add(apps.Get(i));
    }
    built.keep = {fabric, traffic};
    return built;
}

/// Side (b): the same job from stock ns-3 helpers only. It takes from the fabric helper
/// only its parameters, its TCP defaults (Config::SetDefault) and its queue disc settings
/// (a TrafficControlHelper), so that both sides are configured identically.
Built
BuildStock(const Job& job, const Ptr<ClosFabricHelper>& config)
{
    const uint32_t leafCount = Attr<UintegerValue>(config, "Leaves").Get();
    const uint32_t spineCount = Attr<UintegerValue>(config, "Spines").Get();
    const uint32_t gpusPerServer = Attr<UintegerValue>(config, "GpusPerServer").Get();
    const uint32_t gpusPerLeaf =
        Attr<UintegerValue>(config, "ServersPerLeaf").Get() * gpusPerServer;
    const uint32_t gpuCount = leafCount * gpusPerLeaf;
    config->ConfigureTransport();
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(true));

    NodeContainer spines;
    NodeContainer leaves;
    NodeContainer serverSwitches;
    NodeContainer gpus;
    spines.Create(spineCount);
    leaves.Create(leafCount);
    serverSwitches.Create(gpuCount / gpusPerServer);
    gpus.Create(gpuCount);
    InternetStackHelper internet;
    internet.Install(NodeContainer(spines, leaves, serverSwitches, gpus));

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("Mtu", Attr<UintegerValue>(config, "Mtu"));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("2p")));
    TrafficControlHelper red = config->GetQueueDiscHelper();
    QueueDiscContainer queueDiscs;
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
    auto link = [&](const Ptr<Node>& a, const Ptr<Node>& b, const char* rate, const char* delay) {
        p2p.SetDeviceAttribute("DataRate", Attr<DataRateValue>(config, rate));
        p2p.SetChannelAttribute("Delay", Attr<TimeValue>(config, delay));
        NetDeviceContainer devices = p2p.Install(a, b);
        queueDiscs.Add(red.Install(devices)); // before Assign, which adds a default one
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
        addresses.NewNetwork();
        return interfaces;
    };

    std::vector<Ipv4Address> nicAddress;
    for (uint32_t gpu = 0; gpu < gpuCount; ++gpu)
    {
        Ptr<Node> leaf = leaves.Get(gpu / gpusPerLeaf);
        nicAddress.push_back(link(gpus.Get(gpu), leaf, "NicDataRate", "NicDelay").GetAddress(0));
    }
    for (uint32_t leaf = 0; leaf < leafCount; ++leaf)
    {
        for (uint32_t spine = 0; spine < spineCount; ++spine)
        {
            link(leaves.Get(leaf), spines.Get(spine), "FabricDataRate", "FabricDelay");
        }
    }
    std::vector<Ipv4InterfaceContainer> intraServer;
    for (uint32_t gpu = 0; gpu < gpuCount; ++gpu)
    {
        Ptr<Node> serverSwitch = serverSwitches.Get(gpu / gpusPerServer);
        intraServer.push_back(
            link(gpus.Get(gpu), serverSwitch, "IntraServerDataRate", "IntraServerDelay"));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    // GPU -> leaf -> GPU and GPU -> server switch -> GPU are both two hops, so global routing
    // would spray same-server traffic over both; static routes (tried before global ones)
    // keep it on the intra-server switch, as in the fabric.
    Ipv4StaticRoutingHelper staticRouting;
    for (uint32_t gpu = 0; gpu < gpuCount; ++gpu)
    {
        auto [ipv4, nvIf] = intraServer[gpu].Get(0);
        Ptr<Ipv4StaticRouting> routes = staticRouting.GetStaticRouting(ipv4);
        uint32_t first = gpu / gpusPerServer * gpusPerServer;
        for (uint32_t peer = first; peer < first + gpusPerServer; ++peer)
        {
            if (peer != gpu)
            {
                routes->AddHostRouteTo(nicAddress[peer], intraServer[gpu].GetAddress(1), nvIf);
                routes->AddHostRouteTo(intraServer[peer].GetAddress(0),
                                       intraServer[gpu].GetAddress(1),
                                       nvIf);
            }
        }
    }

    int64_t stream = STREAM_BASE + internet.AssignStreams(NodeContainer::GetGlobal(), STREAM_BASE);
    for (auto queueDisc = queueDiscs.Begin(); queueDisc != queueDiscs.End(); ++queueDisc)
    {
        stream += DynamicCast<RedQueueDisc>(*queueDisc)->AssignStreams(stream);
    }

    Built built;
    ApplicationContainer senders;
    for (uint32_t i = 0; i < gpuCount; ++i) // GPU i to the same position one leaf over
    {
        std::pair<uint32_t, uint32_t> pair(i, (i + gpusPerLeaf) % gpuCount);
        auto port = static_cast<uint16_t>(job.basePort + i);
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        built.sinks.Add(sink.Install(gpus.Get(pair.second)));
        BulkSendHelper bulk("ns3::TcpSocketFactory",
                            InetSocketAddress(nicAddress[pair.second], port));
        bulk.SetAttribute("MaxBytes", UintegerValue(job.flowBytes));
        bulk.SetAttribute("SendSize",
                          UintegerValue(job.sendSize > 0
                                            ? job.sendSize
                                            : CollectivePermutationHelper::DefaultSendSize()));
        senders.Add(bulk.Install(gpus.Get(pair.first)));
    }
    built.sinks.Start(Seconds(0));
    senders.Start(job.startTime);
    return built;
}

/// \return the peak resident set size of this process in MiB
double
PeakRssMiB()
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024.0; // kilobytes on Linux
}

/**
 * \brief Print one row of the table.
 * \param name the side
 * \param f its figures
 */
void
PrintRow(const std::string& name, const Figures& f)
{
    std::cout << std::left << std::setw(6) << name << std::right << std::fixed
              << std::setprecision(3) << std::setw(8) << f.setupS << std::setw(8) << f.wallS
              << std::setw(8) << f.cpuS << std::setw(7) << f.simS * 1e3 << std::setprecision(0)
              << std::setw(10) << f.events << std::setw(10) << f.eventsPerS << std::setw(10)
              << f.eventsPerCpuS << std::setw(10) << f.hops << std::setw(11) << f.hopsPerS
              << std::setprecision(1) << std::setw(10) << f.goodputGbps << std::setprecision(6)
              << std::setw(11) << f.simPerWall << "\n";
}

/**
 * \brief Print one CSV row.
 * \param name the side
 * \param run the run number, or "median"
 * \param f the figures
 */
void
PrintCsv(const std::string& name, const std::string& run, const Figures& f)
{
    std::cout << std::fixed << name << "," << run << "," << std::setprecision(6) << f.setupS << ","
              << f.wallS << "," << f.cpuS << "," << f.simS << "," << std::setprecision(0)
              << f.events << "," << f.eventsPerS << "," << f.eventsPerCpuS << "," << f.hops << ","
              << f.hopsPerS << "," << std::setprecision(3) << f.goodputGbps << ","
              << std::setprecision(9) << f.simPerWall << "\n";
}

int
Run(int argc, char* argv[])
{
    Job job;
    uint32_t runs = 1;
    std::string only = "both";
    SuiteCommandLine cmd(__FILE__);
    cmd.Usage("Simulator speed of the vclos fabric (per-flow ECMP) against the same 32-GPU "
              "cross-leaf permutation as a stock ns-3 program (global routing, random ECMP).");
    cmd.AddValue("simTime", "Simulated time of each run", job.simTime);
    cmd.AddValue("runs", "Runs of each side (alternating order); the median is reported", runs);
    cmd.AddValue("only", "Sides to run: vclos, stock or both", only);
    cmd.Parse(argc, argv);
    SUITE_REQUIRE(runs >= 1, std::invalid_argument, "--runs must be at least 1");
    SUITE_REQUIRE(only == "vclos" || only == "stock" || only == "both",
                  std::invalid_argument,
                  "--only must be vclos, stock or both (got " << only << ")");
    SUITE_REQUIRE(job.simTime > job.startTime,
                  std::invalid_argument,
                  "--simTime must exceed the 10 us start");

    const std::vector<std::pair<std::string, Builder>> sides = {{"vclos", BuildVclos},
                                                                {"stock", BuildStock}};
    std::map<std::string, std::vector<Sample>> samples;
    for (uint32_t run = 0; run < runs; ++run)
    {
        for (uint32_t k = 0; k < sides.size(); ++k)
        {
            const auto& [name, build] = sides[(k + run) % sides.size()]; // alternate the order
            if (only == "both" || only == name)
            {
                NS_LOG_INFO("run " << run << " " << name);
                samples[name].push_back(Measure(job, build));
                std::cerr << "[bench] run " << run + 1 << "/" << runs << " " << name << ": "
                          << std::fixed << std::setprecision(2) << samples[name].back().wallS
                          << " s wall, " << samples[name].back().cpuS << " s CPU" << std::endl;
            }
        }
    }

    Ptr<ClosFabricHelper> shape = CreateObject<ClosFabricHelper>();
    const uint32_t leafCount = Attr<UintegerValue>(shape, "Leaves").Get();
    std::cout << "# vclos-fabric-benchmark: "
              << leafCount * Attr<UintegerValue>(shape, "ServersPerLeaf").Get() *
                     Attr<UintegerValue>(shape, "GpusPerServer").Get()
              << "-GPU cross-leaf permutation, " << leafCount << " leaves x "
              << Attr<UintegerValue>(shape, "Spines").Get() << " spines, "
              << job.simTime.GetSeconds() * 1e3 << " ms simulated, median of " << runs
              << " run(s); heap on huge pages (both sides): "
              << (SuiteHugePagesRequested() ? "yes" : "no") << "\n"
              << "# vclos = per-flow 5-tuple ECMP; stock = Ipv4GlobalRouting RandomEcmpRouting, "
                 "i.e. per-packet random next hop that sprays and reorders TCP, so the sides "
                 "carry different traffic (compare goodput)\n";
    std::cout << "side   setup_s  wall_s   cpu_s sim_ms    events  events/s ev/cpu_s  pkt_hops "
                 "pkt_hops/s goodput_G sim_s/wall\n";
    std::map<std::string, Figures> medians;
    for (const auto& [name, list] : samples)
    {
        medians[name] = MedianFigures(list);
    }
    for (const auto& side : sides)
    {
        if (medians.count(side.first) != 0)
        {
            PrintRow(side.first, medians[side.first]);
        }
    }
    if (medians.size() == 2)
    {
        const Figures& a = medians["vclos"];
        const Figures& b = medians["stock"];
        std::cout << std::setprecision(3) << "ratio vclos/stock: events/s "
                  << a.eventsPerS / b.eventsPerS << ", pkt_hops/s " << a.hopsPerS / b.hopsPerS
                  << ", wall " << a.wallS / b.wallS << ", events/cpu_s "
                  << a.eventsPerCpuS / b.eventsPerCpuS << ", cpu " << a.cpuS / b.cpuS << ", events "
                  << a.events / b.events << ", goodput " << a.goodputGbps / b.goodputGbps << "\n";
    }
    std::cout << "peak RSS: " << std::setprecision(1) << PeakRssMiB() << " MiB\n";

    std::cout << "\n# CSV\nside,run,setup_s,wall_s,cpu_s,sim_s,events,events_per_s,"
                 "events_per_cpu_s,pkt_hops,pkt_hops_per_s,goodput_gbps,sim_s_per_wall_s\n";
    for (const auto& side : sides)
    {
        if (samples.count(side.first) == 0)
        {
            continue;
        }
        const auto& list = samples[side.first];
        for (uint32_t run = 0; run < list.size(); ++run)
        {
            PrintCsv(side.first, std::to_string(run), Derive(list[run]));
        }
        PrintCsv(side.first, "median", medians[side.first]);
    }
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    SuiteUseHugePages(argv); // doc/suite/suite.rst, "Huge pages"
    return SuiteRunProgram(argc, argv, Run);
}
