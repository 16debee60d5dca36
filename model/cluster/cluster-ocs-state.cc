/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-ocs-state.h"

#include "cluster-topology.h"

#include "ns3/suite-check.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

bool
ClusterOcsCircuit::operator==(const ClusterOcsCircuit& o) const
{
    if (ocs != o.ocs || toLeaf != o.toLeaf)
    {
        return false;
    }
    if (leaf == o.leaf && peer == o.peer && peerPort == o.peerPort)
    {
        return true;
    }
    return toLeaf && leaf == o.peer && peer == o.leaf;
}

ClusterOcsState::ClusterOcsState(uint32_t leaves,
                                 uint32_t ocsCount,
                                 uint32_t spines,
                                 uint32_t spinePortsPerOcs)
    : m_leaves(leaves),
      m_ocs(ocsCount),
      m_spines(spines),
      m_perOcs(spinePortsPerOcs)
{
    SUITE_REQUIRE(leaves > 0, std::invalid_argument, "ocs state: Leaves must be at least 1");
    SUITE_REQUIRE(ocsCount > 0 && ocsCount <= CLUSTER_MAX_OCS,
                  std::invalid_argument,
                  "ocs state: OcsCount must be 1 to " << CLUSTER_MAX_OCS << " (got " << ocsCount
                                                      << ")");
    SUITE_REQUIRE(spines > 0, std::invalid_argument, "ocs state: Spines must be at least 1");
    SUITE_REQUIRE(spinePortsPerOcs > 0,
                  std::invalid_argument,
                  "ocs state: spine ports per OCS must be at least 1");
    const uint64_t ports =
        uint64_t(leaves) * ocsCount + uint64_t(spines) * ocsCount * spinePortsPerOcs;
    SUITE_REQUIRE(ports < (uint64_t(1) << 30),
                  std::invalid_argument,
                  "ocs state: too many ports (" << ports << ")");
    m_peer.assign(ports, NONE);
    m_owner.assign(ports, NO_JOB);
    ClusterOcsSet all;
    for (uint32_t k = 0; k < ocsCount; ++k)
    {
        all.set(k);
    }
    m_idleUp.assign(leaves, all);
    m_idleSpineOcs.assign(uint64_t(spines) * ocsCount, spinePortsPerOcs);
    m_idleSpine.assign(spines, ocsCount * spinePortsPerOcs);
}

namespace
{

/// The OCS numbers of a topology, checked.
const ClusterTopologyConfig&
OcsConfigOf(const ClusterTopology& topology)
{
    SUITE_REQUIRE(topology.HasOcs(),
                  std::invalid_argument,
                  "ocs state: the topology has no OCS layer (OcsCount = 0)");
    return topology.GetConfig();
}

} // namespace

ClusterOcsState::ClusterOcsState(const ClusterTopology& topology)
    : ClusterOcsState(topology.GetLeaves(),
                      OcsConfigOf(topology).ocsCount,
                      topology.GetSpines(),
                      topology.GetSpinePortsPerOcs())
{
}

uint32_t
ClusterOcsState::GetLeaves() const
{
    return m_leaves;
}

uint32_t
ClusterOcsState::GetOcsCount() const
{
    return m_ocs;
}

uint32_t
ClusterOcsState::GetSpines() const
{
    return m_spines;
}

uint32_t
ClusterOcsState::GetSpinePortsPerOcs() const
{
    return m_perOcs;
}

uint32_t
ClusterOcsState::GetSpinePorts() const
{
    return m_ocs * m_perOcs;
}

uint32_t
ClusterOcsState::GetOcsOfSpinePort(uint32_t spinePort) const
{
    SUITE_REQUIRE(spinePort < GetSpinePorts(),
                  std::out_of_range,
                  "ocs state: spine port " << spinePort << " is outside 0.."
                                           << GetSpinePorts() - 1);
    return spinePort / m_perOcs;
}

uint32_t
ClusterOcsState::LeafPortId(uint32_t leaf, uint32_t ocs) const
{
    return leaf * m_ocs + ocs;
}

uint32_t
ClusterOcsState::SpinePortId(uint32_t spine, uint32_t port) const
{
    return m_leaves * m_ocs + spine * GetSpinePorts() + port;
}

bool
ClusterOcsState::IsLeafPort(uint32_t id) const
{
    return id < m_leaves * m_ocs;
}

