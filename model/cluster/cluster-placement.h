/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_PLACEMENT_H
#define CLUSTER_PLACEMENT_H

#include "cluster-job-executor.h"
#include "cluster-state.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup cluster
 * \brief Where a job goes: its GPUs, its reserved links and the uplink of each GPU.
 *
 * A placement is a proposal: ClusterState::Allocate(jobId, gpus, links) books it.
 */
struct ClusterPlacement
{
    uint64_t jobId = 0;                      //!< the job
    std::vector<uint32_t> gpus;              //!< GPU ids, ascending (leaf, server, GPU order)
    std::vector<ClusterLeafSpineLink> links; //!< leaf-spine links reserved for the job
    /**
     * Per GPU (same order as gpus): the spine its traffic leaving the leaf goes up through,
     * or -1 when not pinned (per-flow ECMP hashing, or a single-leaf vClos job that never
     * leaves its leaf).
     */
    std::vector<int32_t> uplinkSpine;
    std::vector<uint32_t> spines; //!< vClos: the job's n spines, ascending (else empty)
    uint32_t m = 0;               //!< leaves used
    uint32_t n = 0;               //!< GPUs per leaf (vClos: on every leaf; else the largest)
    uint64_t searchNodes = 0;     //!< vClos: search nodes visited for this decision
    bool provenBest = true;       //!< vClos: false when the search budget cut the search
};

/**
 * \ingroup cluster
 * \brief Why a job that did not get room must wait (ClusterPlacementPolicy::Diagnose).
 */
enum class ClusterPlacementFailure
{
    GPUS,                  //!< fewer free GPUs than the job needs
    GPU_FRAGMENTATION,     //!< enough free GPUs, not on servers / leaves the policy may use
    NETWORK_FRAGMENTATION, //!< room in GPUs, but no placement whose links are all free
    CIRCUITS,              //!< reserved for OCS-vClos: no circuits can be set up
};

/**
 * \param cause a failure cause
 * \return its name: "gpus", "gpu-fragmentation", "network-fragmentation", "circuits"
 */
std::string ClusterPlacementFailureName(ClusterPlacementFailure cause);

/**
 * \ingroup cluster
 * \brief A placement policy: finds room for a job in a cluster state, or says it must wait.
 *
 * Place() never changes the state and never returns a partial placement: either every GPU
 * (and, for vClos, every link) of the job, or std::nullopt (the job waits). It throws
 * std::invalid_argument for a job of 0 GPUs or larger than the cluster. Policies are
 * deterministic: the same state and job give the same placement.
 *
 * Policies are ns-3 Objects chosen by TypeId, their parameters Attributes
 * (ClusterCreatePlacementPolicy maps the scenario files' names to a TypeId and attribute
 * values, ClusterPlacementPolicyNames lists them). The scheduler knows a policy only through
 * Bind, Allocate, Release, Diagnose, GetCircuitState and GetStartDelay: a policy that books
 * more than GPUs and links (OCS-vClos and its circuits) overrides them.
 */
