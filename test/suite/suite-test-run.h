/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_TEST_RUN_H
#define SUITE_TEST_RUN_H

#include "ns3/simulator.h"
#include "ns3/suite-run-status.h"

#include <exception>
#include <optional>
#include <string>

namespace ns3
{

/// What a run that is meant to stop on a failure left behind.
struct SuiteStoppedRun
{
    bool threw = false;                 //!< an exception left Simulator::Run (it must not)
    std::optional<std::string> failure; //!< the cause SuiteStopRun recorded, if any
};

/// \return the outcome of Simulator::Run, catching what would leave it, with the failure taken
inline SuiteStoppedRun
SuiteRunUntilStopped()
{
    SuiteStoppedRun run;
    try
    {
        Simulator::Run();
    }
    catch (const std::exception&)
    {
        run.threw = true;
    }
    run.failure = SuiteTakeRunFailure();
    return run;
}

} // namespace ns3

#endif /* SUITE_TEST_RUN_H */
