/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_OCS_STATE_H
#define CLUSTER_OCS_STATE_H

#include <bitset>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class ClusterTopology;

/// Most OCSs (leaf uplinks) a ClusterOcsState holds (the authors' 8,192-GPU oxc_vclos
/// run in RapidNetSim has 32).
constexpr uint32_t CLUSTER_MAX_OCS = 256;

/**
 * \ingroup cluster
 * \brief A set of OCSs (bit k: OCS k, i.e. a leaf's uplink port k), fixed-size so that the
 * placement search never allocates for it.
 */
using ClusterOcsSet = std::bitset<CLUSTER_MAX_OCS>;

/**
 * \ingroup cluster
 * \brief One OCS circuit: a leaf's uplink port joined, inside OCS `ocs`, to a spine port or
 * to a second leaf's uplink port (leaf-leaf, stage 2 of the authors'
 * GpuPlacementer.schedule).
 *
 * Leaf uplink port k sits on OCS k, so the leaf end is (leaf, ocs). A spine's ports are
 * numbered 0 to SpinePorts - 1 and port q sits on OCS q / SpinePortsPerOcs (each OCS gets a
 * contiguous block). A circuit is valid only when both ends sit on `ocs`.
 */
struct ClusterOcsCircuit
{
    uint32_t leaf = 0;     //!< leaf end: this leaf's uplink port `ocs`
    uint32_t ocs = 0;      //!< the OCS
    bool toLeaf = false;   //!< false: to a spine port; true: to a second leaf (leaf-leaf)
    uint32_t peer = 0;     //!< the spine, or the second leaf
    uint32_t peerPort = 0; //!< the spine's port (0 to SpinePorts - 1), or the second leaf's uplink

    /**
     * \brief Equality (a leaf-leaf circuit equals its mirror image).
     * \param o another circuit
     * \return true when both join the same two ports
     */
    bool operator==(const ClusterOcsCircuit& o) const;
};

/**
 * \ingroup cluster
 * \brief What booking a job's circuits changed in the OCSs.
 */
struct ClusterOcsBookingReport
{
    uint32_t reused = 0;   //!< circuits that already existed idle (no reconfiguration)
    uint32_t setUp = 0;    //!< circuits newly set up (a reconfiguration each)
    uint32_t tornDown = 0; //!< idle circuits torn down to free a port
};

/**
 * \ingroup cluster
 * \brief The circuits of an OCS layer (laid out as in RapidNetSim's ConnectionManager)
 *        and which job owns each: pure bookkeeping.
 *
 * L leaves each have one uplink port on each of K OCSs (port k on OCS k); S spines each have
 * P ports on every OCS (SpinePorts = K * P; port q on OCS q / P). A circuit joins, inside one
 * OCS, a leaf port to a spine port or two leaf ports. A port is *idle* when no job owns it;
 * it may still be *connected* by an idle circuit left by a finished job: Release() keeps the
 * mirrors where they are, so a later job that wants the same leaf-spine pair reuses the
 * circuit without a reconfiguration, and Book() tears an idle circuit down only when it
 * needs one of its ports.
 *
 * Book() checks the whole request before changing anything: a port out of range, two ends
 * on different OCSs ("wrong OCS"), a port owned by a job, a port listed twice or a leaf
 * joined to itself throws (std::out_of_range, std::invalid_argument or std::logic_error,
 * one line) and leaves the state unchanged. Sizes: up to CLUSTER_MAX_OCS OCSs; the authors'
 * 8,192-GPU layer (RapidNetSim's oxc_vclos run: 256 leaves x 32 uplinks, 128 spines x 64 ports,
 * 32 OCSs, P = 2) holds 16,384 ports.
 */
class ClusterOcsState
{
  public:
    /// Owner value of an idle port.
    static constexpr uint64_t NO_JOB = UINT64_MAX;

    /**
     * \brief An idle, unconnected layer; throws std::invalid_argument naming a bad field.
     * \param leaves L, at least 1
     * \param ocsCount K: OCSs, i.e. uplinks per leaf, 1 to CLUSTER_MAX_OCS
     * \param spines S, at least 1
     * \param spinePortsPerOcs P: ports of each spine on each OCS, at least 1
     */
    ClusterOcsState(uint32_t leaves, uint32_t ocsCount, uint32_t spines, uint32_t spinePortsPerOcs);

