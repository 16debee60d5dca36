/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// OCS-vClos without a simulator: circuit bookkeeping (and its refusals), the placement
// stages of the authors' GpuPlacementer.schedule against an independent validator and a
// brute force on small clusters, the validator's negative controls, and a job static vClos
// refuses for network fragmentation that OCS-vClos places.
// Tests: cluster-ocs-placement, cluster-ocs-state
#include "../suite-error-of.h"

#include "ns3/cluster-ocs-placement.h"
#include "ns3/cluster-ocs-state.h"
#include "ns3/cluster-placement.h"
#include "ns3/cluster-state.h"
#include "ns3/cluster-topology.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// Everything observable of a circuit state, to compare before and after a refused request.
std::string
Snapshot(const ClusterOcsState& s)
{
    std::ostringstream os;
    for (uint32_t l = 0; l < s.GetLeaves(); ++l)
    {
        for (uint32_t k = 0; k < s.GetOcsCount(); ++k)
        {
            auto c = s.GetCircuitAtUplink(l, k);
            os << s.GetUplinkOwner(l, k) << ":" << (c ? int64_t(c->peer) : -1) << ","
               << (c ? int64_t(c->peerPort) : -1) << ";";
        }
    }
    for (uint32_t sp = 0; sp < s.GetSpines(); ++sp)
    {
        for (uint32_t q = 0; q < s.GetSpinePorts(); ++q)
        {
            os << s.GetSpinePortOwner(sp, q) << (s.IsSpinePortConnected(sp, q) ? "c" : "") << ";";
        }
        for (uint32_t k = 0; k < s.GetOcsCount(); ++k)
        {
            os << s.GetIdleSpinePorts(sp, k) << ",";
        }
    }
    os << s.GetCircuitCount() << "/" << s.GetJobCount();
    return os.str();
}

/// Odd part of n.
uint32_t
Odd(uint32_t n)
{
    while (n % 2 == 0)
    {
        n /= 2;
    }
    return n;
}

/// Wholly free servers of a leaf (written here again: the test does not trust the policy's).
uint32_t
WholeFree(const ClusterState& cs, uint32_t leaf)
{
    uint32_t c = 0;
    for (uint32_t s = 0; s < cs.GetServersPerLeaf(); ++s)
    {
        bool all = true;
        for (uint32_t k = 0; k < cs.GetGpusPerServer(); ++k)
        {
            all = all && cs.GetGpuOwner(cs.GetGpuId(leaf, s, k)) == ClusterState::NO_JOB;
        }
        c += all ? 1 : 0;
    }
    return c;
}

/// Groups of n GPUs a leaf offers: whole servers when g divides n, else any free GPUs.
uint32_t
Offers(const ClusterState& cs, uint32_t leaf, uint32_t n)
{
    const uint32_t g = cs.GetGpusPerServer();
    uint32_t free = 0;
    for (uint32_t i = 0; i < cs.GetGpusPerLeaf(); ++i)
    {
        free += cs.GetGpuOwner(leaf * cs.GetGpusPerLeaf() + i) == ClusterState::NO_JOB;
    }
    return (n % g == 0 ? WholeFree(cs, leaf) * g : free) / n;
}

/// vClos's single-leaf rule: floor(N/g) wholly free servers plus the rest on one more server.
bool
FitsOneLeaf(const ClusterState& cs, uint32_t leaf, uint32_t n)
{
    const uint32_t g = cs.GetGpusPerServer();
    uint32_t whole = 0;
    bool rest = false;
    for (uint32_t s = 0; s < cs.GetServersPerLeaf(); ++s)
    {
        uint32_t f = 0;
        for (uint32_t k = 0; k < g; ++k)
        {
            f += cs.GetGpuOwner(cs.GetGpuId(leaf, s, k)) == ClusterState::NO_JOB;
        }
        whole += f == g;
        rest = rest || (f < g && f >= n % g);
    }
    return whole >= n / g && (n % g == 0 || rest || whole > n / g);
}

/// Multi-leaf shapes n (GpuPlacementer.schedule stage 4, and n = 1 for stage 3), written
/// independently.
std::vector<uint32_t>
AllowedN(const ClusterState& cs, const ClusterOcsState& os, uint32_t n)
{
    std::vector<uint32_t> out;
    for (uint32_t m = Odd(n); m <= n; m *= 2)
    {
        const uint32_t per = n / m;
        if (m >= 2 && per <= std::min({cs.GetGpusPerLeaf(), os.GetOcsCount(), os.GetSpines()}))
        {
            out.push_back(per);
        }
    }
    return out;
}

/**
 * Brute force: does any valid placement of N GPUs exist (single leaf, leaf pair, or a
 * virtual Clos m x n over circuits with any allowed n, n = 1 included)?
 */
class BruteForce
{
  public:
    BruteForce(const ClusterState& cs, const ClusterOcsState& os)
        : m_cs(cs),
          m_os(os)
    {
    }

    bool Exists(uint32_t n)
    {
        if (m_cs.GetFreeGpus() < n)
        {
            return false;
        }
        const uint32_t L = m_cs.GetLeaves();
        for (uint32_t l = 0; n <= m_cs.GetGpusPerLeaf() && l < L; ++l)
        {
            if (FitsOneLeaf(m_cs, l, n))
            {
                return true;
            }
        }
        if (n % 2 == 0 && n / 2 <= m_cs.GetGpusPerLeaf())
        {
            for (uint32_t a = 0; a < L; ++a)
            {
                for (uint32_t b = a + 1; b < L; ++b)
                {
                    uint32_t common = 0;
                    for (uint32_t k = 0; k < m_os.GetOcsCount(); ++k)
                    {
                        common += m_os.IsUplinkIdle(a, k) && m_os.IsUplinkIdle(b, k);
                    }
                    if (Offers(m_cs, a, n / 2) >= 1 && Offers(m_cs, b, n / 2) >= 1 &&
                        common >= n / 2)
                    {
                        return true;
                    }
                }
            }
        }
        for (uint32_t per : AllowedN(m_cs, m_os, n))
        {
            m_per = per;
            m_v.assign(L, 0);
            if (Leaves(0, n / per))
            {
                return true;
            }
        }
        return false;
    }

  private:
    /// Virtual leaves per leaf.
    bool Leaves(uint32_t l, uint32_t left)
    {
        if (left == 0)
        {
            return Spines(0, {});
        }
        if (l == m_cs.GetLeaves())
        {
            return false;
        }
        for (uint32_t v = 0; v <= std::min(left, Offers(m_cs, l, m_per)); ++v)
        {
            m_v[l] = v;
            if (Leaves(l + 1, left - v))
            {
                return true;
            }
        }
        m_v[l] = 0;
        return false;
    }

