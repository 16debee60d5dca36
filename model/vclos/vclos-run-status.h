/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VCLOS_RUN_STATUS_H
#define VCLOS_RUN_STATUS_H

#include <exception>
#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup vclos
 * \brief Stop the simulation because it cannot go on: record the cause (the first one
 *        wins until it is taken) and call Simulator::Stop().
 *
 * This is how vclos models end a run from inside a simulator event: no exception may
 * unwind through ns-3's scheduler. After Simulator::Run() returns, the program calls
 * VclosCheckRunStatus() (or VclosTakeRunFailure()), outside any event. The cause is also
 * cleared by Simulator::Destroy().
 * \param cause one line naming what went wrong
 */
void VclosStopRun(const std::string& cause);

/**
 * \ingroup vclos
 * \return the cause given to VclosStopRun since the last call, which clears it (nothing if
 *         the run did not fail)
 */
std::optional<std::string> VclosTakeRunFailure();

/**
 * \ingroup vclos
 * \brief Call after Simulator::Run(): throw std::runtime_error(cause) if the run was stopped
 *        by VclosStopRun (SuiteRunProgram then prints "error: <cause>" and exits 1).
 */
void VclosCheckRunStatus();

/**
 * \ingroup vclos
 * \brief Run the body of a simulator event (or of a callback called from one): an exception
 *        it throws stops the run with VclosStopRun instead of unwinding through ns-3.
 * \param where the event, for the message ("" for none)
 * \param body the event's work
 */
template <typename F>
void
VclosGuardEvent(const char* where, F&& body) noexcept
{
    try
    {
        body();
    }
    catch (const std::exception& e)
    {
        VclosStopRun(std::string(where) + (*where ? ": " : "") + e.what());
    }
}

} // namespace ns3

#endif /* VCLOS_RUN_STATUS_H */
