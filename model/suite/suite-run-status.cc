/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-run-status.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SuiteRunStatus");

namespace
{
/// The cause of the failed run, until taken.
std::optional<std::string>&
Failure()
{
    static std::optional<std::string> failure;
    return failure;
}

/// Simulator::Destroy() hook.
void
ClearFailure()
{
    Failure().reset();
}
} // namespace

void
SuiteStopRun(const std::string& cause)
{
    NS_LOG_ERROR("run stopped at " << Simulator::Now().As(Time::US) << ": " << cause);
    if (!Failure())
    {
        Failure() = cause;
        Simulator::ScheduleDestroy(&ClearFailure);
    }
    Simulator::Stop();
}

std::optional<std::string>
SuiteTakeRunFailure()
{
    std::optional<std::string> failure = Failure();
    Failure().reset();
    return failure;
}

void
SuiteCheckRunStatus()
{
    if (std::optional<std::string> failure = SuiteTakeRunFailure())
    {
        throw std::runtime_error(*failure);
    }
}

} // namespace ns3
