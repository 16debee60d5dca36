/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-scheduler-tracker.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/suite-check.h"
#include "ns3/suite-exact-number.h"

#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClusterSchedulerTracker");
NS_OBJECT_ENSURE_REGISTERED(ClusterSchedulerTracker);

TypeId
ClusterSchedulerTracker::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ClusterSchedulerTracker")
                            .SetParent<Object>()
                            .SetGroupName("Cluster")
                            .AddConstructor<ClusterSchedulerTracker>();
    return tid;
}

ClusterSchedulerTracker::ClusterSchedulerTracker()
{
    NS_LOG_FUNCTION(this);
}

void
ClusterSchedulerTracker::Install(Ptr<ClusterJobScheduler> scheduler)
{
    NS_LOG_FUNCTION(this << scheduler);
    SUITE_REQUIRE(scheduler->GetExecutor(),
                  std::invalid_argument,
                  "ClusterSchedulerTracker::Install: the scheduler has no fabric yet (call Setup)");
    m_gpuCount = scheduler->GetTopology().GetGpus();
    m_gpusPerLeaf = scheduler->GetTopology().GetGpusPerLeaf();
    m_queue = {{Simulator::Now(), scheduler->GetQueueLength()}};
    m_busy = {{Simulator::Now(), 0}};
    // The scheduler's traces hold the tracker (a raw pointer would dangle if the
    // scheduler outlived it); the tracker holds nothing of the scheduler.
    Ptr<ClusterSchedulerTracker> self(this);
    scheduler->TraceConnectWithoutContext(
        "JobArrived",
        Callback<void, const ClusterJobRequest&>([self](const ClusterJobRequest& job) {
            JobRecord& r = self->m_jobs[job.id];
            r.gpus = job.gpus;
            r.arrival = Simulator::Now();
        }));
    scheduler->TraceConnectWithoutContext(
        "JobStarted",
        Callback<void, const ClusterJobRequest&, const ClusterJobAllocation&>(
            [self](const ClusterJobRequest& job, const ClusterJobAllocation& allocation) {
                JobRecord& r = self->m_jobs[job.id];
                r.start = Simulator::Now();
                r.algorithm = job.algorithm;
                std::set<uint32_t> leaves;
                for (uint32_t gpu : allocation.gpus)
                {
                    leaves.insert(gpu / self->m_gpusPerLeaf);
                }
                r.leaves = static_cast<uint32_t>(leaves.size());
            }));
    scheduler->TraceConnectWithoutContext(
        "JobFinished",
        Callback<void, const ClusterJobRequest&>([self](const ClusterJobRequest& job) {
            self->m_jobs[job.id].finish = Simulator::Now();
            ++self->m_finished;
        }));
    scheduler->TraceConnectWithoutContext(
        "Decision",
        Callback<void, const ClusterJobRequest&, bool, Time>(
            [self](const ClusterJobRequest& job, bool, Time t) {
                self->m_decisionUs.push_back(t.GetSeconds() * 1e6);
                JobRecord& r = self->m_jobs[job.id];
                if (!r.lastFailure.IsStrictlyNegative())
                {
                    r.blocked[r.lastCause] += Simulator::Now() - r.lastFailure;
                    r.lastFailure = Time(-1);
                }
            }));
    scheduler->TraceConnectWithoutContext(
        "PlacementFailed",
        Callback<void, const ClusterJobRequest&, ClusterPlacementFailure>(
            [self](const ClusterJobRequest& job, ClusterPlacementFailure cause) {
                auto c = static_cast<std::size_t>(cause);
                SUITE_REQUIRE(c < CAUSES,
                              std::logic_error,
                              "scheduler tracker: unknown placement failure cause " << c);
                JobRecord& r = self->m_jobs[job.id];
                ++r.failures[c];
                r.lastFailure = Simulator::Now();
                r.lastCause = c;
            }));
    scheduler->TraceConnectWithoutContext(
        "QueueLength",
        Callback<void, uint32_t, uint32_t>(
            [self](uint32_t, uint32_t now) { Record(&self->m_queue, now); }));
    scheduler->TraceConnectWithoutContext(
        "BusyGpus",
        Callback<void, uint32_t, uint32_t>(
            [self](uint32_t, uint32_t now) { Record(&self->m_busy, now); }));
}

void
ClusterSchedulerTracker::Record(std::vector<Sample>* series, uint32_t value)
{
    Time now = Simulator::Now();
    if (!series->empty() && series->back().time == now)
    {
        series->back().value = value;
        // A change undone at the same instant leaves no step.
        if (series->size() > 1 && (*series)[series->size() - 2].value == value)
        {
            series->pop_back();
        }
        return;
    }
    if (series->empty() || series->back().value != value)
    {
        series->push_back({now, value});
    }
}

const std::map<uint32_t, ClusterSchedulerTracker::JobRecord>&
ClusterSchedulerTracker::GetJobs() const
{
    return m_jobs;
}

uint32_t
ClusterSchedulerTracker::GetFinishedJobs() const
{
    return m_finished;
}

const std::vector<ClusterSchedulerTracker::Sample>&
ClusterSchedulerTracker::GetQueueLength() const
{
    return m_queue;
}

const std::vector<ClusterSchedulerTracker::Sample>&
ClusterSchedulerTracker::GetBusyGpus() const
{
    return m_busy;
}

const std::vector<double>&
ClusterSchedulerTracker::GetDecisionMicroseconds() const
{
    return m_decisionUs;
}

double
ClusterSchedulerTracker::TimeAverage(const std::vector<Sample>& series, Time end)
{
    SUITE_REQUIRE(end.IsStrictlyPositive(),
                  std::invalid_argument,
                  "ClusterSchedulerTracker::TimeAverage: the window end must be > 0");
    double area = 0;
    for (std::size_t i = 0; i < series.size() && series[i].time < end; ++i)
    {
        Time until = i + 1 < series.size() ? std::min(series[i + 1].time, end) : end;
        area += series[i].value * (until - series[i].time).GetSeconds();
    }
    return area / end.GetSeconds();
}

void
ClusterSchedulerTracker::WriteTimeSeries(std::ostream& out,
                                         const std::string& label,
                                         bool writeHeader) const
{
    if (writeHeader)
    {
        out << "label,time_ms,queue_length,busy_gpus,gpu_utilisation\n";
    }
    // Merge the two step series: one row per instant either changes.
    std::size_t q = 0;
    std::size_t b = 0;
    while (q < m_queue.size() || b < m_busy.size())
    {
        Time t = std::min(q < m_queue.size() ? m_queue[q].time : Time::Max(),
                          b < m_busy.size() ? m_busy[b].time : Time::Max());
        while (q < m_queue.size() && m_queue[q].time == t)
        {
            ++q;
        }
        while (b < m_busy.size() && m_busy[b].time == t)
        {
            ++b;
        }
        uint32_t queue = q > 0 ? m_queue[q - 1].value : 0;
        uint32_t busy = b > 0 ? m_busy[b - 1].value : 0;
        out << label << "," << SuiteExact{t.GetSeconds() * 1e3} << "," << queue << "," << busy
            << "," << SuiteExact{m_gpuCount == 0 ? 0.0 : static_cast<double>(busy) / m_gpuCount}
            << "\n";
    }
}

} // namespace ns3