ClusterOcsCircuit
ClusterOcsState::CircuitOf(uint32_t id) const
{
    uint32_t a = id;
    uint32_t b = m_peer[id];
    if (!IsLeafPort(a))
    {
        std::swap(a, b);
    }
    ClusterOcsCircuit c;
    c.leaf = a / m_ocs;
    c.ocs = a % m_ocs;
    if (IsLeafPort(b))
    {
        c.toLeaf = true;
        c.peer = b / m_ocs;
        c.peerPort = b % m_ocs;
    }
    else
    {
        const uint32_t s = b - m_leaves * m_ocs;
        c.peer = s / GetSpinePorts();
        c.peerPort = s % GetSpinePorts();
    }
    return c;
}

void
ClusterOcsState::SetOwner(uint32_t id, uint64_t owner)
{
    const bool wasIdle = m_owner[id] == NO_JOB;
    const bool isIdle = owner == NO_JOB;
    m_owner[id] = owner;
    if (wasIdle == isIdle)
    {
        return;
    }
    if (isIdle)
    {
        --m_ownedPorts;
    }
    else
    {
        ++m_ownedPorts;
    }
    if (IsLeafPort(id))
    {
        m_idleUp[id / m_ocs].set(id % m_ocs, isIdle);
        return;
    }
    const uint32_t s = id - m_leaves * m_ocs;
    const uint32_t spine = s / GetSpinePorts();
    const uint32_t ocs = (s % GetSpinePorts()) / m_perOcs;
    if (isIdle)
    {
        ++m_idleSpineOcs[spine * m_ocs + ocs];
        ++m_idleSpine[spine];
    }
    else
    {
        --m_idleSpineOcs[spine * m_ocs + ocs];
        --m_idleSpine[spine];
    }
}

bool
ClusterOcsState::Disconnect(uint32_t id)
{
    const uint32_t other = m_peer[id];
    if (other == NONE)
    {
        return false;
    }
    m_peer[id] = NONE;
    m_peer[other] = NONE;
    --m_circuits;
    return true;
}

uint32_t
ClusterOcsState::CheckedLeafPeer(uint64_t jobId, const ClusterOcsCircuit& c) const
{
    SUITE_REQUIRE(c.peer < m_leaves,
                  std::out_of_range,
                  "ocs book: job " << jobId << " circuit leaf" << c.leaf << "-leaf" << c.peer
                                   << ": leaf is outside 0.." << m_leaves - 1);
    SUITE_REQUIRE(c.peerPort < m_ocs,
                  std::out_of_range,
                  "ocs book: job " << jobId << " circuit leaf" << c.leaf << "-leaf" << c.peer
                                   << ": uplink port " << c.peerPort << " is outside 0.."
                                   << m_ocs - 1);
    SUITE_REQUIRE(c.peerPort == c.ocs,
                  std::invalid_argument,
                  "ocs book: job " << jobId << " circuit on OCS " << c.ocs << " leaf" << c.leaf
                                   << "-leaf" << c.peer << ": wrong OCS, uplink " << c.peerPort
                                   << " sits on OCS " << c.peerPort);
    SUITE_REQUIRE(c.peer != c.leaf,
                  std::invalid_argument,
                  "ocs book: job " << jobId << " circuit joins leaf " << c.leaf << " to itself");
    return LeafPortId(c.peer, c.peerPort);
}

uint32_t
ClusterOcsState::CheckedSpinePeer(uint64_t jobId, const ClusterOcsCircuit& c) const
{
    SUITE_REQUIRE(c.peer < m_spines,
                  std::out_of_range,
                  "ocs book: job " << jobId << " circuit leaf" << c.leaf << "-spine" << c.peer
                                   << ": spine is outside 0.." << m_spines - 1);
    SUITE_REQUIRE(c.peerPort < GetSpinePorts(),
                  std::out_of_range,
                  "ocs book: job " << jobId << " circuit leaf" << c.leaf << "-spine" << c.peer
                                   << ": spine port " << c.peerPort << " is outside 0.."
                                   << GetSpinePorts() - 1);
    SUITE_REQUIRE(c.peerPort / m_perOcs == c.ocs,
                  std::invalid_argument,
                  "ocs book: job " << jobId << " circuit on OCS " << c.ocs << " leaf" << c.leaf
                                   << "-spine" << c.peer << ": wrong OCS, spine port " << c.peerPort
                                   << " sits on OCS " << c.peerPort / m_perOcs);
    return SpinePortId(c.peer, c.peerPort);
}