    /**
     * \brief The layer a topology describes (OcsCount > 0; else std::invalid_argument).
     * \param topology the topology
     */
    explicit ClusterOcsState(const ClusterTopology& topology);

    /// \return L
    uint32_t GetLeaves() const;
    /// \return K
    uint32_t GetOcsCount() const;
    /// \return S
    uint32_t GetSpines() const;
    /// \return P
    uint32_t GetSpinePortsPerOcs() const;
    /// \return K * P
    uint32_t GetSpinePorts() const;
    /// \param spinePort a spine port \return the OCS it sits on
    uint32_t GetOcsOfSpinePort(uint32_t spinePort) const;

    /**
     * \brief Set up (or reuse) a job's circuits and make the job their owner, all or nothing.
     *
     * A circuit that already joins the same two ports (idle) is reused; otherwise any idle
     * circuit on either port is torn down first. An empty list books nothing (the job then
     * holds nothing). Throws (see the class) and changes nothing on a bad request, and
     * std::logic_error when the job already holds circuits, std::invalid_argument for NO_JOB.
     * \param jobId the job
     * \param circuits its circuits
     * \return what changed in the OCSs
     */
    ClusterOcsBookingReport Book(uint64_t jobId, const std::vector<ClusterOcsCircuit>& circuits);

    /**
     * \brief Free the job's ports; throws std::logic_error for a job holding none.
     * \param jobId the job
     * \param keepCircuits true: its circuits stay connected, idle and reusable without a
     *        reconfiguration; false: they are torn down (the authors'
     *        ConnectionManager.release_connection_resource sets them to -1 when a job ends)
     */
    void Release(uint64_t jobId, bool keepCircuits = true);

    /// \param jobId a job \return true when it holds circuits
    bool HasJob(uint64_t jobId) const;
    /// \return jobs holding circuits
    std::size_t GetJobCount() const;
    /// \param jobId a job holding circuits \return its circuits as booked
    const std::vector<ClusterOcsCircuit>& GetJobCircuits(uint64_t jobId) const;

    /// \param leaf a leaf \param ocs an OCS \return true when the leaf's uplink on it is idle
    bool IsUplinkIdle(uint32_t leaf, uint32_t ocs) const;
    /// \param leaf a leaf \return its idle uplinks (bit k: OCS k)
    const ClusterOcsSet& GetIdleUplinks(uint32_t leaf) const;
    /// \param leaf a leaf \return how many of its uplinks are idle
    uint32_t GetIdleUplinkCount(uint32_t leaf) const;
    /// \param spine a spine \param ocs an OCS \return its idle ports on that OCS
    uint32_t GetIdleSpinePorts(uint32_t spine, uint32_t ocs) const;
    /// \param spine a spine \return its idle ports on all OCSs
    uint32_t GetIdleSpinePortsOfSpine(uint32_t spine) const;
    /// \param leaf a leaf \param ocs an OCS \return the owner of the uplink, or NO_JOB
    uint64_t GetUplinkOwner(uint32_t leaf, uint32_t ocs) const;
    /// \param spine a spine \param port a spine port \return its owner, or NO_JOB
    uint64_t GetSpinePortOwner(uint32_t spine, uint32_t port) const;
    /**
     * \param leaf a leaf
     * \param ocs an OCS
     * \return the circuit (owned or idle) at the leaf's uplink, leaf end first, if any
     */
    std::optional<ClusterOcsCircuit> GetCircuitAtUplink(uint32_t leaf, uint32_t ocs) const;
    /**
     * \param spine a spine
     * \param port a spine port
     * \return true when an (owned or idle) circuit uses the port
     */
    bool IsSpinePortConnected(uint32_t spine, uint32_t port) const;
    /// \return circuits set up (owned or idle)
    uint32_t GetCircuitCount() const;
    /// \return true when no job owns a port
    bool IsIdle() const;

    /**
     * \brief Recount everything from the port arrays; throws std::logic_error on a mismatch.
     * For tests: O(ports + booked circuits).
     */
    void CheckInvariants() const;

  private:
    static constexpr uint32_t NONE = UINT32_MAX; //!< no port