class ClusterPlacementPolicy : public Object
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId();

    ~ClusterPlacementPolicy() override = default;

    /**
     * \brief Called once by the scheduler before the first job: the policy reads what it needs
     * of the cluster. Default: on an OCS layer, a static policy needs the fixed full
     * leaf-spine wiring (ClusterOcsFullWiringCheck); throws std::invalid_argument otherwise.
     * \param topology the cluster
     */
    virtual void Bind(const ClusterTopology& topology);

    /**
     * \brief Place a job and book what it holds. Default: Place(), then the GPUs and links in
     * `state`.
     * \param state the cluster, booked on success
     * \param job the job
     * \return what the executor needs to run the job, or std::nullopt when it must wait
     */
    virtual std::optional<ClusterJobAllocation> Allocate(ClusterState& state,
                                                         const ClusterJobRequest& job);

    /**
     * \brief Free what Allocate booked for a finished job. Default: its GPUs and links.
     * \param state the cluster
     * \param job the job
     */
    virtual void Release(ClusterState& state, const ClusterJobRequest& job);

    /// \return the policy's circuit state (null for a policy without circuits, the default)
    virtual std::shared_ptr<const ClusterOcsState> GetCircuitState() const;

    /**
     * \param allocation an allocation this policy made
     * \return how long the job waits between its placement and its start (0 by default)
     */
    virtual Time GetStartDelay(const ClusterJobAllocation& allocation) const;

    /**
     * \brief Find room for a job.
     * \param state the cluster
     * \param jobId the job id, copied to the result
     * \param gpus N, the job's GPUs
     * \return the placement, or std::nullopt when the job must wait
     */
    virtual std::optional<ClusterPlacement> Place(const ClusterState& state,
                                                  uint64_t jobId,
                                                  uint32_t gpus) const = 0;

    /// \return the policy's name, as ClusterCreatePlacementPolicy accepts it
    virtual std::string GetName() const = 0;

    /**
     * \brief Why Place() found no room (call it only after Place() returned nothing).
     *
     * GPUS when fewer GPUs are free than the job needs. Otherwise GPU_FRAGMENTATION by
     * default (no links are reserved, so the layout of the free GPUs is the cause); vClos
     * tells NETWORK_FRAGMENTATION apart (see VclosPolicy::Diagnose).
     * \param state the cluster
     * \param gpus N, the job's GPUs
     * \return the cause
     */
    virtual ClusterPlacementFailure Diagnose(const ClusterState& state, uint32_t gpus) const;

    /**
     * \brief Whether a job of N GPUs can ever start: Place() on an idle cluster of the same
     * shape (every policy here is monotone: freeing GPUs or links never removes a placement,
     * so a job that fits the idle cluster starts once enough jobs have finished, and FIFO
     * cannot block for ever on it).
     * \param shape a cluster of the shape (its bookings are ignored)
     * \param gpus N
     * \return true when the job fits the idle cluster
     */
    bool CanEverPlace(const ClusterState& shape, uint32_t gpus) const;

  protected:
    /**
     * \brief Throw std::invalid_argument for N = 0 or N above the cluster's GPUs.
     * \param state the cluster
     * \param gpus N
     */
    static void CheckJobSize(const ClusterState& state, uint32_t gpus);

    /**
     * \brief Pick `count` free GPUs of one leaf, in as few servers as possible: whole free
     * servers while count >= GPUs per server, else the free server that fits most tightly
     * (best fit), falling back to the servers with most free GPUs.
     * \param state the cluster
     * \param leaf the leaf, with at least `count` free GPUs
     * \param count GPUs wanted
     * \return GPU ids, ascending
     */
    static std::vector<uint32_t> PickGpusInLeaf(const ClusterState& state,
                                                uint32_t leaf,
                                                uint32_t count);
};

/**
 * \ingroup cluster
 * \brief Network-unaware packing over servers: the "ECMP" and "source routing" baselines.
 *
 * As the authors' static_scheduler: a job of N <= GPUs per server goes onto one server
 * (first fit: the lowest-numbered server with N free GPUs; best fit: the one with the
 * fewest free GPUs that fits); a larger job takes whole free servers (first fit: lowest
 * numbers; best fit: on the leaves with the fewest free GPUs first, to keep other leaves
 * empty) plus, when N is not a multiple of the server size, the remainder on one more
 * server chosen as for a small job. No link is reserved. Routing: ECMP leaves every
 * uplinkSpine at -1 (hashed); source routing pins GPU i of its leaf to spine i mod S.
 * O(servers log servers) per decision.
 */
class ClusterPackingPolicy : public ClusterPlacementPolicy
{
  public:
    /// Server choice.
    enum Fit
    {
        FIRST_FIT, //!< lowest-numbered servers
        BEST_FIT   //!< tightest servers and leaves
    };

    /// Uplink choice.
    enum Routing
    {
        ECMP_ROUTING,  //!< per-flow hashing: uplinkSpine -1
        SOURCE_ROUTING //!< uplink = GPU index in its leaf mod spines
    };

    /// \return the object TypeId
    static TypeId GetTypeId();

    /// Default: first fit, ECMP (attributes Fit and Routing).
    ClusterPackingPolicy();

    /**
     * \brief Constructor.
     * \param fit server choice
     * \param routing uplink choice
     */
    ClusterPackingPolicy(Fit fit, Routing routing);

    std::optional<ClusterPlacement> Place(const ClusterState& state,
                                          uint64_t jobId,
                                          uint32_t gpus) const override;
    std::string GetName() const override;

  private:
    Fit m_fit;         //!< server choice
    Routing m_routing; //!< uplink choice
};

/**
 * \ingroup cluster
 * \brief RapidNetSim's network-unaware baseline placement
 * (`static_scheduler_multi_cluster`): the policies "ecmp" and "source-routing".
 *
 * The servers (global index, leaf-major) are split into SubClusters contiguous ranges of
 * equal size (the first ranges one server larger when the count does not divide; with fewer
 * servers than SubClusters, one server each); a job never spans two. Sub-clusters are tried
 * in index order and the job goes to the first where it fits. Inside a sub-cluster, servers
 * are sorted by free GPUs ascending (ties: lowest index): a job of N <= GPUs per server takes
 * the first server with >= N free GPUs (best fit); a larger job takes floor(N / g) wholly
 * free servers (lowest index first) and, when g does not divide N, the remaining N mod g GPUs
 * on the first other server with that many free. No link is reserved. Routing as
 * ClusterPackingPolicy: ECMP leaves uplinks to the hash, source routing pins GPU i of its
 * leaf to spine i mod S. A job larger than a sub-cluster can never be placed (CanEverPlace).
 * O(servers log servers) per decision.
 */