    /// Every set of m_per spines.
    bool Spines(uint32_t from, std::vector<uint32_t> chosen)
    {
        if (chosen.size() == m_per)
        {
            m_spines = chosen;
            m_upUsed.assign(m_cs.GetLeaves() * m_os.GetOcsCount(), false);
            m_portUsed.assign(m_os.GetSpines() * m_os.GetOcsCount(), 0);
            m_slots.clear();
            for (uint32_t l = 0; l < m_cs.GetLeaves(); ++l)
            {
                for (uint32_t s : m_spines)
                {
                    if (m_v[l] > 0)
                    {
                        m_slots.push_back({l, s});
                    }
                }
            }
            return Circuits(0);
        }
        for (uint32_t s = from; s < m_os.GetSpines(); ++s)
        {
            chosen.push_back(s);
            if (Spines(s + 1, chosen))
            {
                return true;
            }
            chosen.pop_back();
        }
        return false;
    }

    /// For each (leaf, spine) slot, v[leaf] distinct OCSs (ascending: copies are alike).
    bool Circuits(std::size_t slot)
    {
        if (slot == m_slots.size())
        {
            return true;
        }
        return Pick(slot, m_v[m_slots[slot].first], 0);
    }

    bool Pick(std::size_t slot, uint32_t left, uint32_t fromK)
    {
        if (left == 0)
        {
            return Circuits(slot + 1);
        }
        const auto [l, s] = m_slots[slot];
        const uint32_t K = m_os.GetOcsCount();
        for (uint32_t k = fromK; k < K; ++k)
        {
            if (m_upUsed[l * K + k] || !m_os.IsUplinkIdle(l, k) ||
                m_portUsed[s * K + k] >= m_os.GetIdleSpinePorts(s, k))
            {
                continue;
            }
            m_upUsed[l * K + k] = true;
            ++m_portUsed[s * K + k];
            if (Pick(slot, left - 1, k + 1))
            {
                return true;
            }
            m_upUsed[l * K + k] = false;
            --m_portUsed[s * K + k];
        }
        return false;
    }

    const ClusterState& m_cs;
    const ClusterOcsState& m_os;
    uint32_t m_per = 0;
    std::vector<uint32_t> m_v;
    std::vector<uint32_t> m_spines;
    std::vector<bool> m_upUsed;
    std::vector<uint32_t> m_portUsed;
    std::vector<std::pair<uint32_t, uint32_t>> m_slots;
};

/**
 * Independent validator: "" when the placement is valid for the states (before booking),
 * else the first reason. Valid = N free GPUs; single leaf without circuits; or every GPU
 * with its own idle uplink, closed by exactly one circuit of the job on idle ports of one
 * OCS: a leaf pair (N/2 GPUs on each of two leaves, leaf-leaf circuits) or a virtual Clos
 * (m virtual leaves of n GPUs, each on one leaf, whole servers when g divides n, n distinct
 * spines shared by all, GPU number a of a virtual leaf to spines[a]).
 */
std::string
Validate(const ClusterState& cs,
         const ClusterOcsState& os,
         const ClusterOcsPlacement& p,
         uint32_t n)
{
    const auto& pl = p.placement;
    const uint32_t gpl = cs.GetGpusPerLeaf();
    const uint32_t g = cs.GetGpusPerServer();
    const uint32_t K = os.GetOcsCount();
    const uint32_t P = os.GetSpinePortsPerOcs();
    if (pl.gpus.size() != n || pl.uplinkSpine.size() != n || p.uplinkOcs.size() != n ||
        p.virtualLeaf.size() != n)
    {
        return "sizes";
    }
    std::set<uint32_t> gpuSet(pl.gpus.begin(), pl.gpus.end());
    if (gpuSet.size() != n || !std::is_sorted(pl.gpus.begin(), pl.gpus.end()))
    {
        return "GPUs not distinct and ascending";
    }
    for (uint32_t gpu : pl.gpus)
    {
        if (gpu >= cs.GetGpus() || cs.GetGpuOwner(gpu) != ClusterState::NO_JOB)
        {
            return "GPU busy";
        }
    }
    if (p.stage == ClusterOcsStage::SINGLE_LEAF)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            if (pl.gpus[i] / gpl != pl.gpus[0] / gpl || p.uplinkOcs[i] != -1)
            {
                return "single leaf spans leaves or has uplinks";
            }
        }
        return p.circuits.empty() ? "" : "single leaf with circuits";
    }
    // Circuits: ranges, one OCS, idle and distinct ports.
    std::map<std::pair<uint32_t, uint32_t>, std::size_t> atUplink; // (leaf, ocs) -> circuit
    std::set<std::pair<uint32_t, uint32_t>> spinePorts;
    for (std::size_t c = 0; c < p.circuits.size(); ++c)
    {
        const auto& ci = p.circuits[c];
        if (ci.leaf >= os.GetLeaves() || ci.ocs >= K)
        {
            return "circuit out of range";
        }
        std::vector<std::pair<uint32_t, uint32_t>> ends{{ci.leaf, ci.ocs}};
        if (ci.toLeaf)
        {
            if (ci.peer >= os.GetLeaves() || ci.peerPort != ci.ocs || ci.peer == ci.leaf)
            {
                return "bad leaf-leaf circuit";
            }
            ends.push_back({ci.peer, ci.peerPort});
        }
        else
        {
            if (ci.peer >= os.GetSpines() || ci.peerPort >= K * P || ci.peerPort / P != ci.ocs)
            {
                return "spine port out of range or on another OCS";
            }
            if (os.GetSpinePortOwner(ci.peer, ci.peerPort) != ClusterOcsState::NO_JOB ||
                !spinePorts.insert({ci.peer, ci.peerPort}).second)
            {
                return "spine port busy or used twice";
            }
        }
        for (const auto& e : ends)
        {
            if (!os.IsUplinkIdle(e.first, e.second) || !atUplink.emplace(e, c).second)
            {
                return "leaf uplink busy or used twice";
            }
        }
    }
    // Every GPU: its own uplink, which is an end of a circuit; no circuit end unused.
    std::set<std::pair<uint32_t, uint32_t>> gpuUplinks;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (p.uplinkOcs[i] < 0 || uint32_t(p.uplinkOcs[i]) >= K)
        {
            return "GPU without uplink";
        }
        std::pair<uint32_t, uint32_t> up{pl.gpus[i] / gpl, uint32_t(p.uplinkOcs[i])};
        if (!gpuUplinks.insert(up).second)
        {
            return "two GPUs share an uplink";
        }
        if (!atUplink.count(up))
        {
            return "GPU uplink without circuit";
        }
    }
    if (gpuUplinks.size() != atUplink.size())
    {
        return "circuit end not used by a GPU";
    }
    // Virtual leaves.
    std::map<uint32_t, std::vector<uint32_t>> vl; // virtual leaf -> GPU indexes (ascending)
    for (uint32_t i = 0; i < n; ++i)
    {
        vl[p.virtualLeaf[i]].push_back(i);
    }
    const uint32_t m = static_cast<uint32_t>(vl.size());
    const uint32_t per = n / std::max<uint32_t>(m, 1);
    if (m < 2 || m * per != n || pl.m != m || pl.n != per)
    {
        return "shape";
    }
    for (const auto& [v, idx] : vl)
    {
        if (idx.size() != per)
        {
            return "virtual leaves of different sizes";
        }
        std::set<uint32_t> servers;
        for (uint32_t i : idx)
        {
            if (pl.gpus[i] / gpl != pl.gpus[idx[0]] / gpl)
            {
                return "virtual leaf spans leaves";
            }
            servers.insert(pl.gpus[i] / g);
        }
        if (per % g == 0 && servers.size() * g != per)
        {
            return "virtual leaf not on whole servers";
        }
    }
    if (p.stage == ClusterOcsStage::LEAF_PAIR)
    {
        if (m != 2 || p.circuits.size() != per)
        {
            return "leaf pair shape";
        }
        for (const auto& ci : p.circuits)
        {
            if (!ci.toLeaf)
            {
                return "leaf pair with a spine circuit";
            }
        }
        return "";
    }
    bool allowed = false;
    for (uint32_t a : AllowedN(cs, os, n))
    {
        allowed = allowed || a == per;
    }
    if (!allowed || pl.spines.size() != per || !std::is_sorted(pl.spines.begin(), pl.spines.end()))
    {
        return "shape not allowed or spines";
    }
    for (const auto& [v, idx] : vl)
    {
        std::set<uint32_t> spines;
        for (uint32_t a = 0; a < per; ++a)
        {
            const uint32_t i = idx[a];
            const auto& ci = p.circuits[atUplink.at({pl.gpus[i] / gpl, uint32_t(p.uplinkOcs[i])})];
            if (ci.toLeaf || int32_t(ci.peer) != pl.uplinkSpine[i])
            {
                return "GPU's circuit does not reach its spine";
            }
            if (!spines.insert(ci.peer).second)
            {
                return "two links of a virtual leaf to the same spine";
            }
            if (ci.peer != pl.spines[a])
            {
                return "GPU a of a virtual leaf not on spine a";
            }
        }
    }
    return "";
}

