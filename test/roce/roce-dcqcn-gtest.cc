/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DCQCN's reaction point (Dcqcn), the DCQCN paper, section 3: scripted CNPs and
// byte counts into an isolated RP, R_C / R_T / α against values worked out by hand below;
// the event-light timers against an independent brute-force reference (a periodic-timer
// simulation of the equations stepping 1 ns at a time); no events without CNP, and none
// once the rate is back at line rate; profiles; bad attributes refused with one line.
// Negative controls: AlphaBeforeCut flipped and a perturbed reference both disagree.
// Tests: roce-dcqcn

#include "../suite-error-of.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/roce-dcqcn.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t G100 = 100000000000ULL; // 100 Gb/s in bps

/// What the script feeds the RP, and when the test reads it (times in ns).
struct Script
{
    std::vector<int64_t> cnps;                       //!< CNP times
    std::vector<std::pair<int64_t, uint32_t>> bytes; //!< (time, bytes sent)
    std::vector<int64_t> queries;                    //!< read times
    int64_t end = 0;                                 //!< stop time (0: run until empty)
};

/// One reading of the RP.
struct Sample
{
    uint64_t rc;  //!< R_C (bps)
    uint64_t rt;  //!< R_T (bps)
    double alpha; //!< α
};

/// Run `rp` at line rate `line` through `script` in the ns-3 simulator.
std::vector<Sample>
RunModel(Ptr<Dcqcn> rp, uint64_t line, const Script& script)
{
    std::vector<Sample> out;
    rp->Start(DataRate(line));
    for (int64_t t : script.cnps)
    {
        Simulator::Schedule(NanoSeconds(t), &Dcqcn::NotifyCnp, rp);
    }
    for (const auto& [t, b] : script.bytes)
    {
        Simulator::Schedule(NanoSeconds(t), &Dcqcn::NotifyBytesSent, rp, b);
    }
    for (int64_t t : script.queries)
    {
        Simulator::Schedule(NanoSeconds(t), [rp, &out]() {
            out.push_back(
                {rp->GetRate().GetBitRate(), rp->GetTargetRate().GetBitRate(), rp->GetAlpha()});
        });
    }
    if (script.end > 0)
    {
        Simulator::Stop(NanoSeconds(script.end));
    }
    Simulator::Run();
    rp->Stop();
    Simulator::Destroy();
    return out;
}

/// Parameters of the reference (ns; rates in bps).
struct RefParams
{
    bool mellanox = false;
    double g = 0.5;
    int64_t alphaInterval = 100000;
    int64_t decreaseInterval = 20000;
    int64_t increaseInterval = 50000;
    uint64_t byteCounter = 0;
    uint64_t f = 2;
    uint64_t ai = 1000000000;
    uint64_t hai = 2000000000;
    uint64_t minRate = 1000000000;
    double alpha0 = 1.0;
    bool clamp = true;
    bool alphaBeforeCut = false;
    bool divide8 = false;
    bool truncate = false; // HPCC's truncated halves for the midpoint
};

/// A Dcqcn with the reference's parameters.
Ptr<Dcqcn>
MakeRp(const RefParams& p, bool bitExact = false)
{
    auto rp = CreateObject<Dcqcn>();
    rp->SetAttribute("Variant", EnumValue(p.mellanox ? Dcqcn::MELLANOX : Dcqcn::PAPER));
    rp->SetAttribute("G", DoubleValue(p.g));
    rp->SetAttribute("AlphaInterval", TimeValue(NanoSeconds(p.alphaInterval)));
    rp->SetAttribute("RateDecreaseInterval", TimeValue(NanoSeconds(p.decreaseInterval)));
    rp->SetAttribute("IncreaseTimer", TimeValue(NanoSeconds(p.increaseInterval)));
    rp->SetAttribute("ByteCounter", UintegerValue(p.byteCounter));
    rp->SetAttribute("F", UintegerValue(p.f));
    rp->SetAttribute("RateAI", DataRateValue(DataRate(p.ai)));
    rp->SetAttribute("RateHAI", DataRateValue(DataRate(p.hai)));
    rp->SetAttribute("MinRate", DataRateValue(DataRate(p.minRate)));
    rp->SetAttribute("InitialAlpha", DoubleValue(p.alpha0));
    rp->SetAttribute("ClampTargetRate", BooleanValue(p.clamp));
    rp->SetAttribute("AlphaBeforeCut", BooleanValue(p.alphaBeforeCut));
    rp->SetAttribute("TargetDivideBy8", BooleanValue(p.divide8));
    rp->SetAttribute("BitExactAlpha", BooleanValue(bitExact));
    rp->SetAttribute("Midpoint", EnumValue(p.truncate ? Dcqcn::TRUNCATED_HALVES : Dcqcn::ROUND_UP));
    return rp;
}

/**
 * The brute-force reference: the DCQCN paper's reaction-point equations with every timer
 * periodic, stepped 1 ns at a time. Written apart from the model: no lazy α, no stopped
 * timers. At one instant: α timer, increase timer, decrease check, then the CNP, then the
 * bytes, then the reading.
 */