    /// \param leaf a leaf \param ocs an OCS \return the port id
    uint32_t LeafPortId(uint32_t leaf, uint32_t ocs) const;
    /// \param spine a spine \param port a spine port \return the port id
    uint32_t SpinePortId(uint32_t spine, uint32_t port) const;
    /// \param id a port id \return true for a leaf port
    bool IsLeafPort(uint32_t id) const;
    /// \param id a connected port id \return the circuit it belongs to, leaf end first
    ClusterOcsCircuit CircuitOf(uint32_t id) const;
    /// \param id a port id \param owner its new owner (updates the idle counters)
    void SetOwner(uint32_t id, uint64_t owner);
    /// Disconnect the circuit at a port, if any. \param id a port id \return true if one was
    bool Disconnect(uint32_t id);
    /**
     * \brief Check a leaf-leaf circuit's far end (throws as Book).
     * \param jobId the booking job \param c its circuit, leaf and OCS in range
     * \return the far end's port id
     */
    uint32_t CheckedLeafPeer(uint64_t jobId, const ClusterOcsCircuit& c) const;
    /**
     * \brief Check a leaf-spine circuit's far end (throws as Book).
     * \param jobId the booking job \param c its circuit, leaf and OCS in range
     * \return the far end's port id
     */
    uint32_t CheckedSpinePeer(uint64_t jobId, const ClusterOcsCircuit& c) const;
    /**
     * \brief Check a whole booking, changing nothing (throws as Book): ranges, OCSs, ports
     *        owned by another job, a port listed twice.
     * \param jobId the booking job \param circuits its circuits
     * \return per circuit, (leaf port id, far end's port id)
     */
    std::vector<std::pair<uint32_t, uint32_t>> CheckedEnds(
        uint64_t jobId,
        const std::vector<ClusterOcsCircuit>& circuits) const;
    /**
     * \brief Set up checked circuits (reusing those already in place) and own their ports.
     * \param jobId the booking job \param ends per circuit, its two port ids
     * \return what changed
     */
    ClusterOcsBookingReport Connect(uint64_t jobId,
                                    const std::vector<std::pair<uint32_t, uint32_t>>& ends);

    uint32_t m_leaves;                    //!< L
    uint32_t m_ocs;                       //!< K
    uint32_t m_spines;                    //!< S
    uint32_t m_perOcs;                    //!< P
    std::vector<uint32_t> m_peer;         //!< per port id: the port at the other end, or NONE
    std::vector<uint64_t> m_owner;        //!< per port id: owner, or NO_JOB
    std::vector<ClusterOcsSet> m_idleUp;  //!< per leaf: idle uplinks
    std::vector<uint32_t> m_idleSpineOcs; //!< per spine * K + ocs: idle spine ports
    std::vector<uint32_t> m_idleSpine;    //!< per spine: idle ports
    uint32_t m_circuits = 0;              //!< circuits set up
    uint64_t m_ownedPorts = 0;            //!< ports owned by jobs
    std::map<uint64_t, std::vector<ClusterOcsCircuit>> m_jobs; //!< circuits per job
};

/**
 * \ingroup cluster
 * \brief The fixed circuit layout static policies (ecmp, source-routing, vclos) run on over an
 *        OCS layer: a full leaf-spine wiring, every leaf one circuit to every spine.
 *
 * Leaf l's uplink k goes to spine (k + floor(l / P)) mod S, on spine port k * P + l mod P
 * (OCS k). It exists when K = S (one uplink per spine) and L <= S * P (each spine has P ports
 * per OCS, and the leaves l with the same floor(l / P) share a spine on every OCS): then every
 * leaf reaches every spine by exactly one uplink and no spine port is used twice, i.e. the
 * static two-tier Clos of S spines with L ports each. The authors' 8,192-GPU OCS layer
 * (RapidNetSim's oxc_vclos run: K = 32, S = 128) has none.
 * \param topology a topology with an OCS layer
 * \return "" when the wiring exists, else one line saying why not
 */
std::string ClusterOcsFullWiringCheck(const ClusterTopology& topology);

/**
 * \param topology a topology whose full wiring exists (ClusterOcsFullWiringCheck)
 * \param leaf a leaf
 * \param spine a spine
 * \return the leaf's uplink port (OCS) whose static circuit reaches the spine
 */
uint32_t ClusterOcsFullWiringUplink(const ClusterTopology& topology, uint32_t leaf, uint32_t spine);

/**
 * \param topology a topology whose full wiring exists (else std::invalid_argument, one line)
 * \return every circuit of the full wiring (L * K), for ClusterOcsState::Book
 */
std::vector<ClusterOcsCircuit> ClusterOcsFullWiring(const ClusterTopology& topology);

} // namespace ns3

#endif /* CLUSTER_OCS_STATE_H */
