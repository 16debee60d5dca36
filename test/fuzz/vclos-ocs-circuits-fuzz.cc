/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fuzz target: OCS circuit requests (ClusterOcsState::Book and Release) with arbitrary
// circuits. The input's bytes are a small layer and a sequence of requests; each refused
// request must be a one-line exception that leaves the state exactly as it was, each
// accepted one must give the job exactly its circuits, and the state's own recount
// (CheckInvariants) must agree after every request.
//
// Input: 4 bytes of layer (leaves b % 9, OCSs b % 5, spines b % 5, spine ports per OCS b % 4;
// 0 tests the constructor's refusal), then requests: an op byte (op % 4: 0 and 1 Book, 2
// Release keeping the circuits, 3 Release tearing them down), a job byte (0xff: NO_JOB,
// else b % 6), and for Book a count byte (b % 6) and 5 bytes per circuit: leaf, ocs, to-leaf
// (b & 1), peer, peer port. A circuit byte below 0xf8 is b % 10 (often in range); 0xf8 to
// 0xff are 2^32 - 8 to 2^32 - 1 (far out of range, where index arithmetic would wrap).
// Tests: cluster-ocs-state
#include "vclos-fuzz-support.h"

#include "ns3/cluster-ocs-state.h"

#include <optional>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/// Reads the input byte by byte; 0 once it is used up.
class Bytes
{
  public:
    Bytes(const uint8_t* data, std::size_t size)
        : m_data(data),
          m_size(size)
    {
    }

    bool More() const
    {
        return m_at < m_size;
    }

    uint8_t Next()
    {
        return m_at < m_size ? m_data[m_at++] : 0;
    }

    /// \return a circuit field: small (often valid) or far out of range
    uint32_t Field()
    {
        const uint8_t b = Next();
        return b < 0xf8 ? b % 10u : UINT32_MAX - (0xffu - b);
    }

  private:
    const uint8_t* m_data;
    std::size_t m_size;
    std::size_t m_at = 0;
};

/// Everything a caller can see of a state, to compare before and after a refusal.
std::string
Snapshot(const ClusterOcsState& s)
{
    std::ostringstream out;
    out << s.GetCircuitCount() << ' ' << s.GetJobCount() << ' ' << s.IsIdle() << '|';
    for (uint32_t leaf = 0; leaf < s.GetLeaves(); ++leaf)
    {
        out << s.GetIdleUplinkCount(leaf) << ':';
        for (uint32_t k = 0; k < s.GetOcsCount(); ++k)
        {
            out << s.GetUplinkOwner(leaf, k);
            auto c = s.GetCircuitAtUplink(leaf, k);
            if (c)
            {
                out << '(' << c->ocs << ',' << c->toLeaf << ',' << c->peer << ',' << c->peerPort
                    << ')';
            }
            out << ' ';
        }
    }
    out << '|';
    for (uint32_t spine = 0; spine < s.GetSpines(); ++spine)
    {
        out << s.GetIdleSpinePortsOfSpine(spine) << ':';
        for (uint32_t k = 0; k < s.GetOcsCount(); ++k)
        {
            out << s.GetIdleSpinePorts(spine, k) << ' ';
        }
        for (uint32_t q = 0; q < s.GetSpinePorts(); ++q)
        {
            out << s.GetSpinePortOwner(spine, q) << s.IsSpinePortConnected(spine, q) << ' ';
        }
    }
    out << '|';
    for (uint64_t job = 0; job < 6; ++job)
    {
        out << s.HasJob(job) << (s.HasJob(job) ? s.GetJobCircuits(job).size() : 0) << ' ';
    }
    return out.str();
}

/// The state's own recount must agree.
void
CheckInvariants(const ClusterOcsState& s, const char* after)
{
    try
    {
        s.CheckInvariants();
    }
    catch (const std::exception& e)
    {
        VclosFuzzRequire(false,
                         std::string("the state's counters hold after ") + after + " (" + e.what() +
                             ")");
    }
}