class PeriodicReference
{
  public:
    PeriodicReference(const RefParams& p, uint64_t line)
        : m_p(p),
          m_line(line),
          m_rc(line),
          m_rt(line),
          m_alpha(p.alpha0)
    {
        if (!p.mellanox)
        {
            // Paper: both timers run from the start (at line rate they change no rate).
            m_alphaNext = p.alphaInterval;
            m_incNext = p.increaseInterval;
        }
    }

    std::vector<Sample> Run(const Script& s, int64_t end)
    {
        std::map<int64_t, int> cnps;
        for (int64_t t : s.cnps)
        {
            ++cnps[t];
        }
        std::map<int64_t, std::vector<uint32_t>> bytes;
        for (const auto& [t, b] : s.bytes)
        {
            bytes[t].push_back(b);
        }
        std::vector<int64_t> queries = s.queries;
        std::sort(queries.begin(), queries.end());
        std::vector<Sample> out;
        size_t q = 0;
        for (int64_t t = 0; t <= end; ++t)
        {
            if (m_alphaNext >= 0 && t == m_alphaNext)
            {
                if (m_p.mellanox)
                {
                    m_alpha = m_cnpForAlpha ? (1 - m_p.g) * m_alpha + m_p.g : (1 - m_p.g) * m_alpha;
                    m_cnpForAlpha = false;
                }
                else
                {
                    m_alpha = (1 - m_p.g) * m_alpha;
                }
                m_alphaNext += m_p.alphaInterval;
            }
            if (m_incNext >= 0 && t == m_incNext)
            {
                IncreaseTimer();
                m_incNext += m_p.increaseInterval;
            }
            if (m_decNext >= 0 && t == m_decNext)
            {
                if (m_cnpForDecrease)
                {
                    if (m_p.clamp || m_stage != 0)
                    {
                        m_rt = m_rc;
                    }
                    CutRc();
                    m_stage = 0;
                    m_cnpForDecrease = false;
                    m_incNext = t + m_p.increaseInterval;
                    m_first = true;
                }
                m_decNext += m_p.decreaseInterval;
            }
            for (auto it = cnps.find(t); it != cnps.end() && it->first == t && it->second > 0;
                 --it->second)
            {
                Cnp(t);
            }
            auto b = bytes.find(t);
            if (b != bytes.end())
            {
                for (uint32_t n : b->second)
                {
                    Bytes(n);
                }
            }
            while (q < queries.size() && queries[q] == t)
            {
                out.push_back({m_rc, m_rt, m_alpha});
                ++q;
            }
        }
        return out;
    }

  private:
    void CutRc()
    {
        uint64_t cut = static_cast<uint64_t>(static_cast<double>(m_rc) * (1.0 - m_alpha / 2));
        m_rc = cut < m_p.minRate ? m_p.minRate : cut;
    }

    void Cnp(int64_t t)
    {
        if (m_p.mellanox)
        {
            if (!m_seen)
            {
                m_seen = true;
                m_alpha = m_p.alpha0;
                m_cnpForAlpha = false;
                m_cnpForDecrease = true;
                m_alphaNext = t + m_p.alphaInterval;
                m_decNext = t + m_p.decreaseInterval + 1;
                return;
            }
            m_cnpForAlpha = true;
            m_cnpForDecrease = true;
            return;
        }
        if (m_p.alphaBeforeCut)
        {
            m_alpha = (1 - m_p.g) * m_alpha + m_p.g;
        }
        if (m_p.clamp || m_iT > 0 || m_iB > 0)
        {
            m_rt = m_rc;
        }
        CutRc();
        if (!m_p.alphaBeforeCut)
        {
            m_alpha = (1 - m_p.g) * m_alpha + m_p.g;
        }
        m_iT = 0;
        m_iB = 0;
        m_byteCount = 0;
        m_first = true;
        m_alphaNext = t + m_p.alphaInterval;
        m_incNext = t + m_p.increaseInterval;
    }

    void Bytes(uint32_t n)
    {
        if (m_p.mellanox || m_p.byteCounter == 0)
        {
            return;
        }
        m_byteCount += n;
        while (m_byteCount >= m_p.byteCounter)
        {
            m_byteCount -= m_p.byteCounter;
            ++m_iB;
            PaperStep(m_iB, m_iT);
        }
    }

    void Raise(uint64_t add)
    {
        m_rt = std::min(m_line, m_rt + add);
    }

    void Average()
    {
        if (m_p.truncate)
        {
            m_rc = m_rc / 2 + m_rt / 2;
        }
        else
        {
            uint64_t sum = m_rc + m_rt; // < 2^64 for the rates used here
            m_rc = sum / 2 + sum % 2;
        }
        m_rc = std::min(m_rc, m_line);
    }

    void Divide8()
    {
        if (m_first && m_p.divide8 && m_rt > 10 * m_rc)
        {
            m_rt /= 8;
        }
        m_first = false;
    }