class ClusterMultiClusterPolicy : public ClusterPlacementPolicy
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId();

    /// Default: ECMP, 4 sub-clusters (attributes Routing and SubClusters).
    ClusterMultiClusterPolicy();

    /**
     * \brief Constructor; throws std::invalid_argument for subClusters 0.
     * \param routing uplink choice
     * \param subClusters sub-clusters (the authors' baseline: 4)
     */
    explicit ClusterMultiClusterPolicy(ClusterPackingPolicy::Routing routing,
                                       uint32_t subClusters = 4);

    std::optional<ClusterPlacement> Place(const ClusterState& state,
                                          uint64_t jobId,
                                          uint32_t gpus) const override;
    std::string GetName() const override;

  private:
    ClusterPackingPolicy::Routing m_routing; //!< uplink choice
    uint32_t m_subClusters;                  //!< sub-clusters
};

/**
 * \ingroup cluster
 * \brief vClos: an isolated m x n virtual Clos per job, with balanced routing.
 *
 * **Single leaf.** A job of N <= GPUs per leaf that fits in one leaf goes to the leaf with
 * the fewest free GPUs among those with at least N (best fit; ties: lowest index), on as
 * few servers as possible (PickGpusInLeaf). With whole servers (the default) a leaf
 * qualifies only when it holds the job on as few servers as the packing baselines would
 * (as the authors' StaticPlacementer.schedule in LumosCore: enough free servers on the leaf):
 * floor(N / g) wholly free servers and the rest on one more server; a job of N <= g is never
 * split across servers. No link is reserved, no uplink pinned.
 *
 * **Virtual Clos (after LumosCore's StaticPlacementer.schedule).** Otherwise the shapes m x n
 * (GetShapes): write N = odd * 2^e; m runs over odd * 2^k, k = 0, 1, ... (so n = N / m is a power
 * of two, which keeps halving-doubling and the inter-server ring on equal local indexes), skipping
 * m = 1 and the m whose n exceeds the GPUs per leaf or S (StaticPlacementer's start
 * m = max(odd part of N, N / GPUs per leaf)), doubling while m <= L and m <= N. For each, fewest
 * leaves first, search m leaves and n spines such that every leaf has n free GPUs and all m*n links
 * (leaf, spine) are free. **Whole servers** (as StaticPlacementer, on by default): a job that spans
 * leaves takes whole servers, so only n that are multiples of the server size are tried and a leaf
 * offers only the GPUs of its wholly free servers. **Fallback** (the suite's own addition, not in
 * the authors' code): a size whose shapes have no such n (N = 18 with 4 GPUs per server:
 * n = 2 or 1) is placed with n GPUs per leaf on partial servers, so that it can ever run. A size
 * with no shape at all (N = 17 on 16 leaves: its odd part exceeds L) can never be placed:
 * CanEverPlace() is false, and the scheduler refuses it up front. The first n with a solution wins.
 * Objective, for that n: minimum total free GPUs on the chosen leaves (best fit, as the authors'
 * ILP's `sum l_a * rank(a)`), exactly; then, for the chosen leaves, the n spines with the fewest
 * free links among those free on all of them (pack the fullest spines). The job's GPU with local
 * index a on its leaf (ascending GPU id) goes up through the a-th chosen spine; links (leaf, spine)
 * for every chosen leaf and spine are reserved.
 *
 * **Search** (ClusterClosSearch, one per candidate n). Leaves are items with a set of free spines
 * (a ClusterSpineSet); a spine set P is feasible with the leaves whose masks contain it. For a
 * fixed P the best leaves are the m with fewest free GPUs among them, so only *closed* spine sets
 * matter (P equal to the intersection of the masks of its supporting leaves). They are enumerated
 * once each by a depth-first search with prefix-preserving closure extension (as LCM for closed
 * frequent itemsets): a node is a closed set with at least m supporting leaves; it is a solution
 * when it has at least n spines. Supports are bitsets over leaves sorted by free GPUs, so a node's
 * cost (its m best leaves) is the first m set bits, and that cost is a lower bound for all its
 * descendants (their supports are subsets): branch and bound prunes nodes no better than the best
 * solution, and children are visited cheapest first. A node is also cut when no descendant can be a
 * solution: its spines plus the spines it may still add (above its core index, free on m of its
 * leaves) are fewer than n, or fewer than m of its leaves are free on n of them (those leaves also
 * tighten the cost bound).
 *
 * **Bound.** Per candidate n: O(L log L + S L / 64) set-up; per node O(S^2 L / 64) words;
 * at most MaxSearchNodes nodes (the number of closed sets can grow exponentially with S in
 * adversarial states). Per decision: at most d(N) candidates n (d = number of divisors).
 * Measured at 8,192 GPUs (256 leaves, 32 spines): about 10-100 us per decision on the
 * authors' workloads; up to about 40 ms, with budget cuts, when every leaf's free links are
 * an independent random half of the spines (not a state vClos itself produces).
 * **Fallback.** When the budget cuts the search, the best solution found so far is used
 * (provenBest = false in the result); when it found none, the next n is tried; when no n
 * works the job waits (std::nullopt). Spine sets are ClusterSpineSet words, so up to
 * CLUSTER_MAX_SPINES spines.
 */