/// Random partial occupancy: GPUs held by single-GPU jobs, random circuits held or idle.
void
RandomOccupancy(std::mt19937& rng, ClusterState& cs, ClusterOcsState& os, double busy)
{
    std::uniform_real_distribution<double> u(0, 1);
    uint64_t job = 1000;
    for (uint32_t gpu = 0; gpu < cs.GetGpus(); ++gpu)
    {
        if (u(rng) < busy)
        {
            cs.Allocate(job++, {gpu}, {});
        }
    }
    const uint32_t K = os.GetOcsCount();
    const uint32_t P = os.GetSpinePortsPerOcs();
    for (int tries = 0; tries < 12; ++tries)
    {
        uint32_t leaf = rng() % os.GetLeaves();
        uint32_t k = rng() % K;
        if (!os.IsUplinkIdle(leaf, k))
        {
            continue;
        }
        ClusterOcsCircuit c;
        c.leaf = leaf;
        c.ocs = k;
        if (rng() % 4 == 0)
        {
            c.toLeaf = true;
            c.peer = rng() % os.GetLeaves();
            c.peerPort = k;
            if (c.peer == leaf || !os.IsUplinkIdle(c.peer, k))
            {
                continue;
            }
        }
        else
        {
            c.peer = rng() % os.GetSpines();
            c.peerPort = k * P + rng() % P;
            if (os.GetSpinePortOwner(c.peer, c.peerPort) != ClusterOcsState::NO_JOB)
            {
                continue;
            }
        }
        os.Book(job, {c});
        if (u(rng) < 0.3)
        {
            os.Release(job); // an idle circuit, reusable
        }
        ++job;
    }
}

} // namespace

TEST(ClusterOcsState, SpecSizeBookReleaseAndQueries)
{
    ClusterTopologyConfig cfg;
    cfg.leaves = 256;
    cfg.serversPerLeaf = 8;
    cfg.gpusPerServer = 4;
    cfg.spines = 128;
    cfg.spinePorts = 64;
    cfg.ocsCount = 32;
    ClusterOcsState s{ClusterTopology(cfg)};
    EXPECT_EQ(s.GetLeaves(), 256u);
    EXPECT_EQ(s.GetOcsCount(), 32u);
    EXPECT_EQ(s.GetSpines(), 128u);
    EXPECT_EQ(s.GetSpinePortsPerOcs(), 2u);
    EXPECT_EQ(s.GetSpinePorts(), 64u);
    EXPECT_EQ(s.GetOcsOfSpinePort(63), 31u);
    EXPECT_EQ(s.GetIdleUplinkCount(255), 32u);
    EXPECT_EQ(s.GetIdleSpinePorts(127, 31), 2u);
    EXPECT_TRUE(s.IsIdle());
    // Leaf 255 uplink 31 -> spine 127 port 62 (OCS 31); leaf 3 - leaf 4 on OCS 5.
    auto r = s.Book(9, {{255, 31, false, 127, 62}, {3, 5, true, 4, 5}});
    EXPECT_EQ(r.setUp, 2u);
    EXPECT_EQ(r.reused + r.tornDown, 0u);
    EXPECT_FALSE(s.IsUplinkIdle(255, 31));
    EXPECT_FALSE(s.IsUplinkIdle(4, 5));
    EXPECT_EQ(s.GetUplinkOwner(3, 5), 9u);
    EXPECT_EQ(s.GetIdleSpinePorts(127, 31), 1u);
    EXPECT_EQ(s.GetIdleSpinePortsOfSpine(127), 63u);
    EXPECT_EQ(s.GetSpinePortOwner(127, 62), 9u);
    EXPECT_EQ(s.GetIdleUplinkCount(3), 31u);
    EXPECT_EQ(s.GetCircuitCount(), 2u);
    auto c = s.GetCircuitAtUplink(4, 5);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->leaf, 4u);
    EXPECT_EQ(c->peer, 3u);
    s.CheckInvariants();
    s.Release(9);
    EXPECT_TRUE(s.IsIdle());
    EXPECT_EQ(s.GetCircuitCount(), 2u) << "released circuits stay set up, idle";
    EXPECT_EQ(s.GetIdleSpinePorts(127, 31), 2u);
    // The same circuit again is reused; a circuit on one of its ports tears it down.
    r = s.Book(10, {{255, 31, false, 127, 62}});
    EXPECT_EQ(r.reused, 1u);
    EXPECT_EQ(r.setUp, 0u);
    r = s.Book(11, {{3, 5, false, 0, 10}});
    EXPECT_EQ(r.setUp, 1u);
    EXPECT_EQ(r.tornDown, 1u);
    EXPECT_FALSE(s.GetCircuitAtUplink(4, 5).has_value());
    EXPECT_EQ(s.GetCircuitCount(), 2u);
    s.CheckInvariants();
}