std::vector<std::pair<uint32_t, uint32_t>>
ClusterOcsState::CheckedEnds(uint64_t jobId, const std::vector<ClusterOcsCircuit>& circuits) const
{
    std::vector<std::pair<uint32_t, uint32_t>> ends;
    ends.reserve(circuits.size());
    std::vector<uint32_t> listed;
    for (const auto& c : circuits)
    {
        SUITE_REQUIRE(c.leaf < m_leaves,
                      std::out_of_range,
                      "ocs book: job " << jobId << " circuit from leaf " << c.leaf
                                       << ": leaf is outside 0.." << m_leaves - 1);
        SUITE_REQUIRE(c.ocs < m_ocs,
                      std::out_of_range,
                      "ocs book: job " << jobId << " circuit from leaf " << c.leaf << ": OCS "
                                       << c.ocs << " is outside 0.." << m_ocs - 1);
        const uint32_t peerId = c.toLeaf ? CheckedLeafPeer(jobId, c) : CheckedSpinePeer(jobId, c);
        const uint32_t leafId = LeafPortId(c.leaf, c.ocs);
        for (uint32_t id : {leafId, peerId})
        {
            SUITE_REQUIRE(m_owner[id] == NO_JOB,
                          std::logic_error,
                          "ocs book: job " << jobId << " circuit leaf" << c.leaf << "/ocs" << c.ocs
                                           << "-" << (c.toLeaf ? "leaf" : "spine") << c.peer
                                           << "/port" << c.peerPort << ": a port is in use by job "
                                           << m_owner[id]);
            listed.push_back(id);
        }
        ends.emplace_back(leafId, peerId);
    }
    std::sort(listed.begin(), listed.end());
    auto twice = std::adjacent_find(listed.begin(), listed.end());
    SUITE_REQUIRE(twice == listed.end(),
                  std::logic_error,
                  "ocs book: job " << jobId << " lists a port twice ("
                                   << (twice != listed.end() && IsLeafPort(*twice) ? "a leaf uplink"
                                                                                   : "a spine port")
                                   << ")");
    return ends;
}

ClusterOcsBookingReport
ClusterOcsState::Connect(uint64_t jobId, const std::vector<std::pair<uint32_t, uint32_t>>& ends)
{
    ClusterOcsBookingReport report;
    for (const auto& [a, b] : ends)
    {
        if (m_peer[a] == b)
        {
            ++report.reused;
        }
        else
        {
            report.tornDown += Disconnect(a) ? 1 : 0;
            report.tornDown += Disconnect(b) ? 1 : 0;
            m_peer[a] = b;
            m_peer[b] = a;
            ++m_circuits;
            ++report.setUp;
        }
        SetOwner(a, jobId);
        SetOwner(b, jobId);
    }
    return report;
}

ClusterOcsBookingReport
ClusterOcsState::Book(uint64_t jobId, const std::vector<ClusterOcsCircuit>& circuits)
{
    SUITE_REQUIRE(jobId != NO_JOB, std::invalid_argument, "ocs book: job id NO_JOB is reserved");
    SUITE_REQUIRE(m_jobs.count(jobId) == 0,
                  std::logic_error,
                  "ocs book: job " << jobId << " already holds circuits");
    // Check everything first, then set up and own.
    const std::vector<std::pair<uint32_t, uint32_t>> ends = CheckedEnds(jobId, circuits);
    const ClusterOcsBookingReport report = Connect(jobId, ends);
    if (!circuits.empty())
    {
        m_jobs[jobId] = circuits;
    }
    return report;
}

void
ClusterOcsState::Release(uint64_t jobId, bool keepCircuits)
{
    auto it = m_jobs.find(jobId);
    SUITE_REQUIRE(it != m_jobs.end(),
                  std::logic_error,
                  "ocs release: job " << jobId << " holds no circuits");
    for (const auto& c : it->second)
    {
        const uint32_t a = LeafPortId(c.leaf, c.ocs);
        const uint32_t b =
            c.toLeaf ? LeafPortId(c.peer, c.peerPort) : SpinePortId(c.peer, c.peerPort);
        SUITE_REQUIRE(m_owner[a] == jobId && m_owner[b] == jobId && m_peer[a] == b,
                      std::logic_error,
                      "ocs release: job " << jobId << " circuit from leaf " << c.leaf << " OCS "
                                          << c.ocs << " is not held by it");
        SetOwner(a, NO_JOB);
        SetOwner(b, NO_JOB);
        if (!keepCircuits)
        {
            Disconnect(a);
        }
    }
    m_jobs.erase(it);
}

bool
ClusterOcsState::HasJob(uint64_t jobId) const
{
    return m_jobs.count(jobId) != 0;
}

std::size_t
ClusterOcsState::GetJobCount() const
{
    return m_jobs.size();
}

const std::vector<ClusterOcsCircuit>&
ClusterOcsState::GetJobCircuits(uint64_t jobId) const
{
    auto it = m_jobs.find(jobId);
    SUITE_REQUIRE(it != m_jobs.end(),
                  std::logic_error,
                  "ocs state: job " << jobId << " holds no circuits");
    return it->second;
}

