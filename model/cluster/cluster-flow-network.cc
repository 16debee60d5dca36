/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-flow-network.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#include <vector>

namespace ns3
{

/// The Boost graph behind a ClusterFlowNetwork, and its forward edges by index.
struct ClusterFlowNetwork::Graph
{
    /// Edge descriptors of the graph.
    using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
    /// An edge.
    using Edge = Traits::edge_descriptor;
    /// The graph: capacity, residual capacity and reverse edge per edge.
    using Network = boost::adjacency_list<
        boost::vecS,
        boost::vecS,
        boost::directedS,
        boost::no_property,
        boost::property<boost::edge_capacity_t,
                        long,
                        boost::property<boost::edge_residual_capacity_t,
                                        long,
                                        boost::property<boost::edge_reverse_t, Edge>>>>;

    /// \param nodes node count
    explicit Graph(uint32_t nodes)
        : network(nodes)
    {
    }

    Network network;         //!< the network
    std::vector<Edge> edges; //!< forward edges by index
};

ClusterFlowNetwork::ClusterFlowNetwork(uint32_t nodes)
    : m_graph(std::make_unique<Graph>(nodes))
{
}

ClusterFlowNetwork::~ClusterFlowNetwork() = default;

std::size_t
ClusterFlowNetwork::AddEdge(uint32_t u, uint32_t v, long capacity)
{
    auto& g = m_graph->network;
    auto cap = boost::get(boost::edge_capacity, g);
    auto rev = boost::get(boost::edge_reverse, g);
    Graph::Edge e = boost::add_edge(u, v, g).first;
    Graph::Edge r = boost::add_edge(v, u, g).first;
    cap[e] = capacity;
    cap[r] = 0;
    rev[e] = r;
    rev[r] = e;
    m_graph->edges.push_back(e);
    return m_graph->edges.size() - 1;
}

long
ClusterFlowNetwork::Run(uint32_t s, uint32_t t)
{
    return boost::push_relabel_max_flow(m_graph->network, s, t);
}

long
ClusterFlowNetwork::Flow(std::size_t index) const
{
    const Graph::Edge e = m_graph->edges[index];
    return boost::get(boost::edge_capacity, m_graph->network, e) -
           boost::get(boost::edge_residual_capacity, m_graph->network, e);
}

} // namespace ns3