class VclosPolicy : public ClusterPlacementPolicy
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId();

    /**
     * \brief Constructor (attributes MaxSearchNodes and WholeServers); throws
     * std::invalid_argument for maxSearchNodes 0.
     * \param maxSearchNodes search nodes allowed per candidate n
     * \param wholeServers a job that spans leaves takes whole servers (vClos paper, 4.4)
     */
    explicit VclosPolicy(uint64_t maxSearchNodes = 20000, bool wholeServers = true);

    std::optional<ClusterPlacement> Place(const ClusterState& state,
                                          uint64_t jobId,
                                          uint32_t gpus) const override;
    std::string GetName() const override;

    /**
     * \brief GPUS when fewer GPUs are free than N; NETWORK_FRAGMENTATION when the job would
     * fit with every link free (a single leaf with N free GPUs, or for a shape m x n at least
     * m leaves offering n GPUs); else GPU_FRAGMENTATION.
     * \param state the cluster
     * \param gpus N
     * \return the cause
     */
    ClusterPlacementFailure Diagnose(const ClusterState& state, uint32_t gpus) const override;

    /**
     * \brief The multi-leaf shapes of a job, in the order they are tried (see the class).
     * \param state the cluster (only its shape is read)
     * \param gpus N
     * \param wholeServers whole servers wanted
     * \param[out] whole whether the returned shapes take whole servers
     * \return the n (GPUs per leaf) of each shape m x n, m = N / n ascending
     */
    static std::vector<uint32_t> GetShapes(const ClusterState& state,
                                           uint32_t gpus,
                                           bool wholeServers,
                                           bool& whole);

  private:
    /**
     * \brief The m x n search for one n.
     * \param state the cluster
     * \param m leaves
     * \param n GPUs per leaf and spines
     * \param wholeServers take only wholly free servers
     * \param[out] result filled on success (gpus, links, spines, routing, m, n)
     * \return true on success
     */
    bool SearchClos(const ClusterState& state,
                    uint32_t m,
                    uint32_t n,
                    bool wholeServers,
                    ClusterPlacement& result) const;

    uint64_t m_maxSearchNodes; //!< node budget per candidate n
    bool m_wholeServers;       //!< multi-leaf jobs take whole servers
};

/**
 * \ingroup cluster
 * \brief A policy name of scenario files: the TypeId it stands for and its attribute values.
 */
struct ClusterPlacementPolicyName
{
    std::string name;                                        //!< as in scenario files
    std::string typeId;                                      //!< the policy's TypeId
    std::vector<std::pair<std::string, std::string>> values; //!< attribute values, as text
};

/**
 * \ingroup cluster
 * \return the one table of policy names: "ecmp" and "source-routing" (the authors' baselines,
 * ClusterMultiClusterPolicy with 4 sub-clusters), "ecmp-first-fit", "ecmp-best-fit",
 * "source-routing-first-fit", "source-routing-best-fit" (ClusterPackingPolicy over the whole
 * cluster), "vclos" (VclosPolicy) and "ocs-vclos" (VclosOcsPolicy, which needs an OCS layer).
 */
const std::vector<ClusterPlacementPolicyName>& ClusterPlacementPolicyNames();

/**
 * \ingroup cluster
 * \brief Build a policy by name (ClusterPlacementPolicyNames) from its TypeId and attribute
 * values (attribute defaults set with Config::SetDefault apply to the others); throws
 * std::invalid_argument naming the unknown policy.
 * \param name the name
 * \return the policy, not yet bound to a cluster
 */
Ptr<ClusterPlacementPolicy> ClusterCreatePlacementPolicy(const std::string& name);

/**
 * \ingroup cluster
 * \brief Build a policy by name and Bind it to a topology. Throws std::invalid_argument with
 * one line (an unknown name, "ocs-vclos" without an OCS layer, a static policy on an OCS
 * layer without the fixed full wiring).
 * \param name the name
 * \param topology the cluster
 * \return the policy
 */
Ptr<ClusterPlacementPolicy> ClusterCreatePlacementPolicy(const std::string& name,
                                                         const ClusterTopology& topology);

} // namespace ns3

#endif /* CLUSTER_PLACEMENT_H */
