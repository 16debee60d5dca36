/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_RUN_STATUS_H
#define SUITE_RUN_STATUS_H

#include <exception>
#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup suite
 * \brief Stop the simulation because it cannot go on: record the cause (the first one
 *        wins until it is taken) and call Simulator::Stop().
 *
 * This is how vclos models end a run from inside a simulator event: no exception may
 * unwind through ns-3's scheduler. After Simulator::Run() returns, the program calls
 * SuiteCheckRunStatus() (or SuiteTakeRunFailure()), outside any event. The cause is also
 * cleared by Simulator::Destroy().
 * \param cause one line naming what went wrong
 */
void SuiteStopRun(const std::string& cause);

/**
 * \ingroup suite
 * \return the cause given to SuiteStopRun since the last call, which clears it (nothing if
 *         the run did not fail)
 */
std::optional<std::string> SuiteTakeRunFailure();

/**
 * \ingroup suite
 * \brief Call after Simulator::Run(): throw std::runtime_error(cause) if the run was stopped
 *        by SuiteStopRun (SuiteRunProgram then prints "error: <cause>" and exits 1).
 */
void SuiteCheckRunStatus();

/**
 * \ingroup suite
 * \brief Run the body of a simulator event (or of a callback called from one): an exception
 *        it throws stops the run with SuiteStopRun instead of unwinding through ns-3.
 * \param where the event, for the message ("" for none)
 * \param body the event's work
 */
template <typename F>
void
SuiteGuardEvent(const char* where, F&& body) noexcept
{
    try
    {
        body();
    }
    catch (const std::exception& e)
    {
        SuiteStopRun(std::string(where) + (*where ? ": " : "") + e.what());
    }
}

} // namespace ns3

#endif /* SUITE_RUN_STATUS_H */