TEST(ClusterOcsState, BadRequestsAreRefusedWithOneLineAndChangeNothing)
{
    ClusterOcsState s(4, 4, 2, 2); // spine ports 0..7, port q on OCS q / 2
    s.Book(1, {{0, 1, false, 0, 2}, {1, 2, true, 2, 2}});
    s.Book(2, {{3, 0, false, 1, 0}});
    s.Release(2); // idle circuit leaf3/ocs0 - spine1/port0
    const std::string before = Snapshot(s);

    struct Bad
    {
        const char* what;
        std::vector<ClusterOcsCircuit> circuits;
        const char* expect;
    };

    const std::vector<Bad> bad{
        {"leaf uplink in use", {{0, 1, false, 1, 2}}, "in use by job 1"},
        {"spine port in use", {{3, 1, false, 0, 2}}, "in use by job 1"},
        {"leaf-leaf peer in use", {{3, 2, true, 2, 2}}, "in use by job 1"},
        {"leaf out of range", {{4, 0, false, 0, 0}}, "leaf is outside 0..3"},
        {"OCS out of range", {{0, 4, false, 0, 0}}, "OCS 4 is outside 0..3"},
        {"spine out of range", {{0, 0, false, 2, 0}}, "spine is outside 0..1"},
        {"spine port out of range", {{0, 0, false, 0, 8}}, "spine port 8 is outside 0..7"},
        {"peer leaf out of range", {{0, 0, true, 9, 0}}, "leaf is outside 0..3"},
        {"spine port on the wrong OCS",
         {{0, 0, false, 0, 3}},
         "wrong OCS, spine port 3 sits on OCS 1"},
        {"leaf-leaf on the wrong OCS", {{0, 0, true, 2, 3}}, "wrong OCS"},
        {"leaf to itself", {{2, 3, true, 2, 3}}, "to itself"},
        {"port listed twice", {{2, 3, false, 0, 6}, {3, 3, false, 0, 6}}, "twice"},
        // A good circuit before a bad one: nothing of the request is booked.
        {"good then bad", {{2, 0, false, 0, 0}, {0, 1, false, 1, 3}}, "in use by job 1"},
    };
    for (const auto& b : bad)
    {
        auto e = ErrorOf<std::exception>([&] { s.Book(5, b.circuits); });
        EXPECT_NE(e.find(b.expect), std::string::npos) << b.what << ": " << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << b.what;
        EXPECT_EQ(Snapshot(s), before) << b.what << " changed the state";
    }
    EXPECT_NE(ErrorOf<std::logic_error>([&] {
                  s.Book(1, {{2, 0, false, 0, 0}});
              }).find("already"),
              std::string::npos);
    EXPECT_NE(ErrorOf<std::logic_error>([&] { s.Release(7); }).find("job 7"), std::string::npos);
    EXPECT_NE(ErrorOf<std::invalid_argument>([&] {
                  s.Book(ClusterOcsState::NO_JOB, {{2, 0, false, 0, 0}});
              }).find("NO_JOB"),
              std::string::npos);
    EXPECT_EQ(Snapshot(s), before);
    s.CheckInvariants();
    // Shapes refused at construction.
    EXPECT_NE(ErrorOf<std::invalid_argument>([] { ClusterOcsState(4, 0, 2, 2); }).find("OcsCount"),
              std::string::npos);
    EXPECT_NE(
        ErrorOf<std::invalid_argument>([] { ClusterOcsState(4, 300, 2, 2); }).find("OcsCount"),
        std::string::npos);
    EXPECT_NE(ErrorOf<std::invalid_argument>([] { ClusterOcsState(0, 4, 2, 2); }).find("Leaves"),
              std::string::npos);
    EXPECT_NE(ErrorOf<std::invalid_argument>([] { ClusterOcsState(4, 4, 0, 2); }).find("Spines"),
              std::string::npos);
    ClusterTopologyConfig noOcs;
    EXPECT_NE(ErrorOf<std::invalid_argument>([&] {
                  ClusterOcsState{ClusterTopology(noOcs)};
              }).find("no OCS layer"),
              std::string::npos);
}

TEST(ClusterOcsState, RandomBookReleaseKeepsInvariants)
{
    std::mt19937 rng(3);
    ClusterOcsState s(6, 4, 3, 2);
    std::vector<uint64_t> jobs;
    for (uint64_t step = 1; step <= 2000; ++step)
    {
        if (!jobs.empty() && rng() % 3 == 0)
        {
            std::size_t i = rng() % jobs.size();
            s.Release(jobs[i]);
            jobs.erase(jobs.begin() + i);
        }
        else
        {
            std::vector<ClusterOcsCircuit> req;
            for (uint32_t c = 0; c < 1 + rng() % 3; ++c)
            {
                uint32_t k = rng() % 4;
                if (rng() % 3 == 0)
                {
                    req.push_back({uint32_t(rng() % 6), k, true, uint32_t(rng() % 6), k});
                }
                else
                {
                    req.push_back({uint32_t(rng() % 6),
                                   k,
                                   false,
                                   uint32_t(rng() % 3),
                                   k * 2 + uint32_t(rng() % 2)});
                }
            }
            const std::string before = Snapshot(s);
            try
            {
                s.Book(step, req);
                jobs.push_back(step);
            }
            catch (const std::exception&)
            {
                ASSERT_EQ(Snapshot(s), before);
            }
        }
        s.CheckInvariants();
    }
}

