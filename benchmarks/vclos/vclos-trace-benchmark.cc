/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Trace-scale speed: a scenario file's jobs under each of its policies,
// each run in a child process of its own (so its peak memory is its own), through the
// scheduler core and the executor the file names (or --engine). Prints, per policy: jobs,
// mean JCT, wall and CPU seconds of the run (workload built beforehand, in the child, and
// not counted), simulator events, flow-level transfers, jobs the flow executor ran isolated
// and materialized, and the child's peak resident memory; then the target.
//
//   vclos-trace-benchmark --scenario=scenarios/vclos/spec7-heavy-8192.json
//   vclos-trace-benchmark --scenario=scenarios/vclos/crossval-32.json --engine=packet
//   vclos-trace-benchmark --scenario=scenarios/vclos/crossval-32.json --engine=flow

#include "ns3/clos-module.h"
#include "ns3/cluster-module.h"
#include "ns3/collective-module.h"
#include "ns3/collective-packet-executor.h"
#include "ns3/core-module.h"
#include "ns3/fluid-module.h"
#include "ns3/lean-link-module.h"
#include "ns3/ocs-module.h"
#include "ns3/pfc-module.h"
#include "ns3/roce-module.h"
#include "ns3/scenario-module.h"
#include "ns3/suite-module.h"

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ns3;

namespace
{

/// What a child reports through its pipe.
struct Figures
{
    uint32_t jobs = 0;         //!< jobs finished
    double meanJctS = 0;       //!< mean JCT
    double wallS = 0;          //!< wall time of the run
    uint64_t events = 0;       //!< simulator events
    uint64_t transfers = 0;    //!< flow level: transfers
    uint64_t isolated = 0;     //!< flow level: jobs run isolated
    uint64_t materialized = 0; //!< of which continued flow by flow
};

/// Run one policy (in the child), with the runner every program shares.
Figures
RunPolicy(const ScenarioConfig& s,
          const std::string& policy,
          const std::vector<ClusterJobRequest>& jobs)
{
    const ScenarioPolicyRun run = ScenarioRunner(s).Run(policy, jobs);
    Figures f;
    double jctSum = 0;
    for (const auto& [id, r] : run.jobs->GetJobs())
    {
        jctSum += r.finish.IsPositive() ? (r.finish - r.arrival).GetSeconds() : 0;
    }
    f.jobs = run.jobs->GetFinishedJobs();
    f.meanJctS = f.jobs ? jctSum / f.jobs : 0;
    f.wallS = run.wallSeconds;
    f.events = run.events;
    f.transfers = run.flows;
    f.isolated = run.isolatedJobs;
    f.materialized = run.materialized;
    return f;
}

int
Run(int argc, char* argv[])
{
    std::string path = "scenarios/vclos/spec7-heavy-8192.json";
    std::string engine;
    double target = 30;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--scenario=", 0) == 0)
        {
            path = arg.substr(11);
        }
    }
    ScenarioConfig s = ScenarioRead(path);
    ScenarioApplyAttributes(s);
    SuiteCommandLine cmd(__FILE__);
    cmd.Usage("Time a scenario file's policies, each in a child process.");
    cmd.AddValue("scenario", "Scenario file (JSON)", path);
    cmd.AddValue("engine", "packet or flow (default: the file's scheduler.engine)", engine);
    cmd.AddValue("target", "Target wall seconds per policy, printed beside the figures", target);
    cmd.Parse(argc, argv);
    if (!engine.empty())
    {
        s.scheduler.engine = engine;
    }
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    ScenarioValidate(s, zoo);
    ScenarioApplyTransport(s);
    std::cout << "# " << s.name << ", engine " << s.scheduler.engine << " (" << s.scheduler.sharing
              << "), transport " << s.transport.type << ", each policy in a child process\n"
              << "policy,jobs,mean_jct_s,wall_s,cpu_s,events,transfers,isolated_jobs,"
                 "materialized_jobs,peak_rss_mb\n";
    for (const auto& policy : s.scheduler.policies)
    {
        int fds[2];
        SUITE_REQUIRE(pipe(fds) == 0, std::runtime_error, "cannot make a pipe");
        const pid_t child = fork();
        SUITE_REQUIRE(child >= 0, std::runtime_error, "cannot fork");
        if (child == 0)
        {
            close(fds[0]);
            Figures f;
            try
            {
                const std::vector<ClusterJobRequest> jobs = ScenarioBuildJobs(s, zoo);
                f = RunPolicy(s, policy, jobs);
            }
            catch (const std::exception& e)
            {
                std::cerr << "error: " << policy << ": " << e.what() << "\n";
                _exit(1);
            }
            (void)!write(fds[1], &f, sizeof f);
            _exit(0);
        }
        close(fds[1]);
        Figures f;
        const bool got = read(fds[0], &f, sizeof f) == static_cast<ssize_t>(sizeof f);
        close(fds[0]);
        int status = 0;
        rusage usage{};
        wait4(child, &status, 0, &usage);
        SUITE_REQUIRE(got && WIFEXITED(status) && WEXITSTATUS(status) == 0,
                      std::runtime_error,
                      "policy " << policy << " did not finish");
        const double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 +
                           usage.ru_stime.tv_sec + usage.ru_stime.tv_usec * 1e-6;
        std::cout << std::fixed << std::setprecision(2) << policy << "," << f.jobs << ","
                  << std::defaultfloat << std::setprecision(6) << f.meanJctS << std::fixed
                  << std::setprecision(2) << "," << f.wallS << "," << cpu << "," << f.events << ","
                  << f.transfers << "," << f.isolated << "," << f.materialized << ","
                  << usage.ru_maxrss / 1024.0 << "\n"
                  << std::flush;
        std::cerr << "# " << policy << ": " << f.wallS
                  << " s wall for the run (target <= " << target
                  << " s: " << (f.wallS <= target ? "met" : "NOT met") << "), "
                  << usage.ru_maxrss / 1024.0 << " MB peak\n";
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
