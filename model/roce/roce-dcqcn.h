/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_DCQCN_H
#define ROCE_DCQCN_H

#include "roce-rate-control.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-value.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup roce
 * \brief DCQCN's reaction point (DCQCN paper, section 3): the rate of one queue pair, cut on
 *        congestion notifications and raised again by an increase timer and a byte counter.
 *
 * Two variants (attribute Variant):
 * - Paper: the DCQCN equations. Every CNP cuts R_C by α/2 (R_T ← R_C before), α moves
 *   toward 1 by g; α decays by (1 − g) per AlphaInterval without CNP (the window restarts at
 *   each CNP); the increase timer (every IncreaseTimer after a cut) and the byte counter
 *   (every ByteCounter bytes) drive fast recovery, additive and hyper (i·R_HAI) increase.
 * - Mellanox: HPCC/SimAI cc_mode 1. Nothing runs before the first CNP; from it, α is
 *   updated every AlphaInterval (+g if a CNP came in the window), a decrease check every
 *   RateDecreaseInterval (offset by 1 ns) cuts once if a CNP came in its window, and the
 *   increase timer steps fast recovery, additive (at stage F) and hyper (+R_HAI) increase.
 *
 * Both variants give the values of the periodic-timer definition at every instant, with far
 * fewer events (a speed requirement): α is never an event (it is brought up to date in closed
 * form, (1 − g)^k, when read); the Mellanox decrease check is one event at the end of a
 * window in which a CNP arrived; the increase timer stops once R_C = R_T = line rate, where
 * no further increase can change anything. Timers due at the same instant apply in the order
 * α update, increase, decrease check, and all of them before a CNP or a byte count notified
 * at that instant. See doc/roce/roce.rst.
 *
 * Rates are integer bits per second: a cut is floor(R_C·(1 − α/2)), a midpoint is
 * (R_C + R_T)/2 rounded up, so R_C reaches R_T exactly (attribute Midpoint: or HPCC's
 * truncated halves, with which R_C may stay 1 bps below R_T; the timer then stops there).
 */
class Dcqcn : public RoceRateControl
{
  public:
    /// The model of the reaction point.
    enum Variant
    {
        PAPER,   //!< the DCQCN equations (cut on each CNP, timer + byte counter)
        MELLANOX //!< HPCC/SimAI cc_mode 1 (periodic α and decrease check, timer only)
    };

    /// How (R_C + R_T)/2 becomes an integer rate.
    enum Midpoint
    {
        ROUND_UP,        //!< ceil((R_C + R_T)/2): R_C reaches R_T exactly
        TRUNCATED_HALVES //!< floor(R_C/2) + floor(R_T/2), as HPCC's DataRate division
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Dcqcn();
    ~Dcqcn() override;

    /**
     * \brief Attribute values of a named parameter set (DCQCN paper, section 3).
     * \param name "paper", "hpcc", "simai" or "nvidia"
     * \param nicRate the NIC's rate (the "hpcc" rates scale with it)
     * \return attribute name and value pairs, usable with SetAttribute or ObjectFactory::Set
     * \throws std::invalid_argument for an unknown name
     */
    static std::vector<std::pair<std::string, std::string>> GetProfile(const std::string& name,
                                                                       DataRate nicRate);
    /**
     * \brief Set this object's attributes to a named parameter set (see GetProfile).
     * \param name the profile \param nicRate the NIC's rate
     */
    void ApplyProfile(const std::string& name, DataRate nicRate);

    /**
     * \brief Check the attributes against a line rate.
     * \param lineRate the NIC's rate
     * \throws std::invalid_argument with one line naming the bad attribute
     */
    void Validate(DataRate lineRate) const;

    /// Validates the attributes (throws like Validate), then starts at line rate.
    void Start(DataRate lineRate) override;
    DataRate GetRate() const override;
    void NotifyCnp() override;
    void NotifyBytesSent(uint32_t bytes) override;
    void Stop() override;