TEST(ClusterOcsPlacement, ValidatorAcceptsAHandMadeClosAndRejectsBrokenOnes)
{
    // 4 leaves x 2 servers x 2 GPUs, 4 OCSs, 2 spines with 2 ports per OCS.
    ClusterState cs(4, 2, 2, 1);
    ClusterOcsState os(4, 4, 2, 2);
    // 2 x 2 virtual Clos: leaf 0 server 0 (GPUs 0, 1), leaf 1 server 0 (GPUs 4, 5).
    ClusterOcsPlacement p;
    p.stage = ClusterOcsStage::VIRTUAL_CLOS;
    p.placement.gpus = {0, 1, 4, 5};
    p.placement.m = 2;
    p.placement.n = 2;
    p.placement.spines = {0, 1};
    p.placement.uplinkSpine = {0, 1, 0, 1};
    p.uplinkOcs = {0, 1, 0, 2};
    p.virtualLeaf = {0, 0, 1, 1};
    p.circuits = {{0, 0, false, 0, 0},
                  {0, 1, false, 1, 2},
                  {1, 0, false, 0, 1},
                  {1, 2, false, 1, 4}};
    ASSERT_EQ(Validate(cs, os, p, 4), "");

    auto shared = p; // GPU 1 takes GPU 0's uplink
    shared.uplinkOcs[1] = 0;
    EXPECT_EQ(Validate(cs, os, shared, 4), "two GPUs share an uplink");

    auto overUsed = p; // spine 0 port 0 used by both leaves
    overUsed.circuits[2].peerPort = 0;
    EXPECT_EQ(Validate(cs, os, overUsed, 4), "spine port busy or used twice");

    auto busyPort = p; // the port is held by another job
    ClusterOcsState os2 = os;
    os2.Book(77, {{3, 2, false, 1, 4}});
    EXPECT_EQ(Validate(cs, os2, busyPort, 4), "spine port busy or used twice");

    auto sameSpine = p; // leaf 1's two links both to spine 0
    sameSpine.circuits[3] = {1, 2, false, 0, 4};
    sameSpine.placement.uplinkSpine[3] = 0;
    EXPECT_EQ(Validate(cs, os, sameSpine, 4), "two links of a virtual leaf to the same spine");

    auto wrongOcs = p; // spine port 2 sits on OCS 1, the leaf uplink on OCS 0
    wrongOcs.circuits[0].peerPort = 2;
    EXPECT_EQ(Validate(cs, os, wrongOcs, 4), "spine port out of range or on another OCS");

    auto busyGpu = p;
    ClusterState cs2 = cs;
    cs2.Allocate(5, {4}, {});
    EXPECT_EQ(Validate(cs2, os, busyGpu, 4), "GPU busy");

    // The booking layer refuses the broken requests too.
    ClusterOcsState os3 = os;
    EXPECT_NE(ErrorOf<std::logic_error>([&] { os3.Book(1, overUsed.circuits); }).find("twice"),
              std::string::npos);
}

TEST(ClusterOcsPlacement, AgreesWithBruteForceOnSmallClusters)
{
    uint64_t states = 0;
    uint64_t placed = 0;
    uint64_t circuitRefusals = 0;
    std::map<ClusterOcsStage, uint64_t> byStage;
    for (uint32_t seed = 1; seed <= 150; ++seed)
    {
        std::mt19937 rng(seed);
        const uint32_t spines = 2 + seed % 3;       // 2 to 4
        const uint32_t perOcs = 1 + (seed / 3) % 2; // 1 or 2
        ClusterState cs(4, 2, 2, 1);
        ClusterOcsState os(4, 4, spines, perOcs);
        RandomOccupancy(rng, cs, os, (seed % 5) * 0.12);
        VclosOcsPolicy policy(4, spines, perOcs);
        ++states;
        for (uint32_t n = 1; n <= 16; ++n)
        {
            BruteForce brute(cs, os);
            const bool exists = brute.Exists(n);
            ClusterOcsSearchStats stats;
            auto p = policy.Place(cs, os, 42, n, &stats);
            ASSERT_FALSE(stats.cut) << "seed " << seed << " N " << n;
            ASSERT_EQ(p.has_value(), exists)
                << "seed " << seed << " N " << n << " spines " << spines << " P " << perOcs;
            if (!p)
            {
                auto cause = policy.Diagnose(cs, os, n);
                if (n > cs.GetFreeGpus())
                {
                    EXPECT_EQ(cause, ClusterPlacementFailure::GPUS);
                }
                else
                {
                    ClusterOcsState idle(4, 4, spines, perOcs);
                    BruteForce onIdle(cs, idle);
                    EXPECT_EQ(cause,
                              onIdle.Exists(n) ? ClusterPlacementFailure::CIRCUITS
                                               : ClusterPlacementFailure::GPU_FRAGMENTATION);
                    circuitRefusals += cause == ClusterPlacementFailure::CIRCUITS ? 1 : 0;
                }
                continue;
            }
            ++placed;
            ++byStage[p->stage];
            ASSERT_EQ(Validate(cs, os, *p, n), "") << "seed " << seed << " N " << n;
            // Books cleanly on copies of both states.
            ClusterOcsState osCopy = os;
            ClusterState csCopy = cs;
            auto report = osCopy.Book(42, p->circuits);
            EXPECT_EQ(report.reused, p->reusedCircuits);
            csCopy.Allocate(42, p->placement.gpus, {});
            osCopy.CheckInvariants();
            // Deterministic.
            auto again = policy.Place(cs, os, 42, n);
            ASSERT_TRUE(again.has_value());
            EXPECT_EQ(again->placement.gpus, p->placement.gpus);
            EXPECT_TRUE(again->circuits == p->circuits);
        }
    }
    EXPECT_EQ(states, 150u);
    // Every stage was exercised.
    for (auto st : {ClusterOcsStage::SINGLE_LEAF,
                    ClusterOcsStage::LEAF_PAIR,
                    ClusterOcsStage::ONE_SPINE,
                    ClusterOcsStage::VIRTUAL_CLOS})
    {
        EXPECT_GT(byStage[st], 0u) << ClusterOcsStageName(st);
    }
    EXPECT_GT(placed, 200u);
    EXPECT_GT(circuitRefusals, 0u) << "some refusals are for circuits alone";
    std::cout << "brute-force comparison: " << placed << " placed (single-leaf "
              << byStage[ClusterOcsStage::SINGLE_LEAF] << ", leaf-pair "
              << byStage[ClusterOcsStage::LEAF_PAIR] << ", one-spine "
              << byStage[ClusterOcsStage::ONE_SPINE] << ", virtual-clos "
              << byStage[ClusterOcsStage::VIRTUAL_CLOS] << "), " << circuitRefusals
              << " refused for circuits" << std::endl;
}