/// An accepted Book: the job holds exactly its circuits, every end owned by it.
void
CheckBooked(const ClusterOcsState& s,
            uint64_t job,
            const std::vector<ClusterOcsCircuit>& circuits,
            const ClusterOcsBookingReport& report)
{
    VclosFuzzRequire(report.reused + report.setUp == circuits.size(),
                     "a booking reuses or sets up each circuit once");
    VclosFuzzRequire(s.HasJob(job) == !circuits.empty(), "a job holds circuits once booked");
    if (circuits.empty())
    {
        return;
    }
    VclosFuzzRequire(s.GetJobCircuits(job).size() == circuits.size(),
                     "a job holds the circuits it booked");
    for (const auto& c : circuits)
    {
        auto at = s.GetCircuitAtUplink(c.leaf, c.ocs);
        VclosFuzzRequire(at && *at == c, "a booked circuit is set up");
        VclosFuzzRequire(s.GetUplinkOwner(c.leaf, c.ocs) == job,
                         "a booked circuit's leaf end is the job's");
        VclosFuzzRequire(c.toLeaf ? s.GetUplinkOwner(c.peer, c.peerPort) == job
                                  : s.GetSpinePortOwner(c.peer, c.peerPort) == job,
                         "a booked circuit's far end is the job's");
    }
}

/// An accepted Release: the job holds nothing, its circuits stay idle or are gone.
void
CheckReleased(const ClusterOcsState& s,
              uint64_t job,
              const std::vector<ClusterOcsCircuit>& held,
              bool keep)
{
    VclosFuzzRequire(!s.HasJob(job), "a released job holds nothing");
    for (const auto& c : held)
    {
        VclosFuzzRequire(s.GetUplinkOwner(c.leaf, c.ocs) == ClusterOcsState::NO_JOB,
                         "a released circuit's leaf end is idle");
        auto at = s.GetCircuitAtUplink(c.leaf, c.ocs);
        VclosFuzzRequire(keep ? at && *at == c : !at,
                         "a released circuit stays connected (kept) or is torn down");
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    Bytes in(data, size);
    const uint32_t leaves = in.Next() % 9;
    const uint32_t ocs = in.Next() % 5;
    const uint32_t spines = in.Next() % 5;
    const uint32_t perOcs = in.Next() % 4;
    std::optional<ClusterOcsState> state;
    try
    {
        state.emplace(leaves, ocs, spines, perOcs);
    }
    catch (const std::exception& e)
    {
        VclosFuzzCheckRefusal(e, "");
        VclosFuzzRequire(leaves == 0 || ocs == 0 || spines == 0 || perOcs == 0,
                         "a layer of 1 to 8 leaves, 4 OCSs, 4 spines and 3 ports is accepted");
        return 0;
    }
    ClusterOcsState& s = *state;
    for (int requests = 0; in.More() && requests < 64; ++requests)
    {
        const uint8_t op = in.Next() % 4;
        const uint8_t jobByte = in.Next();
        const uint64_t job = jobByte == 0xff ? ClusterOcsState::NO_JOB : jobByte % 6;
        std::vector<ClusterOcsCircuit> circuits;
        if (op < 2)
        {
            for (uint8_t n = in.Next() % 6; n > 0; --n)
            {
                ClusterOcsCircuit c;
                c.leaf = in.Field();
                c.ocs = in.Field();
                c.toLeaf = (in.Next() & 1) != 0;
                c.peer = in.Field();
                c.peerPort = in.Field();
                circuits.push_back(c);
            }
        }
        const std::string before = Snapshot(s);
        const std::vector<ClusterOcsCircuit> held =
            s.HasJob(job) ? s.GetJobCircuits(job) : std::vector<ClusterOcsCircuit>{};
        try
        {
            if (op < 2)
            {
                CheckBooked(s, job, circuits, s.Book(job, circuits));
            }
            else
            {
                s.Release(job, op == 2);
                CheckReleased(s, job, held, op == 2);
            }
        }
        catch (const std::exception& e)
        {
            VclosFuzzCheckRefusal(e, "");
            VclosFuzzRequire(Snapshot(s) == before, "a refused request changes nothing");
        }
        CheckInvariants(s, op < 2 ? "a Book" : "a Release");
    }
    return 0;
}
