/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_OCS_CLOS_SEARCH_H
#define CLUSTER_OCS_CLOS_SEARCH_H

#include "cluster-ocs-state.h"
#include "cluster-state.h"

#include <cstdint>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup cluster
 * \param state the GPUs
 * \return the leaves in best-fit order: fewest free GPUs first, then index
 */
std::vector<uint32_t> ClusterOcsBestFitLeaves(const ClusterState& state);

/**
 * \ingroup cluster
 * \brief Virtual leaves of n GPUs a leaf can hold: n / g wholly free servers each when g
 * (GPUs per server) divides n, else n free GPUs each; and n idle uplinks each.
 * \param state the GPUs
 * \param ocs the circuits
 * \param leaf the leaf
 * \param n GPUs per virtual leaf (at least 1)
 * \return how many
 */
uint32_t ClusterOcsVirtualLeavesOf(const ClusterState& state,
                                   const ClusterOcsState& ocs,
                                   uint32_t leaf,
                                   uint32_t n);

/**
 * \ingroup cluster
 * \param ocs the circuits
 * \param ports idle ports wanted
 * \return the spines with at least `ports` idle ports, fewest idle ports first (best fit),
 * then index
 */
std::vector<uint32_t> ClusterOcsBestFitSpines(const ClusterOcsState& ocs, uint32_t ports);

/**
 * \ingroup cluster
 * \brief OCS-vClos stage 4 for one shape m x n (VclosOcsPolicy::PlaceVirtualClos): m
 * virtual leaves of n GPUs, n distinct spines, and for every (virtual leaf, spine) one
 * circuit from an idle uplink of the virtual leaf's leaf to an idle port of the spine on the
 * same OCS, each uplink used once.
 *
 * Exact depth-first search (see VclosOcsPolicy): virtual leaves per leaf in best-fit order,
 * as many per leaf as fit first; then spines, fewest idle ports first, each first passing a
 * bitset test and a max flow (ClusterFlowNetwork) of the virtual leaves against its idle
 * ports; then each spine's circuits, uplinks that reuse an idle circuit to that spine
 * first, then uplinks whose OCS the fewest candidate spines can use. The first solution is
 * taken. Half the node budget goes to the best-fit spine order; when that pass is cut, the
 * whole budget to the emptiest spines first. WasCut() tells a refusal that is not proven.
 */
class ClusterOcsClosSearch
{
  public:
    /// A leaf holding `count` virtual leaves of the job.
    struct Group
    {
        uint32_t leaf;  //!< the leaf
        uint32_t count; //!< virtual leaves on it
    };

    /// The solution: groups, and per chosen spine the OCSs of each group.
    struct Solution
    {
        std::vector<Group> groups;                             //!< leaves used
        std::vector<uint32_t> spines;                          //!< spines, in search order
        std::vector<std::vector<std::vector<uint32_t>>> ocsOf; //!< [spine][group] -> OCSs
    };

    /**
     * \brief Index the leaves that can hold a virtual leaf of n GPUs, best fit first.
     * \param state the GPUs
     * \param ocs the circuits
     * \param m virtual leaves
     * \param n GPUs per virtual leaf and spines
     * \param budget search nodes allowed
     */
    ClusterOcsClosSearch(const ClusterState& state,
                         const ClusterOcsState& ocs,
                         uint32_t m,
                         uint32_t n,
                         uint64_t budget);

    /// \return true when a solution was found (then GetSolution())
    bool Run();

    /// \return the solution
    const Solution& GetSolution() const;

    /// \return nodes visited
    uint64_t GetNodes() const;

    /// \return true when the budget cut the search
    bool WasCut() const;

  private:
    /// Idle ports left on the spine being assigned, per OCS, and the OCSs with any.
    struct Capacity
    {
        std::vector<uint32_t> left; //!< per OCS
        ClusterOcsSet any;          //!< OCSs with left > 0
    };

    /// An uplink candidate of a group: (0 when it reuses an idle circuit to the spine, else
    /// 1; candidate spines using its OCS; the OCS), in preference order.
    using Preference = std::tuple<int, uint32_t, uint32_t>;

    /// Count a node; \return false when the budget is spent
    bool Tick();

