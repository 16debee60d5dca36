/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-collective-tracker.h"

#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/vclos-check.h"

#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VclosCollectiveTracker");

NS_OBJECT_ENSURE_REGISTERED(VclosCollectiveTracker);

TypeId
VclosCollectiveTracker::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VclosCollectiveTracker")
                            .SetParent<Object>()
                            .SetGroupName("Vclos")
                            .AddConstructor<VclosCollectiveTracker>();
    return tid;
}

uint32_t
VclosCollectiveTracker::Track(const std::string& name, const ApplicationContainer& ranks)
{
    auto job = static_cast<uint32_t>(m_jobs.size());
    m_jobs.push_back(Job{name, ranks.GetN(), {}});
    Ptr<VclosCollectiveTracker> self(this);
    for (uint32_t r = 0; r < ranks.GetN(); ++r)
    {
        Ptr<Application> app = ranks.Get(r);
        app->TraceConnectWithoutContext(
            "IterationStart",
            MakeBoundCallback(&VclosCollectiveTracker::IterationStarted, self, job));
        app->TraceConnectWithoutContext(
            "CollectiveStart",
            MakeBoundCallback(&VclosCollectiveTracker::CollectiveStarted, self, job));
        app->TraceConnectWithoutContext(
            "IterationEnd",
            MakeBoundCallback(&VclosCollectiveTracker::IterationEnded, self, job));
    }
    return job;
}

VclosCollectiveTracker::Iteration&
VclosCollectiveTracker::At(uint32_t job, uint32_t iteration)
{
    auto& iterations = m_jobs[job].iterations;
    if (iterations.size() <= iteration)
    {
        iterations.resize(iteration + 1);
    }
    return iterations[iteration];
}

void
VclosCollectiveTracker::IterationStarted(Ptr<VclosCollectiveTracker> tracker,
                                         uint32_t job,
                                         uint32_t rank,
                                         uint32_t iteration)
{
    Iteration& it = tracker->At(job, iteration);
    it.start = std::min(it.start, Simulator::Now());
}

void
VclosCollectiveTracker::CollectiveStarted(Ptr<VclosCollectiveTracker> tracker,
                                          uint32_t job,
                                          uint32_t rank,
                                          uint32_t iteration)
{
    Iteration& it = tracker->At(job, iteration);
    it.collectiveStart = std::min(it.collectiveStart, Simulator::Now());
}

void
VclosCollectiveTracker::IterationEnded(Ptr<VclosCollectiveTracker> tracker,
                                       uint32_t job,
                                       uint32_t rank,
                                       uint32_t iteration)
{
    Iteration& it = tracker->At(job, iteration);
    it.end = std::max(it.end, Simulator::Now());
    it.ranksEnded++;
}

const std::vector<VclosCollectiveTracker::Iteration>&
VclosCollectiveTracker::GetIterations(uint32_t job) const
{
    VCLOS_REQUIRE(job < m_jobs.size(), std::out_of_range, "no tracked job " << job);
    return m_jobs[job].iterations;
}

bool
VclosCollectiveTracker::IsComplete(uint32_t job) const
{
    const Job& j = m_jobs.at(job);
    for (const auto& it : j.iterations)
    {
        if (it.ranksEnded != j.ranks)
        {
            return false;
        }
    }
    return !j.iterations.empty();
}

void
VclosCollectiveTracker::WriteCsv(const std::string& filename) const
{
    std::ofstream out(filename);
    VCLOS_REQUIRE(out.good(), std::runtime_error, "cannot write " << filename);
    out << "job,iteration,start_s,collective_start_s,end_s,iteration_s,collective_s,complete\n";
    for (const auto& job : m_jobs)
    {
        for (std::size_t i = 0; i < job.iterations.size(); ++i)
        {
            const Iteration& it = job.iterations[i];
            bool complete = it.ranksEnded == job.ranks;
            out << job.name << "," << i << "," << it.start.GetSeconds() << ","
                << it.collectiveStart.GetSeconds() << "," << it.end.GetSeconds() << ","
                << (complete ? (it.end - it.start).GetSeconds() : -1) << ","
                << (complete ? (it.end - it.collectiveStart).GetSeconds() : -1) << ","
                << (complete ? 1 : 0) << "\n";
        }
    }
}

} // namespace ns3
