/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/suite-check.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Dcqcn");

NS_OBJECT_ENSURE_REGISTERED(Dcqcn);

namespace
{

/// \param a a time step count \param b a positive one \return floor(a / b)
int64_t
FloorDiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/// \param rate a rate (bps) \param add an increase (bps) \param line the cap \return
/// min(rate + add, line), without overflow
uint64_t
AddCapped(uint64_t rate, uint64_t add, uint64_t line)
{
    return (add >= line || rate >= line - add) ? line : rate + add;
}

} // namespace

TypeId
Dcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Dcqcn")
            .SetParent<RoceRateControl>()
            .SetGroupName("Roce")
            .AddConstructor<Dcqcn>()
            .AddAttribute("Variant",
                          "Paper: the DCQCN equations (cut on each CNP, α recovery after "
                          "AlphaInterval without CNP, increase timer and byte counter). "
                          "Mellanox: HPCC/SimAI cc_mode 1 (timers from the first CNP, periodic "
                          "α update and decrease check, increase timer only).",
                          EnumValue(PAPER),
                          MakeEnumAccessor(&Dcqcn::m_variant),
                          MakeEnumChecker(PAPER, "Paper", MELLANOX, "Mellanox"))
            .AddAttribute("G",
                          "Gain g of the α estimate, in (0, 1].",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&Dcqcn::m_g),
                          MakeDoubleChecker<double>())
            .AddAttribute("AlphaInterval",
                          "Paper: K, α decays by (1 - g) for every AlphaInterval without CNP "
                          "(restarted at each CNP). Mellanox: t_α, the period of the α update "
                          "from the first CNP. Must be > 0.",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&Dcqcn::m_alphaInterval),
                          MakeTimeChecker())
            .AddAttribute("RateDecreaseInterval",
                          "Mellanox: t_dec, the period of the decrease check (first one at the "
                          "first CNP + t_dec + 1 ns); it cuts once if a CNP arrived in its "
                          "window. The paper variant cuts on each CNP and ignores it. Must be "
                          "> 0.",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&Dcqcn::m_decreaseInterval),
                          MakeTimeChecker())
            .AddAttribute("IncreaseTimer",
                          "T, the period of the increase timer, restarted at each cut. Must be "
                          "> 0.",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&Dcqcn::m_increaseInterval),
                          MakeTimeChecker())
            .AddAttribute("ByteCounter",
                          "Paper: B, an increase event every B bytes sent (0: no byte "
                          "counter). The Mellanox variant has none and refuses a value > 0.",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&Dcqcn::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("F",
                          "Fast-recovery threshold F (>= 1): the stage at which additive "
                          "increase begins.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&Dcqcn::m_f),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAI",
                          "R_AI, the additive increase of the target rate.",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&Dcqcn::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHAI",
                          "R_HAI, the hyper increase of the target rate (paper: times i).",
                          DataRateValue(DataRate("200Mbps")),
                          MakeDataRateAccessor(&Dcqcn::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "R_min, the floor of a cut; in (0, line rate].",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&Dcqcn::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("InitialAlpha",
                          "α at Start (paper) or at the first CNP (Mellanox), in [0, 1].",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&Dcqcn::m_initialAlpha),
                          MakeDoubleChecker<double>())
            .AddAttribute("RateOnFirstCnp",
                          "Mellanox: R_C and R_T become this fraction of R_C at the first "
                          "CNP, in (0, 1].",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&Dcqcn::m_rateOnFirstCnp),
                          MakeDoubleChecker<double>())
            .AddAttribute("ClampTargetRate",
                          "R_T <- R_C on every cut. When false, only on a cut after an "
                          "increase event (Mellanox: stage != 0; paper: i_T or i_B > 0).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&Dcqcn::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute("AlphaBeforeCut",
                          "Paper: update α before the cut of a CNP (as bobzhuyb/ns3-rdma) "
                          "rather than after (as the paper).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&Dcqcn::m_alphaBeforeCut),
                          MakeBooleanChecker())
            .AddAttribute("TargetDivideBy8",
                          "QCN detail: on the first increase after a cut, if R_T > 10 R_C then "
                          "R_T <- R_T / 8.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&Dcqcn::m_targetDivideBy8),
                          MakeBooleanChecker())
            .AddAttribute("BitExactAlpha",
                          "Decay α over k CNP-free windows by k multiplies by (1 - g), as a "
                          "periodic timer does, instead of one pow((1 - g), k).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&Dcqcn::m_bitExactAlpha),
                          MakeBooleanChecker())
            .AddAttribute("Midpoint",
                          "Rounding of R_C <- (R_C + R_T)/2 in integer bps. RoundUp: "
                          "ceil((R_C + R_T)/2), so R_C reaches R_T exactly. TruncatedHalves: "
                          "floor(R_C/2) + floor(R_T/2), as HPCC's simulator computes it (R_C "
                          "may then stay 1 bps below R_T).",
                          EnumValue(ROUND_UP),
                          MakeEnumAccessor(&Dcqcn::m_midpoint),
                          MakeEnumChecker(ROUND_UP, "RoundUp", TRUNCATED_HALVES, "TruncatedHalves"))
            .AddTraceSource("CurrentRate",
                            "R_C in bps, at every change.",
                            MakeTraceSourceAccessor(&Dcqcn::m_rc),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("TargetRate",
                            "R_T in bps, at every change.",
                            MakeTraceSourceAccessor(&Dcqcn::m_rt),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("Alpha",
                            "α when the model brings it up to date (at a CNP or a cut; it "
                            "decays in closed form in between: read GetAlpha() for its "
                            "value at any instant).",
                            MakeTraceSourceAccessor(&Dcqcn::m_alpha),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

Dcqcn::Dcqcn()
{
    NS_LOG_FUNCTION(this);
}

Dcqcn::~Dcqcn()
{
    NS_LOG_FUNCTION(this);
}

void
Dcqcn::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_increaseEvent.Cancel();
    m_decreaseEvent.Cancel();
    RoceRateControl::DoDispose();
}

std::vector<std::pair<std::string, std::string>>
Dcqcn::GetProfile(const std::string& name, DataRate nicRate)
{
    auto bps = [](uint64_t v) { return std::to_string(v) + "bps"; };
    if (name == "paper")
    {
        // [PAD] dcqcn-protocol.tex / dcqcn-model.tex / dcqcn2.m; R_HAI from [BOB]'s config;
        // R_min unverified (HPCC's RdmaHw default).
        return {{"Variant", "Paper"},
                {"G", "0.00390625"},
                {"AlphaInterval", "55us"},
                {"RateDecreaseInterval", "50us"},
                {"IncreaseTimer", "55us"},
                {"ByteCounter", "10000000"},
                {"F", "5"},
                {"RateAI", "40Mbps"},
                {"RateHAI", "200Mbps"},
                {"MinRate", "100Mbps"},
                {"InitialAlpha", "1"},
                {"RateOnFirstCnp", "1"},
                {"ClampTargetRate", "true"},
                {"AlphaBeforeCut", "false"},
                {"TargetDivideBy8", "false"},
                {"Midpoint", "RoundUp"}};
    }
    if (name == "hpcc")
    {
        // [HPCC:run.py] dcqcn at bw Gb/s: R_AI = 5 bw/25 Mb/s, R_HAI = 50 bw/25 Mb/s; the
        // midpoint as HPCC's rdma-hw.cc computes it (rate/2 + target/2 in integer bps).
        const uint64_t nic = nicRate.GetBitRate();
        return {{"Variant", "Mellanox"},
                {"G", "0.00390625"},
                {"AlphaInterval", "1us"},
                {"RateDecreaseInterval", "4us"},
                {"IncreaseTimer", "300us"},
                {"ByteCounter", "0"},
                {"F", "1"},
                {"RateAI", bps(nic / 5000)},
                {"RateHAI", bps(nic / 500)},
                {"MinRate", "1000Mbps"},
                {"InitialAlpha", "1"},
                {"RateOnFirstCnp", "1"},
                {"ClampTargetRate", "false"},
                {"AlphaBeforeCut", "false"},
                {"TargetDivideBy8", "false"},
                {"Midpoint", "TruncatedHalves"}};
    }
    if (name == "simai")
    {
        // [HPCC:mix/config.txt] = [SimAI:SimAI.conf], CC_MODE 1.
        return {{"Variant", "Mellanox"},
                {"G", "0.00390625"},
                {"AlphaInterval", "1us"},
                {"RateDecreaseInterval", "4us"},
                {"IncreaseTimer", "900us"},
                {"ByteCounter", "0"},
                {"F", "1"},
                {"RateAI", "50Mbps"},
                {"RateHAI", "100Mbps"},
                {"MinRate", "100Mbps"},
                {"InitialAlpha", "1"},
                {"RateOnFirstCnp", "1"},
                {"ClampTargetRate", "false"},
                {"AlphaBeforeCut", "false"},
                {"TargetDivideBy8", "false"},
                {"Midpoint", "TruncatedHalves"}};
    }
    if (name == "nvidia")
    {
        // [doc: mlxconfig dump, MLNX_OFED ECN page]. DCE_TCP_G=1019 read as g = 5/1024
        // (unverified encoding); RPG_BYTE_RESET (32767 B) is not modelled by the Mellanox
        // variant; CLAMP_TGT_RATE_AFTER_TIME_INC is not modelled.
        return {{"Variant", "Mellanox"},
                {"G", "0.0048828125"},
                {"AlphaInterval", "1us"},
                {"RateDecreaseInterval", "4us"},
                {"IncreaseTimer", "300us"},
                {"ByteCounter", "0"},
                {"F", "1"},
                {"RateAI", "5Mbps"},
                {"RateHAI", "50Mbps"},
                {"MinRate", "1Mbps"},
                {"InitialAlpha", "0.9990234375"},
                {"RateOnFirstCnp", "1"},
                {"ClampTargetRate", "false"},
                {"AlphaBeforeCut", "false"},
                {"TargetDivideBy8", "false"},
                {"Midpoint", "RoundUp"}};
    }
    SUITE_REQUIRE(false,
                  std::invalid_argument,
                  "Dcqcn: unknown profile '" << name << "' (known: paper, hpcc, simai, nvidia)");
    return {};
}

void
Dcqcn::ApplyProfile(const std::string& name, DataRate nicRate)
{
    NS_LOG_FUNCTION(this << name << nicRate);
    for (const auto& [attribute, value] : GetProfile(name, nicRate))
    {
        if (attribute == "Variant")
        {
            SetAttribute(attribute, EnumValue(value == "Paper" ? PAPER : MELLANOX));
        }
        else if (attribute == "Midpoint")
        {
            SetAttribute(attribute, EnumValue(value == "RoundUp" ? ROUND_UP : TRUNCATED_HALVES));
        }
        else
        {
            SetAttribute(attribute, StringValue(value));
        }
    }
}

void
Dcqcn::Validate(DataRate lineRate) const
{
    const std::string p = "ns3::Dcqcn::";
    SUITE_REQUIRE(lineRate.GetBitRate() > 0,
                  std::invalid_argument,
                  "Dcqcn: the line rate must be > 0");
    SUITE_REQUIRE(std::isfinite(m_g) && m_g > 0 && m_g <= 1,
                  std::invalid_argument,
                  p << "G=" << m_g << " must be in (0, 1]");
    SUITE_REQUIRE(m_alphaInterval.IsStrictlyPositive(),
                  std::invalid_argument,
                  p << "AlphaInterval=" << m_alphaInterval.As(Time::US) << " must be > 0");
    SUITE_REQUIRE(m_variant == PAPER || m_decreaseInterval.IsStrictlyPositive(),
                  std::invalid_argument,
                  p << "RateDecreaseInterval=" << m_decreaseInterval.As(Time::US)
                    << " must be > 0");
    SUITE_REQUIRE(m_increaseInterval.IsStrictlyPositive(),
                  std::invalid_argument,
                  p << "IncreaseTimer=" << m_increaseInterval.As(Time::US) << " must be > 0");
    SUITE_REQUIRE(m_variant == PAPER || m_byteCounter == 0,
                  std::invalid_argument,
                  p << "ByteCounter=" << m_byteCounter
                    << ": the Mellanox variant has no byte counter (set 0)");
    SUITE_REQUIRE(m_f >= 1, std::invalid_argument, p << "F=0 must be >= 1");
    SUITE_REQUIRE(m_minRate.GetBitRate() > 0 && m_minRate <= lineRate,
                  std::invalid_argument,
                  p << "MinRate=" << m_minRate.GetBitRate() << "bps must be in (0, line rate "
                    << lineRate.GetBitRate() << "bps]");
    SUITE_REQUIRE(std::isfinite(m_initialAlpha) && m_initialAlpha >= 0 && m_initialAlpha <= 1,
                  std::invalid_argument,
                  p << "InitialAlpha=" << m_initialAlpha << " must be in [0, 1]");
    SUITE_REQUIRE(std::isfinite(m_rateOnFirstCnp) && m_rateOnFirstCnp > 0 && m_rateOnFirstCnp <= 1,
                  std::invalid_argument,
                  p << "RateOnFirstCnp=" << m_rateOnFirstCnp << " must be in (0, 1]");
}

void
Dcqcn::Start(DataRate lineRate)
{
    NS_LOG_FUNCTION(this << lineRate);
    Validate(lineRate);
    m_increaseEvent.Cancel();
    m_decreaseEvent.Cancel();
    m_running = true;
    m_line = lineRate.GetBitRate();
    m_rc = m_line;
    m_rt = m_line;
    m_alpha = m_initialAlpha;
    m_alphaRef = Simulator::Now();
    m_alphaUpdates = 0;
    m_alphaCnp = false;
    m_seenCnp = false;
    m_decreaseCnp = false;
    m_increaseOn = false;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytes = 0;
    m_firstIncrease = false;
    // Paper: before the first cut the increase timer only counts stages at line rate, unless
    // the midpoint moves R_C off line rate (truncated halves of an odd line rate).
    if (m_variant == PAPER && Mid(m_line, m_line) != m_line)
    {
        RestartIncreaseTimer();
    }
}

DataRate
Dcqcn::GetRate() const
{
    return DataRate(m_rc.Get());
}

DataRate
Dcqcn::GetTargetRate() const
{
    return DataRate(m_rt.Get());
}

double
Dcqcn::Decay(double alpha, int64_t windows) const
{
    if (windows <= 0)
    {
        return alpha;
    }
    if (!m_bitExactAlpha)
    {
        return alpha * std::pow(1.0 - m_g, static_cast<double>(windows));
    }
    for (int64_t k = 0; k < windows && alpha != 0; ++k)
    {
        alpha = (1 - m_g) * alpha;
    }
    return alpha;
}

double
Dcqcn::GetAlpha() const
{
    const int64_t elapsed = (Simulator::Now() - m_alphaRef).GetTimeStep();
    const int64_t windows = FloorDiv(elapsed, m_alphaInterval.GetTimeStep());
    if (m_variant == PAPER)
    {
        return Decay(m_alpha.Get(), windows);
    }
    if (!m_seenCnp || windows <= m_alphaUpdates)
    {
        return m_alpha.Get();
    }
    double alpha = (1 - m_g) * m_alpha.Get() + (m_alphaCnp ? m_g : 0.0);
    return Decay(alpha, windows - m_alphaUpdates - 1);
}

void
Dcqcn::AdvanceAlpha()
{
    const int64_t elapsed = (Simulator::Now() - m_alphaRef).GetTimeStep();
    const int64_t windows = FloorDiv(elapsed, m_alphaInterval.GetTimeStep());
    if (m_variant == PAPER)
    {
        if (windows > 0)
        {
            m_alpha = Decay(m_alpha.Get(), windows);
            m_alphaRef += m_alphaInterval * windows;
        }
        return;
    }
    if (m_seenCnp && windows > m_alphaUpdates)
    {
        m_alpha = GetAlpha();
        m_alphaUpdates = windows;
        m_alphaCnp = false;
    }
}

EventId
Dcqcn::ScheduleAt(const Time& time)
{
    return Simulator::Schedule(time - Simulator::Now(), &Dcqcn::Wake, this);
}

void
Dcqcn::Wake()
{
    NS_LOG_FUNCTION(this);
    CatchUp();
}

void
Dcqcn::RestartIncreaseTimer()
{
    m_increaseEvent.Cancel();
    m_increaseOn = true;
    m_increaseAt = Simulator::Now() + m_increaseInterval;
    m_increaseEvent = ScheduleAt(m_increaseAt);
}

void
Dcqcn::CatchUp()
{
    if (!m_running)
    {
        return;
    }
    const Time now = Simulator::Now();
    bool increased = false;
    while (m_increaseOn && m_increaseAt <= now)
    {
        m_increaseAt += m_increaseInterval;
        Increase(true);
        increased = true;
    }
    if (increased)
    {
        m_increaseEvent.Cancel();
        if (m_increaseOn)
        {
            m_increaseEvent = ScheduleAt(m_increaseAt);
        }
    }
    if (m_variant == MELLANOX && m_decreaseCnp && m_decreaseAt <= now)
    {
        m_decreaseEvent.Cancel();
        m_decreaseCnp = false;
        Cut();
    }
}

void
Dcqcn::Cut()
{
    AdvanceAlpha();
    if (m_variant == PAPER && m_alphaBeforeCut)
    {
        m_alpha = (1 - m_g) * m_alpha.Get() + m_g;
    }
    const bool increasedSinceCut = m_timerStage > 0 || m_byteStage > 0;
    if (m_clampTargetRate || increasedSinceCut)
    {
        m_rt = m_rc.Get();
    }
    const double cut = static_cast<double>(m_rc.Get()) * (1.0 - m_alpha.Get() / 2);
    m_rc = std::max(m_minRate.GetBitRate(), static_cast<uint64_t>(cut));
    if (m_variant == PAPER)
    {
        if (!m_alphaBeforeCut)
        {
            m_alpha = (1 - m_g) * m_alpha.Get() + m_g;
        }
        m_alphaRef = Simulator::Now();
    }
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytes = 0;
    m_firstIncrease = true;
    RestartIncreaseTimer();
    NS_LOG_LOGIC("cut: R_C=" << m_rc.Get() << " R_T=" << m_rt.Get() << " alpha=" << m_alpha.Get());
}

void
Dcqcn::Increase(bool timer)
{
    if (m_firstIncrease && m_targetDivideBy8 && m_rt.Get() > 10 * m_rc.Get())
    {
        m_rt = m_rt.Get() / 8;
    }
    m_firstIncrease = false;
    if (m_variant == MELLANOX)
    {
        if (m_timerStage == m_f)
        {
            m_rt = AddCapped(m_rt.Get(), m_rateAi.GetBitRate(), m_line);
        }
        else if (m_timerStage > m_f)
        {
            m_rt = AddCapped(m_rt.Get(), m_rateHai.GetBitRate(), m_line);
        }
        ++m_timerStage;
    }
    else
    {
        uint64_t& firing = timer ? m_timerStage : m_byteStage;
        const uint64_t other = timer ? m_byteStage : m_timerStage;
        ++firing;
        if (firing >= m_f && other < m_f)
        {
            m_rt = AddCapped(m_rt.Get(), m_rateAi.GetBitRate(), m_line);
        }
        else if (firing >= m_f)
        {
            const uint64_t i = std::min(m_timerStage, m_byteStage) - m_f + 1;
            const uint64_t hai = m_rateHai.GetBitRate();
            const uint64_t add = (hai == 0 || i <= m_line / hai) ? i * hai : m_line;
            m_rt = AddCapped(m_rt.Get(), add, m_line);
        }
    }
    m_rc = Mid(m_rc.Get(), m_rt.Get());
    if (m_rt.Get() == m_line && Mid(m_rc.Get(), m_line) == m_rc.Get())
    {
        // R_T at line rate and R_C a fixed point of the midpoint (line rate itself when
        // rounding up): no increase event changes a rate; the timer stops until the next cut.
        m_increaseOn = false;
        m_increaseEvent.Cancel();
    }
}

uint64_t
Dcqcn::Mid(uint64_t rc, uint64_t rt) const
{
    if (m_midpoint == TRUNCATED_HALVES)
    {
        return rc / 2 + rt / 2;
    }
    return rc / 2 + rt / 2 + ((rc % 2) + (rt % 2) + 1) / 2;
}

void
Dcqcn::NotifyCnp()
{
    NS_LOG_FUNCTION(this);
    if (!m_running)
    {
        return;
    }
    CatchUp();
    if (m_variant == PAPER)
    {
        Cut();
        return;
    }
    const Time now = Simulator::Now();
    if (!m_seenCnp)
    {
        m_seenCnp = true;
        m_alpha = m_initialAlpha;
        m_alphaRef = now;
        m_alphaUpdates = 0;
        m_alphaCnp = false;
        m_rc = static_cast<uint64_t>(static_cast<double>(m_rc.Get()) * m_rateOnFirstCnp);
        m_rt = m_rc.Get();
        m_decreaseCnp = true;
        m_decreaseAt = now + m_decreaseInterval + NanoSeconds(1);
        m_decreaseEvent = ScheduleAt(m_decreaseAt);
        return;
    }
    AdvanceAlpha();
    m_alphaCnp = true;
    if (!m_decreaseCnp)
    {
        // The decrease checks fall at first CNP + 1 ns + m t_dec (m >= 1); this CNP belongs
        // to the window that ends at the first check after now.
        const int64_t step = m_decreaseInterval.GetTimeStep();
        const Time first = m_alphaRef + NanoSeconds(1);
        const int64_t m = std::max<int64_t>(1, FloorDiv((now - first).GetTimeStep(), step) + 1);
        m_decreaseCnp = true;
        m_decreaseAt = first + m_decreaseInterval * m;
        m_decreaseEvent = ScheduleAt(m_decreaseAt);
    }
}

void
Dcqcn::NotifyBytesSent(uint32_t bytes)
{
    if (!m_running || m_variant != PAPER || m_byteCounter == 0)
    {
        return;
    }
    CatchUp();
    m_bytes += bytes;
    while (m_bytes >= m_byteCounter)
    {
        m_bytes -= m_byteCounter;
        Increase(false);
    }
}

void
Dcqcn::Stop()
{
    NS_LOG_FUNCTION(this);
    m_increaseEvent.Cancel();
    m_decreaseEvent.Cancel();
    m_increaseOn = false;
    m_decreaseCnp = false;
    m_running = false;
}

} // namespace ns3
