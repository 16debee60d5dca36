/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_RUN_INTERRUPTION_H
#define SUITE_RUN_INTERRUPTION_H

#include "ns3/nstime.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup suite
 * \brief Stops a simulation at its next check once SIGINT or SIGTERM arrived or a wall-clock
 *        limit passed, so that a long run can end with what it has written so far.
 *
 * Signals are the process's, so there is one interruption per process (Get()). CatchSignals()
 * installs handlers that only record the signal; a second signal a second or more after the
 * first ends the process at once (status 128 + signal). Start() schedules the first check at
 * the current simulated time; each check looks at the signal and the clock, and schedules the
 * next one while other events remain.
 *
 * The checks adapt their simulated period to the wall time between them: it starts at 10 us,
 * doubles while checks come less than 2 ms apart and halves while they come more than 20 ms
 * apart (1 ns to 10^6 s). A packet-level run is checked every few milliseconds of wall time;
 * a flow-level run whose events lie days apart in simulated time is not slowed by checks
 * in between. Checks are events of their own, counted by GetChecks(); they change no model
 * state, so a run's results do not depend on them.
 */
class SuiteRunInterruption
{
  public:
    /// \return the process's interruption (programs use this one)
    static SuiteRunInterruption& Get();

    /// An interruption of its own (signals are still the process's), e.g. for a test.
    SuiteRunInterruption() = default;

    /// Install the SIGINT and SIGTERM handlers.
    static void CatchSignals();

    /**
     * \brief Set a wall-clock limit, from now.
     * \param seconds the limit (0: none; a limit past what the clock can count is none)
     */
    void SetWallLimit(double seconds);

    /// Schedule a check now (call before each Simulator::Run).
    void Start();

    /// \return whether the run must stop (a signal arrived or the limit passed)
    bool Due();

    /// \return check events run so far (not the model's)
    uint64_t GetChecks() const;

    /// \return why the run stopped ("SIGINT", "SIGTERM", "the wall-clock limit (--wallLimit)")
    ///         or "" when it did not
    const std::string& GetCause() const;

    /// \return the exit status the stop asks for (128 + signal; 124 for the limit; 0: none)
    int GetStatus() const;

    /// \return the simulated time at which a check stopped the run
    Time GetStoppedAt() const;

  private:
    using Clock = std::chrono::steady_clock; //!< wall clock

    /// The check event.
    static void Check(SuiteRunInterruption* self);

    Clock::time_point m_deadline;  //!< wall-clock limit
    bool m_limited = false;        //!< a limit is set
    std::string m_cause;           //!< why the run stopped ("" if it did not)
    int m_status = 0;              //!< exit status it asks for
    uint64_t m_checks = 0;         //!< check events run
    Time m_stoppedAt;              //!< simulated time of the stop
    int64_t m_periodNs = 10000;    //!< simulated time between checks
    Clock::time_point m_lastCheck; //!< wall time of the last check
};

} // namespace ns3

#endif /* SUITE_RUN_INTERRUPTION_H */
