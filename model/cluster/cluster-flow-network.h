/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_FLOW_NETWORK_H
#define CLUSTER_FLOW_NETWORK_H

#include <cstddef>
#include <cstdint>
#include <memory>

namespace ns3
{

/**
 * \ingroup cluster
 * \brief A small max-flow network on Boost.Graph (push_relabel_max_flow).
 *
 * The OCS-vClos stages use it to decide exactly whether one spine can take a set of GPUs:
 * stage 3 (VclosOcsPolicy::PlaceOneSpine) for a whole job, stage 4 (ClusterOcsClosSearch)
 * for every virtual leaf of a shape. Nodes are 0 to nodes - 1; every edge added gets a
 * reverse edge of capacity 0. Add the edges, Run() once, then read the flow per edge.
 */
class ClusterFlowNetwork
{
  public:
    /// \param nodes node count
    explicit ClusterFlowNetwork(uint32_t nodes);
    ~ClusterFlowNetwork();

    ClusterFlowNetwork(const ClusterFlowNetwork&) = delete;
    ClusterFlowNetwork& operator=(const ClusterFlowNetwork&) = delete;

    /**
     * \brief Add an edge and its reverse.
     * \param u tail
     * \param v head
     * \param capacity capacity
     * \return the edge's index, for Flow()
     */
    std::size_t AddEdge(uint32_t u, uint32_t v, long capacity);

    /**
     * \param s source
     * \param t sink
     * \return the maximum flow from s to t
     */
    long Run(uint32_t s, uint32_t t);

    /**
     * \param index an edge index from AddEdge
     * \return the flow on the edge after Run()
     */
    long Flow(std::size_t index) const;

  private:
    /// The Boost graph, kept out of this header.
    struct Graph;
    std::unique_ptr<Graph> m_graph; //!< the Boost graph and its forward edges
};

} // namespace ns3

#endif /* CLUSTER_FLOW_NETWORK_H */
