/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-run-interruption.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <csignal>
#include <ctime>
#include <unistd.h>

namespace ns3
{

namespace
{

/// The signal that asks the run to stop (0: none). The handler only sets it.
volatile std::sig_atomic_t g_stopSignal = 0;

/// When the first stop signal arrived (time(), async-signal-safe), 0: none.
volatile std::sig_atomic_t g_stopSince = 0;

/// SIGINT/SIGTERM handler: async-signal-safe, it only records the signal. A second one a
/// second or more later ends the program at once (`timeout` sends its signal to the child
/// and to the process group, so two may arrive together: those count as one).
extern "C" void
RequestStop(int signal)
{
    const auto now = static_cast<std::sig_atomic_t>(time(nullptr));
    if (g_stopSignal != 0 && now - g_stopSince >= 1)
    {
        _exit(128 + signal);
    }
    if (g_stopSignal == 0)
    {
        g_stopSince = now;
    }
    g_stopSignal = signal;
}

constexpr int64_t MIN_PERIOD_NS = 1;                //!< shortest check period
constexpr int64_t MAX_PERIOD_NS = 1000000000000000; //!< longest: 10^6 s
constexpr std::chrono::milliseconds FAST{2};        //!< checks closer: period doubles
constexpr std::chrono::milliseconds SLOW{20};       //!< checks farther: period halves

} // namespace

SuiteRunInterruption&
SuiteRunInterruption::Get()
{
    static SuiteRunInterruption interruption;
    return interruption;
}

void
SuiteRunInterruption::CatchSignals()
{
    std::signal(SIGINT, RequestStop);
    std::signal(SIGTERM, RequestStop);
}

void
SuiteRunInterruption::SetWallLimit(double seconds)
{
    // A limit past half of what the clock can still count (about 146 years) is no limit:
    // the deadline would overflow.
    const Clock::time_point now = Clock::now();
    m_limited = seconds > 0 &&
                seconds < std::chrono::duration<double>(Clock::time_point::max() - now).count() / 2;
    if (m_limited)
    {
        m_deadline = now + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(seconds));
    }
}

void
SuiteRunInterruption::Start()
{
    m_lastCheck = Clock::now();
    Simulator::ScheduleNow(&SuiteRunInterruption::Check, this);
}

bool
SuiteRunInterruption::Due()
{
    if (!m_cause.empty())
    {
        return true;
    }
    if (g_stopSignal != 0)
    {
        m_cause = g_stopSignal == SIGINT ? "SIGINT" : "SIGTERM";
        m_status = 128 + g_stopSignal;
    }
    else if (m_limited && Clock::now() >= m_deadline)
    {
        m_cause = "the wall-clock limit (--wallLimit)";
        m_status = 124;
    }
    return !m_cause.empty();
}

uint64_t
SuiteRunInterruption::GetChecks() const
{
    return m_checks;
}

const std::string&
SuiteRunInterruption::GetCause() const
{
    return m_cause;
}

int
SuiteRunInterruption::GetStatus() const
{
    return m_status;
}

Time
SuiteRunInterruption::GetStoppedAt() const
{
    return m_stoppedAt;
}

void
SuiteRunInterruption::Check(SuiteRunInterruption* self)
{
    ++self->m_checks;
    if (self->Due())
    {
        self->m_stoppedAt = Simulator::Now();
        Simulator::Stop();
        return;
    }
    if (Simulator::IsFinished())
    {
        return;
    }
    const Clock::time_point now = Clock::now();
    const auto gap = now - self->m_lastCheck;
    self->m_lastCheck = now;
    if (gap < FAST && self->m_periodNs <= MAX_PERIOD_NS / 2)
    {
        self->m_periodNs *= 2;
    }
    else if (gap > SLOW && self->m_periodNs >= 2 * MIN_PERIOD_NS)
    {
        self->m_periodNs /= 2;
    }
    const Time next = NanoSeconds(self->m_periodNs);
    // Near the end of ns-3's time, check at the end: a later event could not be scheduled.
    Simulator::Schedule(std::min(next, Time::Max() - Simulator::Now()),
                        &SuiteRunInterruption::Check,
                        self);
}

} // namespace ns3