    void PaperStep(uint64_t firing, uint64_t other)
    {
        Divide8();
        if (firing < m_p.f)
        {
        }
        else if (other < m_p.f)
        {
            Raise(m_p.ai);
        }
        else
        {
            Raise((std::min(m_iT, m_iB) - m_p.f + 1) * m_p.hai);
        }
        Average();
    }

    void IncreaseTimer()
    {
        if (!m_p.mellanox)
        {
            ++m_iT;
            PaperStep(m_iT, m_iB);
            return;
        }
        Divide8();
        if (m_stage == m_p.f)
        {
            Raise(m_p.ai);
        }
        else if (m_stage > m_p.f)
        {
            Raise(m_p.hai);
        }
        Average();
        ++m_stage;
    }

    RefParams m_p;
    uint64_t m_line;
    uint64_t m_rc;
    uint64_t m_rt;
    double m_alpha;
    int64_t m_alphaNext = -1;
    int64_t m_incNext = -1;
    int64_t m_decNext = -1;
    bool m_seen = false;
    bool m_cnpForAlpha = false;
    bool m_cnpForDecrease = false;
    bool m_first = false;
    uint64_t m_stage = 0;
    uint64_t m_iT = 0;
    uint64_t m_iB = 0;
    uint64_t m_byteCount = 0;
};

/// \return true when the two α agree within 1e-12 relative
bool
AlphaClose(double a, double b)
{
    return std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
}

// ---------------------------------------------------------------- hand-evaluated (V0) ---

/// The paper parameters of the hand test: 100 Gb/s, g = 1/2, K = 100 us, T = 50 us, F = 2,
/// R_AI = 1 Gb/s, no byte counter, clamp on.
RefParams
PaperHand()
{
    return RefParams{};
}

/// CNPs at 10, 30 and 150 us; readings 3 ns after each change.
Script
PaperHandScript()
{
    Script s;
    s.cnps = {10000, 30000, 150000};
    s.queries = {10003, 30003, 80003, 130003, 150003, 200003, 250003, 300003, 350003};
    s.end = 360000;
    return s;
}

TEST(RoceDcqcn, PaperMatchesHandEvaluatedEquations)
{
    auto got = RunModel(MakeRp(PaperHand()), G100, PaperHandScript());
    // {R_C, R_T, α} by hand (the DCQCN paper's reaction-point equations):
    std::vector<Sample> want = {
        // 10 us CNP: α = 1 (no K window yet). R_T <- 100G; R_C <- 100G (1 - 1/2) = 50G;
        // α <- (1 - 1/2) 1 + 1/2 = 1.
        {50000000000, 100000000000, 1.0},
        // 30 us CNP: R_T <- 50G; R_C <- 25G; α = 1. The timer restarts: next at 80 us.
        {25000000000, 50000000000, 1.0},
        // 80 us timer, i_T = 1 < F: fast recovery R_C <- (50G + 25G)/2 = 37.5G.
        {37500000000, 50000000000, 1.0},
        // 130 us timer, i_T = 2 >= F, i_B = 0 < F: additive R_T <- 51G,
        // R_C <- (51G + 37.5G)/2 = 44.25G. α: K = 100 us without CNP since 30 us: 1/2.
        {44250000000, 51000000000, 0.5},
        // 150 us CNP: R_T <- 44.25G; R_C <- 44.25G (1 - 0.5/2) = 33.1875G;
        // α <- 0.5 * 0.5 + 0.5 = 0.75.
        {33187500000, 44250000000, 0.75},
        // 200 us, i_T = 1: R_C <- (44.25G + 33.1875G)/2 = 38.71875G.
        {38718750000, 44250000000, 0.75},
        // 250 us, i_T = 2: R_T <- 45.25G, R_C <- (45.25G + 38.71875G)/2 = 41.984375G;
        // α at 250 us (K after 150 us): 0.375.
        {41984375000, 45250000000, 0.375},
        // 300 us, i_T = 3: R_T <- 46.25G, R_C <- (46.25G + 41.984375G)/2 = 44.1171875G.
        {44117187500, 46250000000, 0.375},
        // 350 us, i_T = 4: R_T <- 47.25G, R_C <- (47.25G + 44.1171875G)/2 = 45.68359375G;
        // α at 350 us: 0.1875.
        {45683593750, 47250000000, 0.1875},
    };
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
    {
        EXPECT_EQ(got[i].rc, want[i].rc) << "reading " << i;
        EXPECT_EQ(got[i].rt, want[i].rt) << "reading " << i;
        EXPECT_TRUE(AlphaClose(got[i].alpha, want[i].alpha))
            << "reading " << i << ": " << got[i].alpha << " vs " << want[i].alpha;
    }

    // Negative control: α updated before the cut gives another R_C at the third CNP:
    // α <- 0.75 first, R_C <- 44.25G (1 - 0.375) = 27.65625G.
    RefParams flipped = PaperHand();
    flipped.alphaBeforeCut = true;
    auto other = RunModel(MakeRp(flipped), G100, PaperHandScript());
    ASSERT_EQ(other.size(), want.size());
    EXPECT_EQ(other[0].rc, want[0].rc); // α = 1 either way at the first two CNPs
    EXPECT_EQ(other[4].rc, 27656250000ULL);
    EXPECT_NE(other[4].rc, want[4].rc);
}