    /// \return the target rate R_T
    DataRate GetTargetRate() const;
    /// \return α now (brought up to date in closed form, without changing the state)
    double GetAlpha() const;

  protected:
    void DoDispose() override;

  private:
    /// Apply every timer due at or before now, in the order α, increase, decrease check.
    void CatchUp();
    /// Bring α up to date to now.
    void AdvanceAlpha();
    /// \param alpha α at the reference \param windows CNP-free windows \return decayed α
    double Decay(double alpha, int64_t windows) const;
    /// Event: a timer fired (the state is brought up to date by CatchUp).
    void Wake();
    /// A rate cut (the paper's on-CNP step or the Mellanox decrease check).
    void Cut();
    /// One increase event. \param timer true for the timer, false for the byte counter
    void Increase(bool timer);
    /// \param rc R_C \param rt R_T \return their midpoint, rounded as m_midpoint says
    uint64_t Mid(uint64_t rc, uint64_t rt) const;
    /// (Re)start the increase timer one period from now.
    void RestartIncreaseTimer();
    /// \param time when a timer falls due: schedule the wake-up event for it
    EventId ScheduleAt(const Time& time);

    // Attributes
    Variant m_variant;       //!< the model
    double m_g;              //!< α gain g
    Time m_alphaInterval;    //!< K (paper) / t_α (Mellanox)
    Time m_decreaseInterval; //!< t_dec (Mellanox)
    Time m_increaseInterval; //!< T
    uint64_t m_byteCounter;  //!< B (0: none)
    uint32_t m_f;            //!< F
    DataRate m_rateAi;       //!< R_AI
    DataRate m_rateHai;      //!< R_HAI
    DataRate m_minRate;      //!< R_min
    double m_initialAlpha;   //!< α at start (paper) / at the first CNP (Mellanox)
    double m_rateOnFirstCnp; //!< Mellanox: R_C and R_T ← this · R_C at the first CNP
    bool m_clampTargetRate;  //!< R_T ← R_C on every cut (else only after an increase)
    bool m_alphaBeforeCut;   //!< paper: update α before the cut
    bool m_targetDivideBy8;  //!< QCN: first increase after a cut, R_T > 10 R_C → R_T/8
    bool m_bitExactAlpha;    //!< decay α by k multiplies instead of (1 − g)^k
    Midpoint m_midpoint;     //!< rounding of (R_C + R_T)/2

    // State
    bool m_running = false;       //!< between Start and Stop
    uint64_t m_line = 0;          //!< line rate (bps)
    TracedValue<uint64_t> m_rc;   //!< R_C (bps)
    TracedValue<uint64_t> m_rt;   //!< R_T (bps)
    TracedValue<double> m_alpha;  //!< α at m_alphaRef (after m_alphaUpdates updates)
    Time m_alphaRef;              //!< paper: start of the α window; Mellanox: first CNP
    int64_t m_alphaUpdates = 0;   //!< Mellanox: α updates applied since the first CNP
    bool m_alphaCnp = false;      //!< Mellanox: a CNP in the pending α window
    bool m_seenCnp = false;       //!< Mellanox: the first CNP has arrived
    bool m_decreaseCnp = false;   //!< Mellanox: a CNP in the pending decrease window
    Time m_decreaseAt;            //!< Mellanox: end of that window (valid when m_decreaseCnp)
    EventId m_decreaseEvent;      //!< wake-up at m_decreaseAt
    bool m_increaseOn = false;    //!< the increase timer runs
    Time m_increaseAt;            //!< its next firing
    EventId m_increaseEvent;      //!< wake-up at m_increaseAt
    uint64_t m_timerStage = 0;    //!< i_T (paper) / stage (Mellanox)
    uint64_t m_byteStage = 0;     //!< i_B (paper)
    uint64_t m_bytes = 0;         //!< bytes counted toward the next byte-counter event
    bool m_firstIncrease = false; //!< no increase since the last cut
};

} // namespace ns3

#endif // ROCE_DCQCN_H