TEST(ClusterOcsPlacement, PlacesAJobStaticVclosRefusesForNetworkFragmentation)
{
    // 4 leaves x 2 servers x 2 GPUs. Static: 4 spines, one link per leaf-spine pair. OCS: 4
    // OCSs, 4 spines with one port per OCS, wired as the static fabric: link (leaf l, spine
    // s) is the circuit leaf l uplink (s - l) mod 4 -> spine s port (s - l) mod 4.
    auto ocsOf = [](uint32_t leaf, uint32_t spine) { return (spine + 4 - leaf) % 4; };
    ClusterState stat(4, 2, 2, 4);
    ClusterState cs(4, 2, 2, 1);
    ClusterOcsState os(4, 4, 4, 1);
    std::vector<ClusterOcsCircuit> wiring;
    for (uint32_t l = 0; l < 4; ++l)
    {
        for (uint32_t s = 0; s < 4; ++s)
        {
            wiring.push_back({l, ocsOf(l, s), false, s, ocsOf(l, s)});
        }
    }
    os.Book(999, wiring);
    os.Release(999); // the static wiring, idle

    // Job A: 2 x 2 Clos on leaves 0 (server 1) and 2 (server 0) over spines 2, 3.
    // Job B: 2 x 2 Clos on leaves 1 (server 1) and 3 (server 0) over spines 3, 0.
    // Jobs C, D: the other servers of leaves 2 and 3.
    struct Job
    {
        uint64_t id;
        std::vector<uint32_t> gpus;
        std::vector<ClusterLeafSpineLink> links;
    };

    const std::vector<Job> jobs{{1, {2, 3, 8, 9}, {{0, 2}, {0, 3}, {2, 2}, {2, 3}}},
                                {2, {6, 7, 12, 13}, {{1, 3}, {1, 0}, {3, 3}, {3, 0}}},
                                {3, {10, 11}, {}},
                                {4, {14, 15}, {}}};
    for (const auto& j : jobs)
    {
        stat.Allocate(j.id, j.gpus, j.links);
        cs.Allocate(j.id, j.gpus, {});
        std::vector<ClusterOcsCircuit> circuits;
        for (const auto& l : j.links)
        {
            circuits.push_back(
                {l.leaf, ocsOf(l.leaf, l.spine), false, l.spine, ocsOf(l.leaf, l.spine)});
        }
        if (!circuits.empty())
        {
            os.Book(j.id, circuits);
        }
    }
    // Free: leaf 0 server 0 (links to spines 0, 1 free), leaf 1 server 0 (spines 1, 2).
    VclosPolicy vclos;
    EXPECT_FALSE(vclos.Place(stat, 5, 4).has_value()) << "control: static vClos must refuse";
    EXPECT_EQ(vclos.Diagnose(stat, 4), ClusterPlacementFailure::NETWORK_FRAGMENTATION);
    VclosOcsPolicy ocsVclos(4, 4, 1);
    auto p = ocsVclos.Place(cs, os, 5, 4);
    ASSERT_TRUE(p.has_value()) << "OCS-vClos places it";
    EXPECT_EQ(Validate(cs, os, *p, 4), "");
    EXPECT_EQ(p->placement.gpus, (std::vector<uint32_t>{0, 1, 4, 5}));
    EXPECT_EQ(p->stage, ClusterOcsStage::LEAF_PAIR);
    auto report = os.Book(5, p->circuits);
    EXPECT_EQ(report.setUp, 2u);
    EXPECT_GE(report.tornDown, 2u) << "idle static circuits on those ports are reconfigured";
    os.CheckInvariants();
}

TEST(ClusterOcsPlacement, SpecSizeFillsTheClusterWithValidPlacements)
{
    // The authors' oxc_vclos run: 8,192 GPUs, 256 leaves x 8 servers x 4 GPUs, 128 spines x 64
    // ports, 32 OCSs (2 ports per spine per OCS).
    ClusterState cs(256, 8, 4, 1);
    ClusterOcsState os(256, 32, 128, 2);
    VclosOcsPolicy policy(32, 128, 2);
    const std::vector<uint32_t> sizes{512, 256, 128, 64, 8, 4, 192, 384};
    uint64_t job = 1;
    std::map<ClusterOcsStage, uint32_t> byStage;
    for (int round = 0; round < 40; ++round)
    {
        const uint32_t n = sizes[round % sizes.size()];
        auto p = policy.Place(cs, os, job, n);
        ASSERT_TRUE(p.has_value()) << "round " << round << " N " << n << ": "
                                   << ClusterPlacementFailureName(policy.Diagnose(cs, os, n));
        ASSERT_EQ(Validate(cs, os, *p, n), "") << "round " << round << " N " << n;
        ++byStage[p->stage];
        os.Book(job, p->circuits);
        cs.Allocate(job, p->placement.gpus, {});
        ++job;
    }
    os.CheckInvariants();
    EXPECT_GT(byStage[ClusterOcsStage::VIRTUAL_CLOS], 0u);
    EXPECT_GT(cs.GetGpus() - cs.GetFreeGpus(), 7000u);
    // Churn: release a random job, place random sizes until one does not fit; every
    // placement valid, every refusal diagnosed, the circuit state consistent.
    std::mt19937 rng(5);
    std::vector<uint64_t> running;
    for (uint64_t j = 1; j < job; ++j)
    {
        running.push_back(j);
    }
    uint32_t placements = 0;
    for (int step = 0; step < 150; ++step)
    {
        const std::size_t i = rng() % running.size();
        cs.Release(running[i]);
        if (os.HasJob(running[i]))
        {
            os.Release(running[i]);
        }
        running.erase(running.begin() + i);
        while (true)
        {
            const uint32_t n = sizes[rng() % sizes.size()];
            auto p = policy.Place(cs, os, job, n);
            if (!p)
            {
                auto cause = policy.Diagnose(cs, os, n);
                EXPECT_TRUE(cause != ClusterPlacementFailure::NETWORK_FRAGMENTATION);
                break;
            }
            ASSERT_EQ(Validate(cs, os, *p, n), "") << "step " << step << " N " << n;
            os.Book(job, p->circuits);
            cs.Allocate(job, p->placement.gpus, {});
            running.push_back(job++);
            ++placements;
        }
    }
    os.CheckInvariants();
    EXPECT_GT(placements, 100u);
}

TEST(ClusterOcsPlacement, BadInputIsRefused)
{
    ClusterState cs(4, 2, 2, 1);
    ClusterOcsState os(4, 4, 2, 2);
    VclosOcsPolicy policy(4, 2, 2);
    EXPECT_NE(ErrorOf<std::invalid_argument>([&] { policy.Place(cs, os, 1, 0); }).find("job GPUs"),
              std::string::npos);
    EXPECT_NE(ErrorOf<std::invalid_argument>([&] { policy.Place(cs, os, 1, 17); }).find("exceed"),
              std::string::npos);
    ClusterOcsState other(4, 4, 3, 2);
    EXPECT_NE(ErrorOf<std::invalid_argument>([&] {
                  policy.Place(cs, other, 1, 2);
              }).find("not the policy's OCS layer"),
              std::string::npos);
    ClusterOcsState fewer(3, 4, 2, 2);
    EXPECT_NE(ErrorOf<std::invalid_argument>([&] { policy.Place(cs, fewer, 1, 2); }).find("leaves"),
              std::string::npos);
    EXPECT_NE(
        ErrorOf<std::invalid_argument>([] { VclosOcsPolicy(4, 2, 2, 0); }).find("MaxSearchNodes"),
        std::string::npos);
    // The base-class form works over an idle layer (CanEverPlace).
    EXPECT_TRUE(policy.CanEverPlace(cs, 16));
    EXPECT_EQ(policy.GetName(), "ocs-vclos");
}