TEST(RoceDcqcn, PaperByteCounterAndHyperIncrease)
{
    RefParams p;
    p.alphaInterval = 1000000; // 1 ms: no α decay in this script
    p.increaseInterval = 100000;
    p.f = 1;
    p.hai = 3000000000;
    p.byteCounter = 1000000;
    Script s;
    s.cnps = {10000, 20000};
    s.bytes = {{30000, 1000000}, {130000, 2000000}, {140000, 600000}, {150000, 400000}};
    s.queries = {20003, 30003, 120003, 130003, 140003, 150003, 220003};
    s.end = 230000;
    auto got = RunModel(MakeRp(p), G100, s);
    std::vector<std::pair<uint64_t, uint64_t>> want = {
        // two CNPs with α = 1: R_T = 50G, R_C = 25G
        {25000000000, 50000000000},
        // 30 us, B bytes: i_B = 1 >= F = 1, i_T = 0 < F: additive R_T = 51G,
        // R_C = (51G + 25G)/2 = 38G
        {38000000000, 51000000000},
        // 120 us timer: i_T = 1, both >= F: hyper, i = min(1, 1) - 1 + 1 = 1: R_T = 54G,
        // R_C = (54G + 38G)/2 = 46G
        {46000000000, 54000000000},
        // 130 us, 2 B in one call: i_B = 2 (i = 1): R_T = 57G, R_C = 51.5G; i_B = 3 (i = 1):
        // R_T = 60G, R_C = (60G + 51.5G)/2 = 55.75G
        {55750000000, 60000000000},
        // 140 us, 0.6 B: no event
        {55750000000, 60000000000},
        // 150 us, 0.4 B more: i_B = 4 (i = min(1, 4) = 1): R_T = 63G, R_C = 59.375G
        {59375000000, 63000000000},
        // 220 us timer: i_T = 2, i = min(2, 4) = 2: R_T = 63G + 2 * 3G = 69G,
        // R_C = (69G + 59.375G)/2 = 64.1875G
        {64187500000, 69000000000},
    };
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
    {
        EXPECT_EQ(got[i].rc, want[i].first) << "reading " << i;
        EXPECT_EQ(got[i].rt, want[i].second) << "reading " << i;
    }
}

TEST(RoceDcqcn, PaperTargetDivideBy8)
{
    RefParams p;
    p.clamp = false; // R_T stays at 100G over cuts without an increase between them
    Script s;
    s.cnps = {1000, 2000, 3000, 4000};
    s.queries = {4003, 54003};
    s.end = 60000;
    // Four cuts at α = 1: R_C = 100G / 16 = 6.25G, R_T = 100G > 10 R_C.
    auto with = RunModel(
        [&] {
            auto rp = MakeRp(p);
            rp->SetAttribute("TargetDivideBy8", BooleanValue(true));
            return rp;
        }(),
        G100,
        s);
    ASSERT_EQ(with.size(), 2U);
    EXPECT_EQ(with[0].rc, 6250000000ULL);
    EXPECT_EQ(with[0].rt, G100);
    // 54 us, first increase: R_T <- 100G / 8 = 12.5G, R_C <- (12.5G + 6.25G)/2 = 9.375G.
    EXPECT_EQ(with[1].rt, 12500000000ULL);
    EXPECT_EQ(with[1].rc, 9375000000ULL);
    // Negative control: without the option, R_C <- (100G + 6.25G)/2 = 53.125G.
    auto without = RunModel(MakeRp(p), G100, s);
    EXPECT_EQ(without[1].rc, 53125000000ULL);
}

/// The Mellanox parameters of the hand test: 100 Gb/s, g = 1/2, t_α = 10 us, t_dec = 20 us,
/// T = 50 us, F = 1, R_AI = 1 Gb/s, R_HAI = 4 Gb/s, clamp off.
RefParams
MellanoxHand()
{
    RefParams p;
    p.mellanox = true;
    p.alphaInterval = 10000;
    p.decreaseInterval = 20000;
    p.increaseInterval = 50000;
    p.f = 1;
    p.hai = 4000000000;
    p.clamp = false;
    return p;
}

