/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-host-cpu.h"

#include "oncache-check.h"
#include "oncache-limits.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheHostCpu");

NS_OBJECT_ENSURE_REGISTERED(OncacheHostCpu);

TypeId
OncacheHostCpu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheHostCpu")
            .SetParent<Object>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheHostCpu>()
            .AddAttribute(
                "Cores",
                "The number of CPU cores of the host, each modelled as a FIFO server.",
                UintegerValue(8),
                MakeUintegerAccessor(&OncacheHostCpu::SetCores, &OncacheHostCpu::GetCores),
                MakeUintegerChecker<uint32_t>(1, ONCACHE_MAX_CORES))
            .AddTraceSource("CoreBusy",
                            "A core served one job: host, core, start time and service time.",
                            MakeTraceSourceAccessor(&OncacheHostCpu::m_coreBusyTrace),
                            "ns3::OncacheHostCpu::CoreBusyTracedCallback");
    return tid;
}

OncacheHostCpu::OncacheHostCpu()
    : m_hostId(0),
      m_cores(8)
{
    NS_LOG_FUNCTION(this);
}

void
OncacheHostCpu::DoDispose()
{
    m_cores.clear();
    Object::DoDispose();
}

void
OncacheHostCpu::SetCores(uint32_t cores)
{
    ONCACHE_REQUIRE(cores > 0 && cores <= ONCACHE_MAX_CORES,
                    std::invalid_argument,
                    "Cores must be between 1 and " << ONCACHE_MAX_CORES << ", got " << cores);
    for (const auto& core : m_cores)
    {
        ONCACHE_REQUIRE(core.queue.empty(),
                        std::invalid_argument,
                        "Cores cannot change while jobs are queued");
    }
    m_cores.assign(cores, Core());
}

uint32_t
OncacheHostCpu::GetCores() const
{
    return static_cast<uint32_t>(m_cores.size());
}

void
OncacheHostCpu::SetHostId(uint32_t host)
{
    m_hostId = host;
}

std::size_t
OncacheHostCpu::GetQueueLength(uint32_t core) const
{
    return m_cores.at(core).queue.size();
}

void
OncacheHostCpu::Submit(uint32_t core, StartFunction start, DoneFunction done)
{
    NS_LOG_FUNCTION(this << core);
    ONCACHE_REQUIRE(core < m_cores.size(),
                    std::out_of_range,
                    "core " << core << " does not exist (Cores=" << m_cores.size() << ")");
    Core& c = m_cores[core];
    c.queue.push_back(Job{std::move(start), std::move(done)});
    if (!c.busy)
    {
        StartNext(core);
    }
}

void
OncacheHostCpu::StartNext(uint32_t core)
{
    Core& c = m_cores[core];
    NS_ASSERT(!c.busy && !c.queue.empty());
    c.busy = true;
    Time service = c.queue.front().start();
    NS_ASSERT(!service.IsNegative());
    m_coreBusyTrace(m_hostId, core, Simulator::Now(), service);
    Simulator::Schedule(service, &OncacheHostCpu::Complete, this, core);
}

void
OncacheHostCpu::Complete(uint32_t core)
{
    NS_LOG_FUNCTION(this << core);
    Core& c = m_cores[core];
    Job job = std::move(c.queue.front());
    c.queue.pop_front();
    c.busy = false;
    job.done();
    if (!c.busy && !c.queue.empty())
    {
        StartNext(core);
    }
}

} // namespace ns3
