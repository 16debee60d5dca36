/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ECMP hash collisions versus pinned paths on a leaf-spine GPU fabric.
//
// Every GPU sends one long TCP flow to the GPU at the same position under the next leaf
// (a cross-leaf permutation, what one step of a ring all-reduce produces); with
// --transport=rdma each flow is one RoCEv2 queue pair instead (its own UDP source port, so
// per-flow ECMP hashes each QP). The run is done
// once with every flow pinned to its own spine (collision-free) and once per salt under
// per-flow ECMP, whose per-switch salts come from --RngRun and the trial number.
//
// Writes <output>-trials.csv, <output>-flows.csv, <output>-links.csv (first ECMP trial),
// <output>-throughput.plt and, when gnuplot is installed, <output>-throughput.png; with
// --flowMonitor, <output>-flowmon.xml of the first ECMP trial; with --pcap, pcap files of
// the first ECMP trial. Prints a CSV summary on stdout and a progress line on stderr.

#include "ns3/clos-module.h"
#include "ns3/cluster-module.h"
#include "ns3/collective-module.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/fluid-module.h"
#include "ns3/gnuplot.h"
#include "ns3/internet-module.h"
#include "ns3/lean-link-module.h"
#include "ns3/ocs-module.h"
#include "ns3/pfc-module.h"
#include "ns3/roce-module.h"
#include "ns3/scenario-module.h"
#include "ns3/suite-module.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <random>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("VclosPermutationContention");