TEST(RoceDcqcn, MellanoxMatchesHandEvaluatedEquations)
{
    Script s;
    s.cnps = {100000, 125000, 250000};
    s.queries = {
        50003,
        100003,
        115003,
        120003,
        120004,
        135003,
        140004,
        190004,
        240004,
        260004,
        310004,
        360004,
    };
    s.end = 370000;
    auto got = RunModel(MakeRp(MellanoxHand()), G100, s);
    std::vector<Sample> want = {
        // 50 us: no CNP yet, line rate; α = InitialAlpha.
        {G100, G100, 1.0},
        // 100 us first CNP: α = 1, R_C = R_T = 1.0 R_C; nothing cut yet. Timers: α at
        // 110, 120, ... us; decrease check at 120.001, 140.001, ... us.
        {G100, G100, 1.0},
        // 115 us: α update at 110 us, the first CNP does not count: α = 1/2.
        {G100, G100, 0.5},
        // 120.003 us: α = 1/4 at 120 us; the check at 120.001 us (the first CNP is in its
        // window), stage 0 and no clamp so R_T stays 100G: R_C = 100G (1 - 1/8) = 87.5G.
        {87500000000, G100, 0.25},
        {87500000000, G100, 0.25},
        // 135 us: CNP at 125 us: α at 130 us = 0.25/2 + 0.5 = 0.625.
        {87500000000, G100, 0.625},
        // 140.004 us: α at 140 us = 0.3125; check at 140.001 us: R_C = 87.5G (1 - 0.15625)
        // = 73.828125G, stage 0 (no clamp); the increase timer restarts: 190.001 us.
        {73828125000, G100, 0.3125},
        // 190.001 us, stage 0 < F: R_C = (100G + 73.828125G)/2 = 86.9140625G; α = 0.3125/2^5.
        {86914062500, G100, 0.3125 / 32},
        // 240.001 us, stage 1 = F: R_T = min(101G, 100G); R_C = 93.45703125G; α/2^10.
        {93457031250, G100, 0.3125 / 1024},
        // 260.004 us: CNP at 250 us lies in the α window (250, 260] (the update at 250 us
        // comes first: α = 0.3125/2^11 = 5/32768) and in the decrease window ending at
        // 260.001 us. α(260) = 5/65536 + 1/2 = 32773/65536. Stage 2 != 0: R_T <- R_C =
        // 93457031250; R_C = floor(93457031250 (1 - 32773/131072)) = floor(70089208334.684)
        // = 70089208334.
        {70089208334, 93457031250, 32773.0 / 65536},
        // 310.001 us, stage 0: R_C = (93457031250 + 70089208334)/2 = 81773119792;
        // α = 32773/65536 / 2^5.
        {81773119792, 93457031250, 32773.0 / 65536 / 32},
        // 360.001 us, stage 1 = F: R_T = 94457031250, R_C = (94457031250 + 81773119792)/2
        // = 88115075521.
        {88115075521, 94457031250, 32773.0 / 65536 / 1024},
    };
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
    {
        EXPECT_EQ(got[i].rc, want[i].rc) << "reading " << i;
        EXPECT_EQ(got[i].rt, want[i].rt) << "reading " << i;
        EXPECT_TRUE(AlphaClose(got[i].alpha, want[i].alpha))
            << "reading " << i << ": " << got[i].alpha << " vs " << want[i].alpha;
    }
    // Negative control: with ClampTargetRate the first check also sets R_T <- R_C (100G, no
    // visible change) but the second sets R_T <- 87.5G.
    RefParams clamped = MellanoxHand();
    clamped.clamp = true;
    auto other = RunModel(MakeRp(clamped), G100, s);
    EXPECT_EQ(other[6].rt, 87500000000ULL);
    EXPECT_NE(other[6].rt, want[6].rt);
}

/// Trace sink: keep the new value. \param v where \param now the new value
template <typename T>
void
Record(std::vector<T>* v, T, T now)
{
    v->push_back(now);
}

TEST(RoceDcqcn, TracesFollowTheRates)
{
    auto rp = MakeRp(PaperHand());
    std::vector<uint64_t> rc;
    std::vector<uint64_t> rt;
    std::vector<double> alpha;
    rp->TraceConnectWithoutContext("CurrentRate", MakeBoundCallback(&Record<uint64_t>, &rc));
    rp->TraceConnectWithoutContext("TargetRate", MakeBoundCallback(&Record<uint64_t>, &rt));
    rp->TraceConnectWithoutContext("Alpha", MakeBoundCallback(&Record<double>, &alpha));
    Script s = PaperHandScript();
    s.queries.clear();
    s.end = 310000;
    RunModel(rp, G100, s);
    // R_C changes (Start at 100G is not a change from the default 0 after the first Start).
    std::vector<uint64_t> wantRc = {G100,
                                    50000000000,
                                    25000000000,
                                    37500000000,
                                    44250000000,
                                    33187500000,
                                    38718750000,
                                    41984375000,
                                    44117187500};
    EXPECT_EQ(rc, wantRc);
    std::vector<uint64_t> wantRt =
        {G100, 50000000000, 51000000000, 44250000000, 45250000000, 46250000000};
    EXPECT_EQ(rt, wantRt);
    // α: InitialAlpha at Start, decayed to 0.5 and raised to 0.75 at the third CNP.
    ASSERT_GE(alpha.size(), 2U);
    EXPECT_DOUBLE_EQ(alpha.back(), 0.75);
}

// ------------------------------------- event economy (event-free DCQCN timers) ---------