bool
ClusterOcsState::IsUplinkIdle(uint32_t leaf, uint32_t ocs) const
{
    return GetUplinkOwner(leaf, ocs) == NO_JOB;
}

const ClusterOcsSet&
ClusterOcsState::GetIdleUplinks(uint32_t leaf) const
{
    SUITE_REQUIRE(leaf < m_leaves,
                  std::out_of_range,
                  "ocs state: leaf " << leaf << " is out of range");
    return m_idleUp[leaf];
}

uint32_t
ClusterOcsState::GetIdleUplinkCount(uint32_t leaf) const
{
    return static_cast<uint32_t>(GetIdleUplinks(leaf).count());
}

uint32_t
ClusterOcsState::GetIdleSpinePorts(uint32_t spine, uint32_t ocs) const
{
    SUITE_REQUIRE(spine < m_spines && ocs < m_ocs,
                  std::out_of_range,
                  "ocs state: spine " << spine << " OCS " << ocs << " is out of range");
    return m_idleSpineOcs[spine * m_ocs + ocs];
}

uint32_t
ClusterOcsState::GetIdleSpinePortsOfSpine(uint32_t spine) const
{
    SUITE_REQUIRE(spine < m_spines,
                  std::out_of_range,
                  "ocs state: spine " << spine << " is out of range");
    return m_idleSpine[spine];
}

uint64_t
ClusterOcsState::GetUplinkOwner(uint32_t leaf, uint32_t ocs) const
{
    SUITE_REQUIRE(leaf < m_leaves && ocs < m_ocs,
                  std::out_of_range,
                  "ocs state: leaf " << leaf << " OCS " << ocs << " is out of range");
    return m_owner[LeafPortId(leaf, ocs)];
}

uint64_t
ClusterOcsState::GetSpinePortOwner(uint32_t spine, uint32_t port) const
{
    SUITE_REQUIRE(spine < m_spines && port < GetSpinePorts(),
                  std::out_of_range,
                  "ocs state: spine " << spine << " port " << port << " is out of range");
    return m_owner[SpinePortId(spine, port)];
}

std::optional<ClusterOcsCircuit>
ClusterOcsState::GetCircuitAtUplink(uint32_t leaf, uint32_t ocs) const
{
    SUITE_REQUIRE(leaf < m_leaves && ocs < m_ocs,
                  std::out_of_range,
                  "ocs state: leaf " << leaf << " OCS " << ocs << " is out of range");
    const uint32_t id = LeafPortId(leaf, ocs);
    if (m_peer[id] == NONE)
    {
        return std::nullopt;
    }
    ClusterOcsCircuit c = CircuitOf(id);
    if (c.toLeaf && c.leaf != leaf)
    {
        std::swap(c.leaf, c.peer);
    }
    return c;
}

bool
ClusterOcsState::IsSpinePortConnected(uint32_t spine, uint32_t port) const
{
    SUITE_REQUIRE(spine < m_spines && port < GetSpinePorts(),
                  std::out_of_range,
                  "ocs state: spine " << spine << " port " << port << " is out of range");
    return m_peer[SpinePortId(spine, port)] != NONE;
}

uint32_t
ClusterOcsState::GetCircuitCount() const
{
    return m_circuits;
}

bool
ClusterOcsState::IsIdle() const
{
    return m_ownedPorts == 0;
}