    /**
     * \brief Choose virtual leaves per leaf, best-fit leaves first, as many per leaf as fit.
     * \param i the next leaf (index in m_leaves)
     * \param remaining virtual leaves still to place
     * \return true when a solution was found
     */
    bool LeafDfs(std::size_t i, uint32_t remaining);

    /**
     * \param gi a group
     * \param cap the spine's capacity left
     * \return the unused idle uplinks of the group's leaf usable on the spine
     */
    ClusterOcsSet Options(std::size_t gi, const Capacity& cap) const;

    /**
     * \brief Max flow: can the spine still take every virtual leaf (exact for this spine)?
     * \param spine the spine
     * \return true when it can
     */
    bool SpineFeasible(uint32_t spine) const;

    /// Spines and circuits for the chosen groups. \return true when a solution was found
    bool NetworkSearch();

    /// Per group: its leaf's idle uplinks, none used yet, and the spine of each idle circuit.
    void IndexGroups();

    /// The candidate spines (m idle ports, passing CouldServe) and per OCS their demand.
    void ChooseCandidates();

    /**
     * \brief Cheap necessary test: every group has enough unused uplinks on OCSs where
     * candidate c has idle ports.
     * \param c a candidate index
     * \return true when it may serve
     */
    bool CouldServe(std::size_t c) const;

    /**
     * \param spinesLeft spines still to choose
     * \return true when every group still has enough unused idle uplinks for them
     */
    bool UplinksLeftFor(std::size_t spinesLeft) const;

    /**
     * \brief Choose the next spine among candidates from `start`.
     * \param start the first candidate index allowed
     * \return true when a solution was found
     */
    bool SpineDfs(std::size_t start);

    /**
     * \param spine a spine
     * \return its idle ports per OCS
     */
    Capacity CapacityOf(uint32_t spine) const;

    /**
     * \brief Uplinks of group gi (and the groups after it) for a spine.
     * \param c the spine's candidate index
     * \param spine the spine
     * \param gi the group
     * \param cap the spine's capacity left
     * \return true when a solution was found
     */
    bool AssignDfs(std::size_t c, uint32_t spine, std::size_t gi, Capacity& cap);

    /**
     * \brief Choose the group's `count` uplinks (a combination, in preference order).
     * \param c the spine's candidate index
     * \param spine the spine
     * \param gi the group
     * \param cap the spine's capacity left
     * \param order the group's uplinks in preference order
     * \param from the first position of `order` allowed
     * \param chosen the uplinks chosen so far
     * \return true when a solution was found
     */
    bool Combine(std::size_t c,
                 uint32_t spine,
                 std::size_t gi,
                 Capacity& cap,
                 const std::vector<Preference>& order,
                 std::size_t from,
                 std::vector<uint32_t>& chosen);

    const ClusterOcsState& m_ocs;         //!< circuits
    uint32_t m_m;                         //!< virtual leaves
    uint32_t m_n;                         //!< spines
    uint64_t m_budget;                    //!< node budget
    std::vector<uint32_t> m_leaves;       //!< leaves that can hold one, best fit first
    std::vector<uint32_t> m_cap;          //!< virtual leaves each can hold (<= m)
    std::vector<uint32_t> m_suffix;       //!< suffix sums of m_cap
    std::vector<ClusterOcsSet> m_used;    //!< per group: uplinks taken by this job
    std::vector<ClusterOcsSet> m_idleUp;  //!< per group: its leaf's idle uplinks
    std::vector<uint32_t> m_reuseSpine;   //!< per group * K + OCS: spine of its idle circuit
    std::vector<uint32_t> m_cand;         //!< candidate spines, best fit first
    std::vector<ClusterOcsSet> m_candAny; //!< per candidate: OCSs where it has idle ports
    std::vector<uint32_t> m_demand;       //!< per OCS: candidate spines with an idle port on it
    uint64_t m_nodes = 0;                 //!< nodes visited
    bool m_cut = false;                   //!< budget spent
    bool m_wasCut = false;                //!< the best-fit pass was cut
    bool m_emptiestFirst = false;         //!< spines with most idle ports first (second pass)
    Solution m_sol;                       //!< current / found solution
};

} // namespace ns3

#endif /* CLUSTER_OCS_CLOS_SEARCH_H */