TEST(RoceDcqcn, NoCnpNoEventLineRate)
{
    for (bool mellanox : {false, true})
    {
        RefParams p = mellanox ? MellanoxHand() : PaperHand();
        if (!mellanox)
        {
            p.byteCounter = 1000; // the byte counter fires, yet changes nothing at line rate
        }
        auto rp = MakeRp(p);
        rp->Start(DataRate(G100));
        EXPECT_TRUE(Simulator::IsFinished()) << "Start scheduled an event";
        for (int i = 1; i <= 100; ++i)
        {
            Simulator::Schedule(MicroSeconds(int64_t{10} * i), &Dcqcn::NotifyBytesSent, rp, 4096);
        }
        Simulator::Run();
        // The 100 scripted calls are the only events: the RP scheduled none.
        EXPECT_EQ(Simulator::GetEventCount(), 100U) << (mellanox ? "Mellanox" : "Paper");
        EXPECT_EQ(rp->GetRate().GetBitRate(), G100);
        EXPECT_EQ(rp->GetTargetRate().GetBitRate(), G100);
        EXPECT_TRUE(Simulator::IsFinished());
        Simulator::Destroy();
    }
}

TEST(RoceDcqcn, TimersStopBackAtLineRate)
{
    for (bool mellanox : {false, true})
    {
        RefParams p = mellanox ? MellanoxHand() : PaperHand();
        auto rp = MakeRp(p);
        rp->Start(DataRate(G100));
        Simulator::Schedule(MicroSeconds(100), &Dcqcn::NotifyCnp, rp);
        Simulator::Schedule(MicroSeconds(125), &Dcqcn::NotifyCnp, rp);
        Simulator::Run(); // no Stop: returns only once the RP has no timer left
        const int64_t stopped = Simulator::Now().GetNanoSeconds();
        const uint64_t events = Simulator::GetEventCount();
        EXPECT_EQ(rp->GetRate().GetBitRate(), G100);
        EXPECT_EQ(rp->GetTargetRate().GetBitRate(), G100);
        Simulator::Destroy();
        // The reference reaches line rate (R_C = R_T = 100G) exactly when the model's last
        // event ran, and stays there.
        Script s;
        s.cnps = {100000, 125000};
        PeriodicReference ref(p, G100);
        for (int64_t t = 0; t <= stopped + 10 * p.increaseInterval; t += 1000)
        {
            s.queries.push_back(t);
        }
        s.queries.push_back(stopped - 1);
        s.queries.push_back(stopped);
        std::sort(s.queries.begin(), s.queries.end());
        s.queries.erase(std::unique(s.queries.begin(), s.queries.end()), s.queries.end());
        auto samples = ref.Run(s, s.queries.back());
        size_t before =
            std::find(s.queries.begin(), s.queries.end(), stopped - 1) - s.queries.begin();
        EXPECT_FALSE(samples[before].rc == G100 && samples[before].rt == G100);
        for (size_t i = before + 1; i < samples.size(); ++i)
        {
            EXPECT_EQ(samples[i].rc, G100) << "at " << s.queries[i] << " stopped " << stopped;
            EXPECT_EQ(samples[i].rt, G100) << "at " << s.queries[i];
        }
        // Two CNPs and one event per increase (plus the Mellanox decrease checks).
        std::cout << (mellanox ? "Mellanox" : "Paper") << ": line rate again at "
                  << stopped / 1000.0 << " us after " << events << " events" << std::endl;
        EXPECT_LT(events, 2U + (stopped - 100000) / p.increaseInterval + 8);
    }
}

TEST(RoceDcqcn, TruncatedHalvesStopOneBelowLineRate)
{
    // HPCC's midpoint floor(R_C/2) + floor(R_T/2) leaves R_C at line - 1 for ever (the gap
    // d becomes ceil(d/2), and ceil(1/2) = 1): the timer stops there.
    RefParams p = MellanoxHand();
    p.truncate = true;
    auto rp = MakeRp(p);
    rp->Start(DataRate(G100));
    Simulator::Schedule(MicroSeconds(100), &Dcqcn::NotifyCnp, rp);
    Simulator::Schedule(MicroSeconds(125), &Dcqcn::NotifyCnp, rp);
    Simulator::Run();
    const int64_t stopped = Simulator::Now().GetNanoSeconds();
    EXPECT_EQ(rp->GetRate().GetBitRate(), G100 - 1);
    EXPECT_EQ(rp->GetTargetRate().GetBitRate(), G100);
    Simulator::Destroy();
    Script s;
    s.cnps = {100000, 125000};
    s.queries = {stopped - 1, stopped, stopped + 100 * p.increaseInterval};
    auto samples = PeriodicReference(p, G100).Run(s, s.queries.back());
    EXPECT_NE(samples[0].rc, G100 - 1);
    EXPECT_EQ(samples[1].rc, G100 - 1);
    EXPECT_EQ(samples[2].rc, G100 - 1);
    EXPECT_EQ(samples[2].rt, G100);
}

// -------------------------------------- against the brute-force periodic reference -----