TEST(ClusterOcsPlacement, BruteForceComparisonCatchesACutSearch)
{
    // Negative control of AgreesWithBruteForceOnSmallClusters: with a budget of one node the
    // stage-4 search is cut at once, and the comparison must see jobs it then refuses
    // although brute force finds a placement.
    uint64_t disagreements = 0;
    for (uint32_t seed = 1; seed <= 150; ++seed)
    {
        std::mt19937 rng(seed);
        const uint32_t spines = 2 + seed % 3;
        const uint32_t perOcs = 1 + (seed / 3) % 2;
        ClusterState cs(4, 2, 2, 1);
        ClusterOcsState os(4, 4, spines, perOcs);
        RandomOccupancy(rng, cs, os, (seed % 5) * 0.12);
        VclosOcsPolicy weak(4, spines, perOcs, 1);
        for (uint32_t n = 1; n <= 16; ++n)
        {
            ClusterOcsSearchStats stats;
            auto p = weak.Place(cs, os, 42, n, &stats);
            if (!p && BruteForce(cs, os).Exists(n))
            {
                ++disagreements;
                EXPECT_TRUE(stats.cut) << "a refusal that brute force contradicts must be unproven";
            }
        }
    }
    EXPECT_GT(disagreements, 0u);
    std::cout << "budget of one node: " << disagreements << " jobs refused that fit" << std::endl;
}

TEST(ClusterOcsPlacement, ReusesIdleCircuitsOfAFinishedJob)
{
    // A job finishes; the next job of the same size on the same free resources takes the
    // circuits it left idle instead of reconfiguring (stage 2: leaf-leaf; stage 4: leaf-spine).
    ClusterState cs(256, 8, 4, 1);
    VclosOcsPolicy policy(32, 128, 2);
    for (uint32_t n : {64u, 512u, 256u})
    {
        ClusterOcsState os(256, 32, 128, 2); // no circuit set up yet
        auto first = policy.Place(cs, os, 1, n);
        ASSERT_TRUE(first.has_value());
        EXPECT_EQ(first->reusedCircuits, 0u);
        auto booked = os.Book(1, first->circuits);
        EXPECT_EQ(booked.setUp, first->circuits.size());
        os.Release(1);
        auto second = policy.Place(cs, os, 2, n);
        ASSERT_TRUE(second.has_value());
        EXPECT_EQ(second->stage, first->stage);
        EXPECT_EQ(second->reusedCircuits, second->circuits.size()) << "N " << n;
        auto again = os.Book(2, second->circuits);
        EXPECT_EQ(again.reused, second->circuits.size());
        EXPECT_EQ(again.setUp + again.tornDown, 0u);
        os.Release(2);
        os.CheckInvariants();
    }
}

// The stages one by one, on hand-built states: for each, the placement worked out by hand
// and a control where the stage's resource is missing and it must refuse.

using Ids = std::vector<uint32_t>;
using Ports = std::vector<int32_t>;

// Stage 1. 2 leaves of 2 servers x 2 GPUs; GPU 0 busy. Leaf 0 (3 free: server 0 with one,
// server 1 whole) is the best fit for both sizes: N = 2 takes the whole free server 1
// (GPUs 2, 3), N = 1 the tightest server, 0 (GPU 1).
TEST(ClusterOcsPlacementStage, SingleLeafTakesTheBestFitLeaf)
{
    ClusterState cs(2, 2, 2, 1);
    cs.Allocate(1, {0}, {});
    auto two = VclosOcsPolicy::PlaceSingleLeaf(cs, 7, 2);
    ASSERT_TRUE(two);
    EXPECT_EQ(two->stage, ClusterOcsStage::SINGLE_LEAF);
    EXPECT_EQ(two->placement.jobId, 7u);
    EXPECT_EQ(two->placement.gpus, (Ids{2, 3}));
    EXPECT_EQ(two->placement.m, 1u);
    EXPECT_EQ(two->placement.n, 2u);
    EXPECT_EQ(two->uplinkOcs, (Ports{-1, -1}));
    EXPECT_EQ(two->placement.uplinkSpine, (Ports{-1, -1}));
    EXPECT_EQ(two->virtualLeaf, (Ids{0, 0}));
    EXPECT_TRUE(two->circuits.empty());
    auto one = VclosOcsPolicy::PlaceSingleLeaf(cs, 8, 1);
    ASSERT_TRUE(one);
    EXPECT_EQ(one->placement.gpus, Ids{1});
}

// Control: GPUs 0, 2, 4, 6 busy: each leaf has 2 free GPUs but no wholly free server, so
// N = 2 fits no leaf on one server; N = 5 exceeds a leaf.
TEST(ClusterOcsPlacementStage, SingleLeafRefusesWithoutAWholeServer)
{
    ClusterState cs(2, 2, 2, 1);
    cs.Allocate(1, {0, 2, 4, 6}, {});
    EXPECT_FALSE(VclosOcsPolicy::PlaceSingleLeaf(cs, 7, 2));
    EXPECT_FALSE(VclosOcsPolicy::PlaceSingleLeaf(ClusterState(2, 2, 2, 1), 7, 5));
}

// Stage 2. 3 leaves of 2 servers x 2 GPUs, 2 OCSs, N = 4 (half 2); GPU 0 busy. Leaf 0 (3
// free) pairs with leaf 1 or 2 (4 free each) at the same cost 7. Without idle circuits the
// first pair, (0, 1), wins: circuits on OCSs 0 and 1; leaf 0's whole free server 1 (GPUs
// 2, 3), leaf 1's server 0 (GPUs 4, 5); GPU a of each leaf on circuit a.
TEST(ClusterOcsPlacementStage, LeafPairTakesTheBestFitPair)
{
    ClusterState cs(3, 2, 2, 1);
    cs.Allocate(1, {0}, {});
    ClusterOcsState ocs(3, 2, 1, 2);
    auto p = VclosOcsPolicy::PlaceLeafPair(cs, ocs, 7, 4);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->stage, ClusterOcsStage::LEAF_PAIR);
    EXPECT_EQ(p->placement.gpus, (Ids{2, 3, 4, 5}));
    EXPECT_EQ(p->uplinkOcs, (Ports{0, 1, 0, 1}));
    EXPECT_EQ(p->virtualLeaf, (Ids{0, 0, 1, 1}));
    EXPECT_EQ(p->placement.uplinkSpine, (Ports{-1, -1, -1, -1}));
    EXPECT_EQ(p->placement.m, 2u);
    EXPECT_EQ(p->placement.n, 2u);
    const std::vector<ClusterOcsCircuit> circuits{{0, 0, true, 1, 0}, {0, 1, true, 1, 1}};
    EXPECT_EQ(p->circuits, circuits);
    EXPECT_EQ(p->reusedCircuits, 0u);

    // An idle leaf-leaf circuit between leaves 0 and 2 on OCS 1 breaks the tie for (0, 2).
    ocs.Book(9, {{0, 1, true, 2, 1}});
    ocs.Release(9, true);
    p = VclosOcsPolicy::PlaceLeafPair(cs, ocs, 7, 4);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->placement.gpus, (Ids{2, 3, 8, 9}));
    const std::vector<ClusterOcsCircuit> reused{{0, 0, true, 2, 0}, {0, 1, true, 2, 1}};
    EXPECT_EQ(p->circuits, reused);
    EXPECT_EQ(p->reusedCircuits, 1u);
}

