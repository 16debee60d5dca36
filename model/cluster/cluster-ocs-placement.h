/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_OCS_PLACEMENT_H
#define CLUSTER_OCS_PLACEMENT_H

#include "cluster-ocs-clos-search.h"
#include "cluster-ocs-state.h"
#include "cluster-placement.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup cluster
 * \brief Which stage of RapidNetSim's GpuPlacementer.schedule placed a job.
 */
enum class ClusterOcsStage
{
    SINGLE_LEAF,  //!< stage 1: one leaf, no circuit
    LEAF_PAIR,    //!< stage 2: two leaves joined by N/2 leaf-leaf circuits
    ONE_SPINE,    //!< stage 3: every GPU has its own circuit to one spine (m = N, n = 1)
    VIRTUAL_CLOS, //!< stage 4: m virtual leaves x n spines over circuits
};

/**
 * \param stage a stage
 * \return its name: "single-leaf", "leaf-pair", "one-spine", "virtual-clos"
 */
std::string ClusterOcsStageName(ClusterOcsStage stage);

/**
 * \ingroup cluster
 * \brief Where an OCS-vClos job goes: its GPUs, each GPU's uplink and the circuits to book.
 *
 * `placement` carries the GPUs (ascending), m, n, the job's spines (ascending; empty for the
 * single-leaf and leaf-pair stages), `uplinkSpine` per GPU (the spine its circuit reaches, -1
 * when none), searchNodes and provenBest; its `links` stay empty (no static links).
 *
 * Routing (balanced, as vClos): GPU number a (ascending id) of virtual leaf v goes up through
 * its uplink `uplinkOcs` to spine `spines[a]`; from there the flow goes down the circuit of
 * the destination's virtual leaf to that spine, i.e. to the uplink of GPU number a of the
 * destination's virtual leaf. In a leaf pair GPU a of the first leaf and GPU a of the second
 * share one leaf-leaf circuit. Every uplink used belongs to one GPU of one job.
 */
struct ClusterOcsPlacement
{
    ClusterPlacement placement;                           //!< GPUs, shape, spines, per-GPU spine
    ClusterOcsStage stage = ClusterOcsStage::SINGLE_LEAF; //!< the stage that placed the job
    std::vector<int32_t> uplinkOcs;          //!< per GPU: its leaf uplink port (= OCS), or -1
    std::vector<uint32_t> virtualLeaf;       //!< per GPU: its virtual leaf, 0 to m - 1
    std::vector<ClusterOcsCircuit> circuits; //!< circuits to book (ClusterOcsState::Book)
    uint32_t reusedCircuits = 0;             //!< of them, already set up idle (no reconfiguration)
};

/**
 * \ingroup cluster
 * \brief What one OCS-vClos decision cost, for refusals too.
 */
struct ClusterOcsSearchStats
{
    uint64_t searchNodes = 0; //!< stage-4 search nodes, all shapes
    bool cut = false;         //!< the node budget cut a shape's search (a refusal is unproven)
};

/**
 * \ingroup cluster
 * \brief OCS-vClos: the stages of the authors' GpuPlacementer.schedule (RapidNetSim), over an
 *        OCS layer.
 *
 * Notation: N GPUs, g GPUs per server, K OCSs (uplinks per leaf), P ports per spine per OCS.
 * A *virtual leaf* of n GPUs sits on one leaf: n / g wholly free servers when g divides n,
 * else any n free GPUs of the leaf (fewest servers, PickGpusInLeaf); a leaf may hold several
 * virtual leaves of one job, each with its own uplinks.
 *
 * 1. **Single leaf**: as vClos (VclosPolicy): the leaf with fewest free GPUs
 *    that holds N on as few servers as packing would; no circuit.
 * 2. **Leaf pair** (N even, N/2 <= GPUs per leaf): two leaves each holding one virtual leaf of
 *    N/2 GPUs, with at least N/2 OCSs on which both uplinks are idle; N/2 leaf-leaf circuits.
 *    Exact: all pairs; best fit = fewest free GPUs on the two leaves, then most reusable
 *    circuits.
 * 3. **One spine** (N <= K * P): m = N virtual leaves of one GPU, each with its own circuit to
 *    one spine. For each spine with at least N idle ports (fewest idle ports first: best
 *    fit) a max flow source -> leaf (free GPUs) -> OCS (idle uplink) -> sink (idle spine
 *    ports on that OCS) decides exactly whether it can take the job (Boost
 *    push_relabel_max_flow); the GPUs come from the shortest best-fit prefix of leaves
 *    (fewest free GPUs first) that reaches N.
 * 4. **Virtual Clos**: shapes m x n with m = odd part of N times 2^k, starting at
 *    max(odd part, N / GPUs per leaf) and doubling (n = N / m), for 2 <= n <= min(GPUs per
 *    leaf, K, S) and m >= 2. For each shape: choose m virtual leaves, n distinct spines, and
 *    for every (virtual leaf, spine) one circuit leaf uplink k -> spine port on OCS k, each
 *    uplink used once, each spine's ports on an OCS within its idle ones. Exact
 *    depth-first search: virtual leaves per leaf in best-fit order (fewest free GPUs first,
 *    as many virtual leaves per leaf as fit), then spines (fewest idle ports first: pack the
 *    fullest spines, as the objective of the authors' find_valid_network_new), each spine first
 *    checked by a max flow of the virtual leaves against its idle ports and the job's unused
 *    uplinks (exact for one spine), then its circuits, uplinks that reuse an idle circuit to that
 *    spine first, then uplinks whose OCS the fewest other candidate spines can use. The first
 *    solution is taken. A shape is skipped at once (proven) when fewer than n spines have m idle
 *    ports. Before its max flow, a spine must pass a bitset test (every virtual leaf has an unused
 *    idle uplink on an OCS where the spine has an idle port), and a node with fewer such spines
 *    left than it needs is cut. A node budget (MaxSearchNodes per shape) bounds the search: half of
 *    it for the best-fit spine order; when that is cut, the rest for the emptiest spines first.
 *    When the budget cuts, the next shape is tried and provenBest / ClusterOcsSearchStats::cut say
 *    so (a refusal is then not proven).
 *
 * Each stage is a static function a caller can run alone: PlaceSingleLeaf, PlaceLeafPair,
 * PlaceOneSpine (its max flow is a ClusterFlowNetwork) and PlaceVirtualClos (one
 * ClusterOcsClosSearch per shape); Place() checks the job and the states and tries them in
 * order.
 *
 * Circuits: a (leaf, spine) pair first takes a spine port whose idle circuit already joins
 * that leaf uplink, then an unconnected idle port, then any idle port (tearing its idle
 * circuit down). Failure causes (Diagnose): GPUS when fewer GPUs are free than N;
 * GPU_FRAGMENTATION when the job would not fit even with every circuit idle; else CIRCUITS.
 * Deterministic: the same states and job give the same placement.
 */
