/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-tracker.h"

#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/suite-check.h"

#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveTracker");

NS_OBJECT_ENSURE_REGISTERED(CollectiveTracker);

TypeId
CollectiveTracker::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CollectiveTracker")
                            .SetParent<Object>()
                            .SetGroupName("Collective")
                            .AddConstructor<CollectiveTracker>();
    return tid;
}

uint32_t
CollectiveTracker::Track(const std::string& name, const ApplicationContainer& ranks)
{
    auto job = static_cast<uint32_t>(m_jobs.size());
    m_jobs.push_back(Job{name, ranks.GetN(), {}});
    Ptr<CollectiveTracker> self(this);
    for (uint32_t r = 0; r < ranks.GetN(); ++r)
    {
        Ptr<Application> app = ranks.Get(r);
        for (auto [trace, event] : {std::make_pair("IterationStart", ITERATION_START),
                                    std::make_pair("CollectiveStart", COLLECTIVE_START),
                                    std::make_pair("IterationEnd", ITERATION_END)})
        {
            app->TraceConnectWithoutContext(
                trace,
                MakeBoundCallback(&CollectiveTracker::Observed, self, job, event));
        }
    }
    return job;
}

CollectiveTracker::Iteration&
CollectiveTracker::At(uint32_t job, uint32_t iteration)
{
    auto& iterations = m_jobs[job].iterations;
    if (iterations.size() <= iteration)
    {
        iterations.resize(iteration + 1);
    }
    return iterations[iteration];
}

void
CollectiveTracker::Observed(Ptr<CollectiveTracker> tracker,
                            uint32_t job,
                            Event event,
                            uint32_t rank,
                            uint32_t iteration)
{
    Iteration& it = tracker->At(job, iteration);
    Time now = Simulator::Now();
    switch (event)
    {
    case ITERATION_START:
        it.start = std::min(it.start, now);
        break;
    case COLLECTIVE_START:
        it.collectiveStart = std::min(it.collectiveStart, now);
        break;
    case ITERATION_END:
        it.end = std::max(it.end, now);
        it.ranksEnded++;
        break;
    }
}

const std::vector<CollectiveTracker::Iteration>&
CollectiveTracker::GetIterations(uint32_t job) const
{
    SUITE_REQUIRE(job < m_jobs.size(), std::out_of_range, "no tracked job " << job);
    return m_jobs[job].iterations;
}

bool
CollectiveTracker::IsComplete(uint32_t job) const
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
CollectiveTracker::WriteCsv(const std::string& filename) const
{
    std::ofstream out(filename);
    SUITE_REQUIRE(out.good(), std::runtime_error, "cannot write " << filename);
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