void
ClusterOcsState::CheckInvariants() const
{
    const uint32_t ports = static_cast<uint32_t>(m_peer.size());
    uint32_t circuits = 0;
    uint64_t owned = 0;
    std::vector<ClusterOcsSet> idleUp(m_leaves);
    std::vector<uint32_t> idleSpineOcs(m_idleSpineOcs.size(), 0);
    for (uint32_t id = 0; id < ports; ++id)
    {
        const uint32_t other = m_peer[id];
        owned += m_owner[id] != NO_JOB ? 1 : 0;
        if (IsLeafPort(id))
        {
            idleUp[id / m_ocs].set(id % m_ocs, m_owner[id] == NO_JOB);
        }
        else if (m_owner[id] == NO_JOB)
        {
            const uint32_t s = id - m_leaves * m_ocs;
            ++idleSpineOcs[(s / GetSpinePorts()) * m_ocs + (s % GetSpinePorts()) / m_perOcs];
        }
        if (other == NONE)
        {
            SUITE_REQUIRE(m_owner[id] == NO_JOB,
                          std::logic_error,
                          "ocs invariant: port " << id << " is owned but not connected");
            continue;
        }
        SUITE_REQUIRE(other < ports && m_peer[other] == id,
                      std::logic_error,
                      "ocs invariant: port " << id << " and its peer disagree");
        SUITE_REQUIRE(IsLeafPort(id) || IsLeafPort(other),
                      std::logic_error,
                      "ocs invariant: a circuit joins two spine ports");
        SUITE_REQUIRE(m_owner[id] == m_owner[other],
                      std::logic_error,
                      "ocs invariant: the two ends of a circuit have different owners");
        const ClusterOcsCircuit c = CircuitOf(id);
        SUITE_REQUIRE(c.toLeaf ? c.peerPort == c.ocs : c.peerPort / m_perOcs == c.ocs,
                      std::logic_error,
                      "ocs invariant: a circuit joins two OCSs");
        circuits += id < other ? 1 : 0;
    }
    SUITE_REQUIRE(circuits == m_circuits, std::logic_error, "ocs invariant: circuit count");
    SUITE_REQUIRE(owned == m_ownedPorts, std::logic_error, "ocs invariant: owned port count");
    SUITE_REQUIRE(idleUp == m_idleUp, std::logic_error, "ocs invariant: idle uplinks");
    SUITE_REQUIRE(idleSpineOcs == m_idleSpineOcs,
                  std::logic_error,
                  "ocs invariant: idle spine ports per OCS");
    for (uint32_t s = 0; s < m_spines; ++s)
    {
        uint32_t sum = 0;
        for (uint32_t k = 0; k < m_ocs; ++k)
        {
            sum += m_idleSpineOcs[s * m_ocs + k];
        }
        SUITE_REQUIRE(sum == m_idleSpine[s], std::logic_error, "ocs invariant: idle spine ports");
    }
    uint64_t jobPorts = 0;
    for (const auto& [job, list] : m_jobs)
    {
        for (const auto& c : list)
        {
            const uint32_t a = LeafPortId(c.leaf, c.ocs);
            const uint32_t b =
                c.toLeaf ? LeafPortId(c.peer, c.peerPort) : SpinePortId(c.peer, c.peerPort);
            SUITE_REQUIRE(m_owner[a] == job && m_owner[b] == job && m_peer[a] == b,
                          std::logic_error,
                          "ocs invariant: job " << job << " does not hold its circuit");
            jobPorts += 2;
        }
    }
    SUITE_REQUIRE(jobPorts == m_ownedPorts,
                  std::logic_error,
                  "ocs invariant: owned ports outside the jobs' circuits");
}

std::string
ClusterOcsFullWiringCheck(const ClusterTopology& topology)
{
    const ClusterTopologyConfig& c = OcsConfigOf(topology);
    const uint32_t perOcs = topology.GetSpinePortsPerOcs();
    std::ostringstream why;
    if (c.ocsCount != c.spines)
    {
        why << "no full leaf-spine wiring over the OCS layer: it needs OcsCount = Spines (got "
            << c.ocsCount << " and " << c.spines << ")";
    }
    else if (uint64_t(c.leaves) > uint64_t(c.spines) * perOcs)
    {
        why << "no full leaf-spine wiring over the OCS layer: it needs Leaves <= SpinePorts ("
            << c.leaves << " > " << c.spines * perOcs << ")";
    }
    return why.str();
}

uint32_t
ClusterOcsFullWiringUplink(const ClusterTopology& topology, uint32_t leaf, uint32_t spine)
{
    const uint32_t spines = topology.GetSpines();
    const uint32_t group = (leaf / topology.GetSpinePortsPerOcs()) % spines;
    return (spine + spines - group) % spines;
}

std::vector<ClusterOcsCircuit>
ClusterOcsFullWiring(const ClusterTopology& topology)
{
    const std::string bad = ClusterOcsFullWiringCheck(topology);
    SUITE_REQUIRE(bad.empty(), std::invalid_argument, bad);
    const uint32_t perOcs = topology.GetSpinePortsPerOcs();
    const uint32_t spines = topology.GetSpines();
    std::vector<ClusterOcsCircuit> circuits;
    for (uint32_t leaf = 0; leaf < topology.GetLeaves(); ++leaf)
    {
        for (uint32_t k = 0; k < topology.GetUplinksPerLeaf(); ++k)
        {
            ClusterOcsCircuit circuit;
            circuit.leaf = leaf;
            circuit.ocs = k;
            circuit.peer = (k + leaf / perOcs) % spines;
            circuit.peerPort = k * perOcs + leaf % perOcs;
            circuits.push_back(circuit);
        }
    }
    return circuits;
}

} // namespace ns3