/// A random script: bursts of CNPs on a 1 us grid (half of them 1 ns late, to tie with the
/// Mellanox checks), byte counts at 5 mod 10 ns, readings at 3 mod 10 ns every 700 ns.
Script
RandomScript(uint32_t seed, int64_t end)
{
    std::mt19937_64 rng(seed);
    Script s;
    s.end = end;
    int64_t t = 20000 + static_cast<int64_t>(rng() % 50) * 1000;
    while (t < end * 2 / 3)
    {
        s.cnps.push_back(t + static_cast<int64_t>(rng() % 2));
        // mostly a few us apart, sometimes a quiet spell long enough to recover
        t += static_cast<int64_t>(rng() % 6 == 0 ? 200 + rng() % 800 : 1 + rng() % 8) * 1000;
    }
    for (int64_t b = 5; b < end; b += 10000 + static_cast<int64_t>(rng() % 100) * 10)
    {
        s.bytes.emplace_back(b, static_cast<uint32_t>(1000 + rng() % 9000));
    }
    for (int64_t q = 3; q < end; q += 700)
    {
        s.queries.push_back(q);
    }
    return s;
}

/// Reference parameter sets: hand-like and profile-like (HPCC's T a multiple of t_dec, so
/// increases tie with checks), shortened so runs stay small.
std::vector<RefParams>
ReferenceParameterSets()
{
    std::vector<RefParams> sets;
    RefParams paper;
    paper.g = 1.0 / 16;
    paper.alphaInterval = 55000;
    paper.increaseInterval = 55000;
    paper.byteCounter = 20000;
    paper.f = 5;
    paper.ai = 40000000;
    paper.hai = 200000000;
    paper.minRate = 100000000;
    sets.push_back(paper);
    paper.clamp = false;
    paper.alphaBeforeCut = true;
    paper.divide8 = true;
    paper.f = 1;
    paper.increaseInterval = 20000;
    paper.truncate = true;
    sets.push_back(paper);
    RefParams mlx;
    mlx.mellanox = true;
    mlx.g = 1.0 / 256;
    mlx.alphaInterval = 1000;
    mlx.decreaseInterval = 4000;
    mlx.increaseInterval = 40000;
    mlx.f = 1;
    mlx.ai = 20000000;
    mlx.hai = 200000000;
    mlx.minRate = 1000000000;
    mlx.clamp = false;
    mlx.truncate = true;
    sets.push_back(mlx);
    mlx.truncate = false;
    mlx.clamp = true;
    mlx.f = 3;
    mlx.g = 1.0 / 16;
    mlx.ai = 1000000000;
    mlx.hai = 5000000000;
    mlx.divide8 = true;
    mlx.alpha0 = 0.5;
    sets.push_back(mlx);
    return sets;
}

/// Compare the model with the reference on `seeds` random scripts. \return the number of
/// readings that differ (rates exactly, α within 1e-12 relative; with `bitExact` α exactly)
uint64_t
Mismatches(const RefParams& model,
           const RefParams& reference,
           bool bitExact,
           uint32_t seeds,
           uint64_t line = G100)
{
    uint64_t bad = 0;
    for (uint32_t seed = 1; seed <= seeds; ++seed)
    {
        const int64_t end = 3000000; // 3 ms
        Script s = RandomScript(seed, end);
        auto got = RunModel(MakeRp(model, bitExact), line, s);
        PeriodicReference ref(reference, line);
        auto want = ref.Run(s, end);
        if (got.size() != want.size())
        {
            return ~uint64_t{0};
        }
        for (size_t i = 0; i < got.size(); ++i)
        {
            bool same = got[i].rc == want[i].rc && got[i].rt == want[i].rt &&
                        (bitExact ? got[i].alpha == want[i].alpha
                                  : AlphaClose(got[i].alpha, want[i].alpha));
            bad += same ? 0 : 1;
        }
    }
    return bad;
}

TEST(RoceDcqcn, EventLightEqualsPeriodicTimersBitExact)
{
    for (const auto& p : ReferenceParameterSets())
    {
        EXPECT_EQ(Mismatches(p, p, true, 6), 0U)
            << (p.mellanox ? "Mellanox" : "Paper") << " F=" << p.f << " clamp=" << p.clamp;
    }
}

TEST(RoceDcqcn, EventLightEqualsPeriodicTimersClosedForm)
{
    // α by (1 - g)^k: rates still identical and α within 1e-12 on these scripts.
    for (const auto& p : ReferenceParameterSets())
    {
        EXPECT_EQ(Mismatches(p, p, false, 6), 0U)
            << (p.mellanox ? "Mellanox" : "Paper") << " F=" << p.f << " clamp=" << p.clamp;
    }
}

TEST(RoceDcqcn, EventLightEqualsPeriodicTimersOddLineRate)
{
    // An odd line rate: with truncated halves line rate is no fixed point of the midpoint
    // (the paper timer then runs from Start); with rounding up it is.
    for (auto p : ReferenceParameterSets())
    {
        EXPECT_EQ(Mismatches(p, p, true, 2, G100 + 1), 0U)
            << (p.mellanox ? "Mellanox" : "Paper") << " F=" << p.f << " truncate=" << p.truncate;
    }
}