class VclosOcsPolicy : public ClusterPlacementPolicy
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId();

    /// Default: no OCS layer until Bind reads the topology's.
    VclosOcsPolicy();

    /**
     * \brief Constructor; throws std::invalid_argument for a bad shape or maxSearchNodes 0.
     * \param ocsCount K
     * \param spines S
     * \param spinePortsPerOcs P
     * \param maxSearchNodes stage-4 search nodes allowed per shape
     */
    VclosOcsPolicy(uint32_t ocsCount,
                   uint32_t spines,
                   uint32_t spinePortsPerOcs,
                   uint64_t maxSearchNodes = 5000);

    /**
     * \brief Find room for a job over the live circuit state.
     *
     * Throws std::invalid_argument for N = 0 or above the cluster, or when the two states
     * do not have the same leaves, or the circuit state not the policy's K, S and P.
     * \param state the GPUs (its spines and links are not used)
     * \param ocs the circuits
     * \param jobId the job id, copied to the result
     * \param gpus N
     * \param[out] stats if not null: the search's cost and whether the budget cut it
     * \return the placement, or std::nullopt when the job must wait
     */
    std::optional<ClusterOcsPlacement> Place(const ClusterState& state,
                                             const ClusterOcsState& ocs,
                                             uint64_t jobId,
                                             uint32_t gpus,
                                             ClusterOcsSearchStats* stats = nullptr) const;

    /**
     * \brief The base-class form: Place() over an idle circuit layer of the policy's shape
     * (what CanEverPlace needs). Schedulers use the form with the live ClusterOcsState.
     * \param state the GPUs
     * \param jobId the job id
     * \param gpus N
     * \return the placement (GPUs, shape, spines), or std::nullopt
     */
    std::optional<ClusterPlacement> Place(const ClusterState& state,
                                          uint64_t jobId,
                                          uint32_t gpus) const override;

    /**
     * \brief Why Place() found no room: GPUS, GPU_FRAGMENTATION (no room even with every
     * circuit idle) or CIRCUITS.
     * \param state the GPUs
     * \param ocs the circuits
     * \param gpus N
     * \return the cause
     */
    ClusterPlacementFailure Diagnose(const ClusterState& state,
                                     const ClusterOcsState& ocs,
                                     uint32_t gpus) const;

    std::string GetName() const override;

    /**
     * \brief Reads the OCS layer (uplinks per leaf = OCSs, spines, spine ports per OCS) and
     * starts with every circuit dark; throws std::invalid_argument without an OCS layer.
     * \param topology the cluster
     */
    void Bind(const ClusterTopology& topology) override;

    /**
     * \brief Place (stages 1 to 4) and book the job's GPUs and circuits (the circuits first:
     * ClusterOcsState::Book changes nothing when it refuses).
     * \param state the cluster
     * \param job the job
     * \return the allocation (uplinkPort, virtualLeaf and circuitsSetUp set)
     */
    std::optional<ClusterJobAllocation> Allocate(ClusterState& state,
                                                 const ClusterJobRequest& job) override;

    /**
     * \brief Free the job's GPUs and its circuits (kept lit when KeepIdleCircuits).
     * \param state the cluster
     * \param job the job
     */
    void Release(ClusterState& state, const ClusterJobRequest& job) override;

    /**
     * \brief As Diagnose(state, circuits, gpus) on the policy's own circuit state (Bind first).
     * \param state the cluster
     * \param gpus N
     * \return the cause
     */
    ClusterPlacementFailure Diagnose(const ClusterState& state, uint32_t gpus) const override;

    /// \return the circuit state (null before Bind)
    std::shared_ptr<const ClusterOcsState> GetCircuitState() const override;

    /**
     * \param allocation an allocation of this policy
     * \return ReconfigurationDelay when the booking set up a new circuit, else 0
     */
    Time GetStartDelay(const ClusterJobAllocation& allocation) const override;

    /**
     * \brief The stage-4 shapes of a job, in the order tried (see the class).
     * \param state the GPUs (only the shape is read)
     * \param gpus N
     * \return the n of each shape m x n
     */
    std::vector<uint32_t> GetShapes(const ClusterState& state, uint32_t gpus) const;

    /**
     * \brief Stage 1, single leaf: vClos's single-leaf rule (VclosPolicy), no circuit.
     * \param state the GPUs
     * \param jobId the job id, copied to the result
     * \param gpus N (1 to the cluster's GPUs; std::invalid_argument otherwise)
     * \return the placement (m = 1, n = N, every uplinkOcs -1), or std::nullopt when N is
     * above the GPUs per leaf or no leaf holds N on as few servers as packing would
     */
    static std::optional<ClusterOcsPlacement> PlaceSingleLeaf(const ClusterState& state,
                                                              uint64_t jobId,
                                                              uint32_t gpus);

    /**
     * \brief Stage 2, leaf pair: two leaves holding a virtual leaf of N/2 GPUs each, joined
     * by N/2 leaf-leaf circuits on OCSs where both uplinks are idle (see the class).
     * \param state the GPUs
     * \param ocs the circuits (K is read from it)
     * \param jobId the job id, copied to the result
     * \param gpus N (1 to the cluster's GPUs; std::invalid_argument otherwise)
     * \return the placement (m = 2, n = N/2), or std::nullopt when N is odd, N/2 is above
     * the GPUs per leaf or K, or no pair of leaves qualifies
     */
    static std::optional<ClusterOcsPlacement> PlaceLeafPair(const ClusterState& state,
                                                            const ClusterOcsState& ocs,
                                                            uint64_t jobId,
                                                            uint32_t gpus);

    /**
     * \brief Stage 3, one spine: every GPU with its own circuit to one spine, the first
     * spine in best-fit order whose max flow carries N (see the class).
     * \param state the GPUs
     * \param ocs the circuits (K and P are read from it)
     * \param jobId the job id, copied to the result
     * \param gpus N (1 to the cluster's GPUs; std::invalid_argument otherwise)
     * \return the placement (m = N, n = 1), or std::nullopt when N > K * P or no spine can
     * take the job
     */
    static std::optional<ClusterOcsPlacement> PlaceOneSpine(const ClusterState& state,
                                                            const ClusterOcsState& ocs,
                                                            uint64_t jobId,
                                                            uint32_t gpus);

    /**
     * \brief Stage 4, virtual Clos: the shapes m x n in order (n <= min(GPUs per leaf, K,
     * S)), each searched by a ClusterOcsClosSearch; the first shape with a solution wins.
     * \param state the GPUs
     * \param ocs the circuits (K and S are read from it)
     * \param jobId the job id, copied to the result
     * \param gpus N (1 to the cluster's GPUs; std::invalid_argument otherwise)
     * \param maxSearchNodes search nodes allowed per shape
     * \param[out] stats if not null: the nodes of all shapes searched, and whether a budget
     * cut a search
     * \return the placement, or std::nullopt when no shape has a solution
     */
    static std::optional<ClusterOcsPlacement> PlaceVirtualClos(
        const ClusterState& state,
        const ClusterOcsState& ocs,
        uint64_t jobId,
        uint32_t gpus,
        uint64_t maxSearchNodes,
        ClusterOcsSearchStats* stats = nullptr);

  private:
    /**
     * \brief Stage 4's placement from a search's solution: GPU a of each virtual leaf goes
     * up to the a-th spine (ascending) over the circuit the search chose.
     * \param state the GPUs
     * \param ocs the circuits
     * \param sol the solution
     * \param n GPUs per virtual leaf
     * \return the placement (no job id, search nodes or provenBest set)
     */
    static ClusterOcsPlacement VirtualClosPlacement(const ClusterState& state,
                                                    const ClusterOcsState& ocs,
                                                    const ClusterOcsClosSearch::Solution& sol,
                                                    uint32_t n);

    uint32_t m_ocsCount;                         //!< K
    uint32_t m_spines;                           //!< S
    uint32_t m_perOcs;                           //!< P
    uint64_t m_maxSearchNodes;                   //!< stage-4 node budget per shape
    bool m_keepIdleCircuits;                     //!< a finished job's circuits stay lit for reuse
    Time m_reconfigurationDelay;                 //!< wait for circuits set up at placement
    std::shared_ptr<ClusterOcsState> m_circuits; //!< the layer's circuits (Bind)
};

} // namespace ns3

#endif /* CLUSTER_OCS_PLACEMENT_H */