namespace
{

/// What one trial measured.
struct Trial
{
    std::string routing;                                        //!< "pinned" or "ecmp"
    uint32_t leaves = 0;                                        //!< fabric leaves
    uint32_t spines = 0;                                        //!< fabric spines
    uint32_t index = 0;                                         //!< trial number
    double completionUs = 0;                                    //!< last byte - start
    uint32_t maxFlowsPerLink = 0;                               //!< tracker
    double conflictingShare = 0;                                //!< tracker
    uint32_t completed = 0;                                     //!< flows done
    uint64_t drops = 0;                                         //!< packets dropped
    std::vector<CollectivePermutationHelper::FlowResult> flows; //!< per flow
    std::vector<uint32_t> flowSpine;                            //!< spine each flow used
    std::vector<uint32_t> flowSharing;                          //!< max flows sharing its links
};

/// Options of the run.
struct Options
{
    uint32_t shift = 1;
    uint32_t salts = 30;
    std::string hash = "crc32";
    std::string transport = "tcp";
    std::string output = "vclos-permutation";
    bool flowMonitor = false;
    bool pcap = false;
    bool progress = true;
};

/// \return the spine a flow crossed, from the tracker's path, or -1
int32_t
SpineOf(Ptr<ClosFabric> fabric, const std::vector<uint32_t>& links)
{
    for (uint32_t link : links)
    {
        const ClusterLink& l = fabric->GetLinks()[link];
        if (l.kind == ClusterLink::LEAF_TO_SPINE)
        {
            return static_cast<int32_t>(l.to);
        }
    }
    return -1;
}

/// Build the fabric, run one trial, and return what it measured.
Trial
RunTrial(const Options& opt, bool pinned, uint32_t index, ClusterHashAlgorithm hash)
{
    Ptr<ClosFabricHelper> fabricHelper = CreateObject<ClosFabricHelper>();
    fabricHelper->SetRoutingAttribute("HashAlgorithm", EnumValue(static_cast<int>(hash)));
    Ptr<ClosFabric> fabric = fabricHelper->Install();
    fabricHelper->AssignStreams(fabric, 1000 * static_cast<int64_t>(index));

    auto pairs = CollectivePermutationHelper::LeafShift(fabric, opt.shift);
    if (pinned)
    {
        CollectivePermutationHelper::PinBalanced(fabric, pairs);
    }
    Ptr<CollectivePermutationHelper> traffic = CreateObject<CollectivePermutationHelper>();
    traffic->SetAttribute("Transport", StringValue(opt.transport));
    traffic->Install(fabric, pairs);
    Ptr<ClosLinkLoadTracker> tracker = CreateObject<ClosLinkLoadTracker>();
    tracker->Install(fabric);

    bool firstEcmp = !pinned && index == 0;
    FlowMonitorHelper flowmonHelper;
    Ptr<FlowMonitor> flowmon;
    if (firstEcmp && opt.flowMonitor)
    {
        flowmon = flowmonHelper.Install(fabric->GetGpus());
    }
    if (firstEcmp && opt.pcap)
    {
        fabricHelper->EnablePcap(opt.output, fabric);
    }

    // Stop when the last flow completes (FlowMonitor's periodic check never ends by itself).
    const uint32_t flowCount = static_cast<uint32_t>(pairs.size());
    traffic->TraceConnectWithoutContext(
        "FlowCompleted",
        Callback<void, uint32_t>([helper = PeekPointer(traffic), flowCount](uint32_t) {
            if (helper->GetCompletedFlows() == flowCount)
            {
                Simulator::Stop();
            }
        }));
    Simulator::Run();

    Trial t;
    t.routing = pinned ? "pinned" : "ecmp";
    t.leaves = fabric->GetLeafCount();
    t.spines = fabric->GetSpineCount();
    t.index = index;
    t.completionUs = traffic->GetCompletionTime().GetMicroSeconds();
    t.maxFlowsPerLink = tracker->GetMaxFlowsPerLink();
    t.conflictingShare = tracker->GetConflictingFlowShare();
    t.completed = traffic->GetCompletedFlows();
    t.drops = tracker->GetTotalDrops();
    t.flows = traffic->GetResults();
    for (const auto& r : t.flows)
    {
        int32_t spine = -1;
        uint32_t sharing = 0;
        for (const auto& f : tracker->GetFlows())
        {
            if (f.tuple.srcAddress == fabric->GetGpuAddress(r.src).Get() &&
                f.tuple.dstAddress == fabric->GetGpuAddress(r.dst).Get())
            {
                spine = SpineOf(fabric, f.links);
                sharing = f.maxSharing;
            }
        }
        t.flowSpine.push_back(spine < 0 ? UINT32_MAX : static_cast<uint32_t>(spine));
        t.flowSharing.push_back(sharing);
    }
    if (firstEcmp)
    {
        tracker->WriteLinkCsv(opt.output + "-links.csv");
        if (flowmon)
        {
            flowmon->SerializeToXmlFile(opt.output + "-flowmon.xml", true, false);
        }
    }
    Simulator::Destroy();
    return t;
}

/// Balls into bins: k flows per leaf, each on one of n spines uniformly at random.
struct BallsIntoBins
{
    double conflictShare; //!< 1 - (1 - 1/n)^(k-1)
    double meanMaxLoad;   //!< E[max flows on one link over the fabric], by Monte Carlo
};

BallsIntoBins
Expectation(uint32_t k, uint32_t n, uint32_t groups)
{
    BallsIntoBins e;
    e.conflictShare = 1.0 - std::pow(1.0 - 1.0 / n, static_cast<double>(k) - 1.0);
    std::mt19937_64 rng(12345);
    std::uniform_int_distribution<uint32_t> bin(0, n - 1);
    const int samples = 200000;
    double sum = 0;
    std::vector<uint32_t> load(n);
    for (int s = 0; s < samples; ++s)
    {
        uint32_t most = 0;
        for (uint32_t g = 0; g < groups; ++g)
        {
            std::fill(load.begin(), load.end(), 0);
            for (uint32_t b = 0; b < k; ++b)
            {
                most = std::max(most, ++load[bin(rng)]);
            }
        }
        sum += most;
    }
    e.meanMaxLoad = sum / samples;
    return e;
}

void
WritePlot(const Options& opt, const std::vector<Trial>& trials)
{
    Gnuplot plot;
    plot.SetTerminal("pngcairo size 900,560 noenhanced");
    plot.SetTitle("Per-flow TCP goodput, cross-leaf permutation (CDF over flows and salts)");
    plot.SetLegend("goodput (Gbit/s)", "fraction of flows");
    double most = 0;
    for (const auto& t : trials)
    {
        for (const auto& f : t.flows)
        {
            most = std::max(most, f.goodputBps / 1e9);
        }
    }
    plot.AppendExtra("set key bottom right\nset grid\nset yrange [0:1]\nset xrange [0:" +
                     std::to_string(std::max(1.0, std::ceil(most * 1.05))) + "]");
    for (const char* routing : {"ecmp", "pinned"})
    {
        std::vector<double> g;
        for (const auto& t : trials)
        {
            if (t.routing == routing)
            {
                for (const auto& f : t.flows)
                {
                    g.push_back(f.goodputBps / 1e9);
                }
            }
        }
        std::sort(g.begin(), g.end());
        Gnuplot2dDataset d(std::string(routing) == "ecmp" ? "per-flow ECMP (all salts)"
                                                          : "pinned, collision-free");
        d.SetStyle(Gnuplot2dDataset::LINES);
        for (std::size_t i = 0; i < g.size(); ++i)
        {
            d.Add(g[i], (i + 1.0) / g.size());
        }
        plot.AddDataset(d);
    }
    SuiteRenderPlot(plot, opt.output + "-throughput");
}

/// Aggregates of the trials of one routing.
struct Summary
{
    uint32_t trials = 0;            //!< trials
    uint32_t flows = 0;             //!< flows over all trials
    uint32_t completed = 0;         //!< flows that finished
    double meanCompletionUs = 0;    //!< mean permutation completion time
    double meanGoodputGbps = 0;     //!< mean per-flow goodput
    double minGoodputGbps = 0;      //!< worst per-flow goodput
    double meanMaxFlowsPerLink = 0; //!< mean over trials of the busiest link's flows
    uint32_t maxFlowsPerLink = 0;   //!< busiest link of all trials
    double conflictingShare = 0;    //!< mean share of conflicting flows
};

Summary
Summarize(const std::vector<Trial>& trials, const std::string& routing)
{
    Summary s;
    std::vector<double> completion;
    std::vector<double> goodput;
    std::vector<double> maxLoad;
    std::vector<double> conflicts;
    for (const auto& t : trials)
    {
        if (t.routing != routing)
        {
            continue;
        }
        ++s.trials;
        completion.push_back(t.completionUs);
        maxLoad.push_back(t.maxFlowsPerLink);
        conflicts.push_back(t.conflictingShare);
        s.completed += t.completed;
        s.flows += t.flows.size();
        s.maxFlowsPerLink = std::max(s.maxFlowsPerLink, t.maxFlowsPerLink);
        for (const auto& f : t.flows)
        {
            goodput.push_back(f.goodputBps / 1e9);
        }
    }
    s.meanCompletionUs = SuiteMean(completion);
    s.meanGoodputGbps = SuiteMean(goodput);
    s.minGoodputGbps = goodput.empty() ? 0 : *std::min_element(goodput.begin(), goodput.end());
    s.meanMaxFlowsPerLink = SuiteMean(maxLoad);
    s.conflictingShare = SuiteMean(conflicts);
    return s;
}

/// A readable table (lines starting with '#'), then the same figures as CSV.
void
PrintSummary(const Options& opt, const std::vector<Trial>& trials)
{
    const Trial& first = trials.front();
    const auto flowsPerLeaf = static_cast<uint32_t>(first.flows.size() / first.leaves);
    BallsIntoBins expected = Expectation(flowsPerLeaf, first.spines, first.leaves);
    CollectivePermutationHelper::LinkLoad pinnedExpected =
        CollectivePermutationHelper::PinnedLinkLoad(flowsPerLeaf, first.spines);
    Summary pinned = Summarize(trials, "pinned");
    Summary ecmp = Summarize(trials, "ecmp");

    std::cout << std::fixed << std::setprecision(1);
    std::cout << "# " << first.flows.size() << " long "
              << (opt.transport == "rdma" ? "RoCEv2 flows (one QP each)" : "TCP flows")
              << ", each GPU to the same position " << opt.shift << " leaf over; " << first.leaves
              << " leaves, " << first.spines << " spines, " << flowsPerLeaf << " GPUs per leaf\n";
    std::cout << "#   routing  trials  completion(us)  goodput mean/min (Gbps)  max flows/link  "
                 "conflicting flows\n";
    for (const auto& [name, s] : {std::make_pair("pinned", pinned), std::make_pair("ecmp", ecmp)})
    {
        std::cout << "#   " << std::left << std::setw(7) << name << std::right << std::setw(8)
                  << s.trials << std::setw(16) << s.meanCompletionUs << std::setw(14)
                  << s.meanGoodputGbps << " / " << std::setw(5) << s.minGoodputGbps << std::setw(17)
                  << s.maxFlowsPerLink << std::setw(16) << 100 * s.conflictingShare << "%\n";
    }
    for (const Trial* t : {&trials[0], &trials[1]})
    {
        std::cout << "# per-flow goodput (Gbps), " << t->routing << " trial " << t->index << ":"
                  << std::setprecision(0);
        for (const auto& f : t->flows)
        {
            std::cout << " " << f.goodputBps / 1e9;
        }
        std::cout << std::setprecision(1) << "\n";
    }
    std::cout << std::setprecision(3) << "# completion time ratio ECMP/pinned: "
              << ecmp.meanCompletionUs / pinned.meanCompletionUs << "\n";
    std::cout << "# balls into bins (" << flowsPerLeaf << " flows of a leaf, each on one of "
              << first.spines << " spines at random): expected conflicting share 1-(1-1/n)^(k-1) = "
              << expected.conflictShare << ", measured " << ecmp.conflictingShare
              << "; expected busiest link " << expected.meanMaxLoad << " flows, measured "
              << ecmp.meanMaxFlowsPerLink << "\n";
    std::cout << "# pinned (flow i of a leaf on spine i mod " << first.spines
              << "): expected conflicting share " << pinnedExpected.conflictingShare
              << ", measured " << pinned.conflictingShare << "; expected busiest link "
              << pinnedExpected.maxFlowsPerLink << " flows, measured " << pinned.meanMaxFlowsPerLink
              << "\n";
    std::cout << "# per-flow results: " << opt.output << "-flows.csv; per trial: " << opt.output
              << "-trials.csv; plot: " << opt.output << "-throughput.png\n";

    std::cout << "routing,trials,flows,completed_flows,mean_completion_us,mean_flow_goodput_gbps,"
                 "min_flow_goodput_gbps,mean_max_flows_per_link,max_flows_per_link,"
                 "conflicting_share,expected_conflicting_share,expected_mean_max_flows_per_link\n";
    for (const auto& [name, s] : {std::make_pair("pinned", pinned), std::make_pair("ecmp", ecmp)})
    {
        bool isEcmp = std::string(name) == "ecmp";
        std::cout << std::setprecision(4) << name << "," << s.trials << "," << s.flows << ","
                  << s.completed << "," << s.meanCompletionUs << "," << s.meanGoodputGbps << ","
                  << s.minGoodputGbps << "," << s.meanMaxFlowsPerLink << "," << s.maxFlowsPerLink
                  << "," << s.conflictingShare << ","
                  << (isEcmp ? expected.conflictShare : pinnedExpected.conflictingShare) << ","
                  << (isEcmp ? expected.meanMaxLoad : pinnedExpected.maxFlowsPerLink) << "\n";
    }
}

int
Run(int argc, char* argv[])
{
    Options opt;
    SuiteCommandLine cmd(__FILE__);
    cmd.Usage("ECMP hash collisions versus pinned paths for a cross-leaf permutation of long "
              "TCP flows. Fabric and traffic via --ns3::ClosFabricHelper::<Attr> and "
              "--ns3::CollectivePermutationHelper::<Attr> (e.g. FlowBytes).");
    cmd.AddValue("shift", "Leaves between a sender and its receiver (1 .. leaves-1)", opt.shift);
    cmd.AddValue("salts", "Number of ECMP trials, each with fresh per-switch salts", opt.salts);
    cmd.AddValue("hash", "ECMP hash: crc32 or xor-fold", opt.hash);
    cmd.AddValue("transport",
                 "tcp (BulkSend) or rdma (one RoCEv2 queue pair per flow; NIC attributes via "
                 "--ns3::RoceNic::<Attr>)",
                 opt.transport);
    cmd.AddOutputPrefix("output", "Prefix of the output files", opt.output);
    cmd.AddValue("flowMonitor", "Write FlowMonitor XML of the first ECMP trial", opt.flowMonitor);
    cmd.AddValue("pcap", "Write pcap files of the first ECMP trial", opt.pcap);
    cmd.AddValue("progress", "Show a progress line on stderr", opt.progress);
    cmd.Parse(argc, argv);

    ClusterHashAlgorithm hash;
    SUITE_REQUIRE(ClusterParseHashAlgorithm(opt.hash, hash),
                  std::invalid_argument,
                  "hash: unknown hash '" << opt.hash << "' (expected crc32 or xor-fold)");
    SUITE_REQUIRE(opt.transport == "tcp" || opt.transport == "rdma",
                  std::invalid_argument,
                  "transport: unknown transport '" << opt.transport << "' (expected tcp or rdma)");
    SUITE_REQUIRE(opt.salts >= 1 && opt.salts <= 100000,
                  std::invalid_argument,
                  "salts must be 1 to 100000 (got " << opt.salts << ")");
    if (opt.flowMonitor)
    {
        // FlowMonitor probes the GPUs' Ipv4L3Protocol traces, which the NIC's host fast path
        // does not fire: RoCE packets take ns-3's UDP and IPv4 path then.
        Config::SetDefault("ns3::RoceNic::HostFastPath", BooleanValue(false));
    }

    std::vector<Trial> trials;
    uint32_t total = opt.salts + 1;
    auto wallStart = std::chrono::steady_clock::now();
    for (uint32_t i = 0; i < total; ++i)
    {
        bool pinned = i == 0;
        trials.push_back(RunTrial(opt, pinned, pinned ? 0 : i - 1, hash));
        if (opt.progress)
        {
            double elapsed =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
            std::cerr << "\r[vclos] trial " << i + 1 << "/" << total << " ("
                      << trials.back().routing << ") " << std::fixed << std::setprecision(1)
                      << elapsed << " s elapsed, ~" << elapsed / (i + 1) * (total - i - 1)
                      << " s left   " << std::flush;
        }
    }
    if (opt.progress)
    {
        std::cerr << "\n";
    }

    // Files.
    std::ofstream trialCsv(opt.output + "-trials.csv");
    trialCsv << "routing,trial,completion_us,max_flows_per_link,conflicting_share,completed_flows,"
                "drops\n";
    std::ofstream flowCsv(opt.output + "-flows.csv");
    flowCsv << "routing,trial,src_gpu,dst_gpu,spine,bytes,fct_us,goodput_gbps,max_sharing\n";
    for (const auto& t : trials)
    {
        trialCsv << t.routing << "," << t.index << "," << t.completionUs << "," << t.maxFlowsPerLink
                 << "," << t.conflictingShare << "," << t.completed << "," << t.drops << "\n";
        for (std::size_t f = 0; f < t.flows.size(); ++f)
        {
            const auto& r = t.flows[f];
            flowCsv << t.routing << "," << t.index << "," << r.src << "," << r.dst << ","
                    << (t.flowSpine[f] == UINT32_MAX ? -1 : static_cast<int64_t>(t.flowSpine[f]))
                    << "," << r.bytes << "," << (r.lastRx - r.start).GetMicroSeconds() << ","
                    << r.goodputBps / 1e9 << "," << t.flowSharing[f] << "\n";
        }
    }
    WritePlot(opt, trials);

    PrintSummary(opt, trials);
    bool allComplete = std::all_of(trials.begin(), trials.end(), [](const Trial& t) {
        return t.completed == t.flows.size();
    });
    if (!allComplete)
    {
        std::cerr << "error: some flows did not complete; see " << opt.output << "-trials.csv\n";
        return 2;
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