TEST(RoceDcqcn, PerturbedReferenceDisagrees)
{
    // Negative controls: the comparison notices one parameter changed in the reference.
    for (const auto& p : ReferenceParameterSets())
    {
        RefParams timer = p;
        timer.increaseInterval += 1000;
        EXPECT_GT(Mismatches(p, timer, true, 1), 0U) << "IncreaseTimer + 1 us";
        RefParams gain = p;
        gain.g *= 1.01;
        EXPECT_GT(Mismatches(p, gain, true, 1), 0U) << "G * 1.01";
        RefParams alphaWindow = p;
        alphaWindow.alphaInterval += 1;
        EXPECT_GT(Mismatches(p, alphaWindow, true, 1), 0U) << "AlphaInterval + 1 ns";
        RefParams rounding = p;
        rounding.truncate = !p.truncate;
        EXPECT_GT(Mismatches(p, rounding, true, 1), 0U) << "Midpoint rounding";
    }
}

// ------------------------------------------------------------- profiles, bad input ------

TEST(RoceDcqcn, Profiles)
{
    auto hpcc = Dcqcn::GetProfile("hpcc", DataRate(G100));
    std::map<std::string, std::string> h(hpcc.begin(), hpcc.end());
    EXPECT_EQ(h["RateAI"], "20000000bps");   // 5 * 100 / 25 Mb/s
    EXPECT_EQ(h["RateHAI"], "200000000bps"); // 50 * 100 / 25 Mb/s
    EXPECT_EQ(h["IncreaseTimer"], "300us");
    EXPECT_EQ(h["Variant"], "Mellanox");
    for (const std::string name : {"paper", "hpcc", "simai", "nvidia"})
    {
        auto rp = CreateObject<Dcqcn>();
        rp->ApplyProfile(name, DataRate(G100));
        EXPECT_EQ(ErrorOf([&] { rp->Start(DataRate(G100)); }), "") << name;
        rp->Stop();
    }
    auto rp = CreateObject<Dcqcn>();
    rp->ApplyProfile("simai", DataRate(G100));
    DoubleValue g;
    rp->GetAttribute("G", g);
    EXPECT_EQ(g.Get(), 1.0 / 256);
    TimeValue t;
    rp->GetAttribute("IncreaseTimer", t);
    EXPECT_EQ(t.Get(), MicroSeconds(900));
    EXPECT_EQ(ErrorOf<std::invalid_argument>([] { Dcqcn::GetProfile("dcqcn", 1); }),
              "Dcqcn: unknown profile 'dcqcn' (known: paper, hpcc, simai, nvidia)");
}

TEST(RoceDcqcn, BadAttributesRefusedWithOneLine)
{
    struct Case
    {
        std::string attribute;
        Ptr<AttributeValue> value;
        bool mellanox;
        std::string expect;
    };

    std::vector<Case> cases = {
        {"G", Create<DoubleValue>(0.0), false, "ns3::Dcqcn::G=0 must be in (0, 1]"},
        {"G", Create<DoubleValue>(1.5), false, "ns3::Dcqcn::G=1.5 must be in (0, 1]"},
        {"AlphaInterval", Create<TimeValue>(MicroSeconds(-1)), false, "AlphaInterval=-1"},
        {"IncreaseTimer", Create<TimeValue>(Time(0)), false, "IncreaseTimer=+0"},
        {"RateDecreaseInterval", Create<TimeValue>(Time(0)), true, "RateDecreaseInterval=+0"},
        {"F", Create<UintegerValue>(0), false, "ns3::Dcqcn::F=0 must be >= 1"},
        {"MinRate",
         Create<DataRateValue>(DataRate("200Gbps")),
         false,
         "MinRate=200000000000bps must be in (0, line rate 100000000000bps]"},
        {"MinRate", Create<DataRateValue>(DataRate(0)), false, "MinRate=0bps"},
        {"InitialAlpha", Create<DoubleValue>(-0.1), false, "InitialAlpha=-0.1 must be in [0, 1]"},
        {"RateOnFirstCnp", Create<DoubleValue>(0.0), true, "RateOnFirstCnp=0 must be in (0, 1]"},
        {"ByteCounter",
         Create<UintegerValue>(1000),
         true,
         "ByteCounter=1000: the Mellanox variant has no byte counter (set 0)"},
    };
    for (const auto& c : cases)
    {
        RefParams p = c.mellanox ? MellanoxHand() : PaperHand();
        auto rp = MakeRp(p);
        // Negative control: the same object starts before the bad value is set.
        EXPECT_EQ(ErrorOf([&] { rp->Start(DataRate(G100)); }), "") << c.attribute;
        rp->Stop();
        rp->SetAttribute(c.attribute, *c.value);
        std::string message = ErrorOf<std::invalid_argument>([&] { rp->Start(DataRate(G100)); });
        EXPECT_NE(message.find(c.expect), std::string::npos) << c.attribute << ": " << message;
        EXPECT_EQ(message.find('\n'), std::string::npos);
    }
    // The paper variant ignores RateDecreaseInterval and RateOnFirstCnp.
    auto rp = MakeRp(PaperHand());
    rp->SetAttribute("RateDecreaseInterval", TimeValue(Time(0)));
    EXPECT_EQ(ErrorOf([&] { rp->Start(DataRate(G100)); }), "");
    rp->Stop();
    Simulator::Destroy();
}

} // namespace
