/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Simulator speed of one ring all-reduce on a 1:1 leaf-spine fabric, the job shape SimAI's
// packet-level mode was measured on: one GPU per host, 8 hosts per leaf, 8 spines, 100 Gbps,
// M = 100 MiB. Prints wall time, events per second, simulated time per wall second and
// peak memory, as a table and a CSV row.
//
//   vclos-allreduce-benchmark --leaves=4      # 32 GPUs
//   vclos-allreduce-benchmark --leaves=16     # 128 GPUs

#include "ns3/core-module.h"
#include "ns3/suite-module.h"
#include "ns3/vclos-module.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sys/resource.h>
#include <tuple>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("VclosAllReduceBenchmark");

namespace
{

int
Run(int argc, char* argv[])
{
    uint32_t leaves = 4;
    uint32_t gpusPerLeaf = 8;
    uint32_t spines = 8;
    uint64_t messageBytes = 100ull << 20;
    std::string algorithm = "ring";
    bool pinned = false;
    SuiteCommandLine cmd(__FILE__);
    cmd.AddValue("leaves", "Leaves (GPUs = leaves x gpusPerLeaf)", leaves);
    cmd.AddValue("gpusPerLeaf", "GPUs (one per host) under each leaf", gpusPerLeaf);
    cmd.AddValue("spines", "Spines", spines);
    cmd.AddValue("messageBytes", "All-reduce size M in bytes", messageBytes);
    cmd.AddValue("algorithm", "ring, hierarchical-ring, halving-doubling or all-to-all", algorithm);
    cmd.AddValue("pinned", "Pin each GPU to the spine of its index in its leaf", pinned);
    cmd.Parse(argc, argv);
    VclosCollectiveAlgorithm collective;
    VCLOS_REQUIRE(VclosParseCollectiveAlgorithm(algorithm, collective),
                  std::invalid_argument,
                  "algorithm: unknown '" << algorithm << "'");
    auto setupStart = std::chrono::steady_clock::now();
    Ptr<VclosFabricHelper> fabricHelper = CreateObject<VclosFabricHelper>();
    // The attributes' checkers bound them (SetAttribute would abort on a value out of range).
    for (const auto& [argument, attribute, value] :
         {std::make_tuple("leaves", "Leaves", leaves),
          std::make_tuple("spines", "Spines", spines),
          std::make_tuple("gpusPerLeaf", "ServersPerLeaf", gpusPerLeaf),
          std::make_tuple("", "GpusPerServer", 1u)})
    {
        VCLOS_REQUIRE(fabricHelper->SetAttributeFailSafe(attribute, UintegerValue(value)),
                      std::invalid_argument,
                      argument << ": " << value << " is out of range for ns3::VclosFabricHelper::"
                               << attribute << " (doc/vclos/vclos.rst lists the ranges)");
    }
    Ptr<VclosFabric> fabric = fabricHelper->Install();
    fabricHelper->AssignStreams(fabric, 0);
    std::vector<uint32_t> gpus;
    for (uint32_t g = 0; g < fabric->GetGpuCount(); ++g)
    {
        gpus.push_back(g);
        if (pinned)
        {
            fabric->PinSourceToSpine(g, fabric->GetIndexInLeaf(g) % spines);
        }
    }
    Ptr<VclosCollectiveHelper> collectiveHelper = CreateObject<VclosCollectiveHelper>();
    collectiveHelper->SetAttribute("Algorithm", EnumValue(collective));
    collectiveHelper->SetAttribute("MessageBytes", UintegerValue(messageBytes));
    ApplicationContainer ranks = collectiveHelper->Install(fabric, gpus);
    Ptr<VclosCollectiveTracker> tracker = CreateObject<VclosCollectiveTracker>();
    tracker->Track("allreduce", ranks);
    double setup =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - setupStart).count();

    // Stop when the last rank ends the all-reduce: afterwards only TCP's closing timers run
    // (seconds of simulated time), which would inflate events and simulated time.
    auto ranksLeft = std::make_shared<uint32_t>(ranks.GetN());
    for (uint32_t r = 0; r < ranks.GetN(); ++r)
    {
        ranks.Get(r)->TraceConnectWithoutContext(
            "IterationEnd",
            Callback<void, uint32_t, uint32_t>([ranksLeft](uint32_t, uint32_t) {
                if (--*ranksLeft == 0)
                {
                    Simulator::Stop();
                }
            }));
    }
    auto runStart = std::chrono::steady_clock::now();
    Simulator::Run();
    VclosCheckRunStatus(); // a run that could not go on: "error: <cause>"
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
    VCLOS_REQUIRE(tracker->IsComplete(0), std::runtime_error, "the all-reduce did not complete");
    const auto& it = tracker->GetIterations(0).front();
    double collective_s = (it.end - it.collectiveStart).GetSeconds();
    double simulated = Simulator::Now().GetSeconds();
    uint64_t events = Simulator::GetEventCount();
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double peakMiB = usage.ru_maxrss / 1024.0;
    Simulator::Destroy();

    std::cout << std::fixed << std::setprecision(3) << "# " << gpus.size() << " GPUs, " << algorithm
              << " all-reduce of " << messageBytes / 1048576.0 << " MiB, "
              << (pinned ? "pinned" : "per-flow ECMP") << "\n"
              << "# collective time " << collective_s * 1e3 << " ms simulated; setup " << setup
              << " s, run " << wall << " s wall; " << events << " events, " << std::setprecision(0)
              << events / wall << " events/s; " << std::setprecision(5) << simulated / wall
              << " simulated s per wall s; peak " << std::setprecision(0) << peakMiB << " MiB\n";
    std::cout << "gpus,algorithm,message_bytes,pinned,collective_s,setup_s,wall_s,events,"
                 "events_per_s,sim_s_per_wall_s,peak_rss_mib\n"
              << std::setprecision(6) << gpus.size() << "," << algorithm << "," << messageBytes
              << "," << pinned << "," << collective_s << "," << setup << "," << wall << ","
              << events << "," << events / wall << "," << simulated / wall << "," << peakMiB
              << "\n";
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    return SuiteRunProgram(argc, argv, Run);
}