// Control: 3 OCSs; jobs hold leaf 0's uplink 2, leaf 1's uplink 0 and leaf 2's uplink 1.
// Every leaf has 4 free GPUs and 2 idle uplinks, but any two leaves share one idle OCS, and
// N = 4 needs two.
TEST(ClusterOcsPlacementStage, LeafPairRefusesWithoutCommonIdleUplinks)
{
    ClusterState cs(3, 2, 2, 1);
    ClusterOcsState ocs(3, 3, 1, 3); // spine ports 0-2 on OCS 0, 3-5 on OCS 1, 6-8 on OCS 2
    ocs.Book(7, {{0, 2, false, 0, 6}});
    ocs.Book(8, {{1, 0, false, 0, 0}});
    ocs.Book(9, {{2, 1, false, 0, 3}});
    EXPECT_FALSE(VclosOcsPolicy::PlaceLeafPair(cs, ocs, 5, 4));
    EXPECT_TRUE(VclosOcsPolicy::PlaceLeafPair(cs, ocs, 5, 2)); // one shared OCS is enough
}

// Stage 3. 3 leaves of one server x 2 GPUs, 2 OCSs, 2 spines with 2 ports on each OCS
// (ports 0, 1 on OCS 0; 2, 3 on OCS 1); GPU 0 busy; a job holds leaf 2's uplink 0 and spine
// 0's port 0. N = 3: spine 0 (3 idle ports) is the best fit. Leaves by free GPUs: 0 (1), 1
// (2), 2 (2); leaves 0 and 1 are the shortest prefix reaching 3 (leaf 0 alone gives 1).
// Spine 0 has one idle port on OCS 0 and two on OCS 1; leaf 1 must send its two GPUs over
// both uplinks, so OCS 0 is leaf 1's and leaf 0 goes over OCS 1. Ports: leaf 0 -> 2, leaf 1
// -> 1 (OCS 0) and 3 (OCS 1).
TEST(ClusterOcsPlacementStage, OneSpineTakesTheBestFitSpineAndLeaves)
{
    ClusterState cs(3, 1, 2, 1);
    cs.Allocate(1, {0}, {});
    ClusterOcsState ocs(3, 2, 2, 2);
    ocs.Book(9, {{2, 0, false, 0, 0}});
    auto p = VclosOcsPolicy::PlaceOneSpine(cs, ocs, 7, 3);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->stage, ClusterOcsStage::ONE_SPINE);
    EXPECT_EQ(p->placement.gpus, (Ids{1, 2, 3}));
    EXPECT_EQ(p->uplinkOcs, (Ports{1, 0, 1}));
    EXPECT_EQ(p->placement.uplinkSpine, (Ports{0, 0, 0}));
    EXPECT_EQ(p->virtualLeaf, (Ids{0, 1, 2}));
    EXPECT_EQ(p->placement.spines, Ids{0});
    EXPECT_EQ(p->placement.m, 3u);
    EXPECT_EQ(p->placement.n, 1u);
    const std::vector<ClusterOcsCircuit> circuits{{0, 1, false, 0, 2},
                                                  {1, 0, false, 0, 1},
                                                  {1, 1, false, 0, 3}};
    EXPECT_EQ(p->circuits, circuits);
}

// Control: all GPUs free; a job holds both uplinks of leaf 2 and port 0 of spine 0 and port
// 2 of spine 1. Leaves 0 and 1 offer 4 GPUs on 4 idle uplinks, N = 4 <= K * P, but each
// spine has 3 idle ports.
TEST(ClusterOcsPlacementStage, OneSpineRefusesWithoutEnoughSpinePorts)
{
    ClusterState cs(3, 1, 2, 1);
    ClusterOcsState ocs(3, 2, 2, 2);
    ocs.Book(9, {{2, 0, false, 0, 0}, {2, 1, false, 1, 2}});
    EXPECT_FALSE(VclosOcsPolicy::PlaceOneSpine(cs, ocs, 7, 4));
}

// Stage 4. 3 leaves of one server x 2 GPUs, 2 OCSs, 2 spines with one port per OCS, all
// idle. N = 4: the only shape is 2 x 2 (m = 1 and n = 1 are skipped). Leaves 0 and 1 (best
// fit: lowest index), spines 0 and 1; spine 0 takes leaf 0's OCS 0 and leaf 1's OCS 1,
// spine 1 the others. GPU a of each leaf goes up to spine a.
TEST(ClusterOcsPlacementStage, VirtualClosBuildsATwoByTwoClos)
{
    ClusterState cs(3, 1, 2, 1);
    ClusterOcsState ocs(3, 2, 2, 1);
    ClusterOcsSearchStats stats;
    auto p = VclosOcsPolicy::PlaceVirtualClos(cs, ocs, 7, 4, 1000, &stats);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->stage, ClusterOcsStage::VIRTUAL_CLOS);
    EXPECT_EQ(p->placement.jobId, 7u);
    EXPECT_EQ(p->placement.gpus, (Ids{0, 1, 2, 3}));
    EXPECT_EQ(p->placement.uplinkSpine, (Ports{0, 1, 0, 1}));
    EXPECT_EQ(p->uplinkOcs, (Ports{0, 1, 1, 0}));
    EXPECT_EQ(p->virtualLeaf, (Ids{0, 0, 1, 1}));
    EXPECT_EQ(p->placement.spines, (Ids{0, 1}));
    EXPECT_EQ(p->placement.m, 2u);
    EXPECT_EQ(p->placement.n, 2u);
    const std::vector<ClusterOcsCircuit> circuits{{0, 0, false, 0, 0},
                                                  {0, 1, false, 1, 1},
                                                  {1, 1, false, 0, 1},
                                                  {1, 0, false, 1, 0}};
    EXPECT_EQ(p->circuits, circuits);
    EXPECT_TRUE(p->placement.provenBest);
    EXPECT_FALSE(stats.cut);
    EXPECT_EQ(p->placement.searchNodes, stats.searchNodes);
}

// Control: a job holds spine 1's port on OCS 0 (through leaf 2's uplink 0): only spine 0
// has 2 idle ports, the 2 x 2 shape needs two such spines. Refused, proven, no node.
TEST(ClusterOcsPlacementStage, VirtualClosRefusesWithoutEnoughSpines)
{
    ClusterState cs(3, 1, 2, 1);
    ClusterOcsState ocs(3, 2, 2, 1);
    ocs.Book(9, {{2, 0, false, 1, 0}});
    ClusterOcsSearchStats stats;
    EXPECT_FALSE(VclosOcsPolicy::PlaceVirtualClos(cs, ocs, 7, 4, 1000, &stats));
    EXPECT_FALSE(stats.cut);
    EXPECT_EQ(stats.searchNodes, 0u);
}
