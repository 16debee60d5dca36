/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_TOPOLOGY_H
#define CLUSTER_TOPOLOGY_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup cluster
 * \brief The numbers that describe a leaf-spine GPU cluster, without any ns-3 object.
 *
 * Field names follow ClosFabricHelper's attributes, so errors name the same fields.
 * Rates are bits per second, delays nanoseconds.
 *
 * Two core layers are described:
 * - static (OcsCount = 0): every leaf has one uplink to each spine (uplink port u goes to
 *   spine u), as ClosFabricHelper builds it;
 * - OCS (OcsCount > 0, as RapidNetSim's OCS-vClos layout): leaf uplink port k goes to OCS k,
 *   and each spine has SpinePorts / OcsCount ports on every OCS. Which spine a leaf port
 *   reaches is a circuit, i.e. state, not topology; the topology only names the ports.
 */
struct ClusterTopologyConfig
{
    uint32_t leaves = 4;                            //!< Leaves: 1 to MAX_LEAVES
    uint32_t spines = 8;                            //!< Spines: 1 to MAX_SPINES
    uint32_t serversPerLeaf = 2;                    //!< ServersPerLeaf: 1 to MAX_SERVERS_PER_LEAF
    uint32_t gpusPerServer = 4;                     //!< GpusPerServer: 1 to MAX_GPUS_PER_SERVER
    uint32_t leafPorts = 0;                         //!< LeafPorts: 0 = as many as needed
    uint32_t spinePorts = 0;                        //!< SpinePorts: 0 = as many as needed (static)
    uint32_t ocsCount = 0;                          //!< OcsCount: 0 = no OCS layer
    uint64_t nicRateBps = 100000000000ULL;          //!< NicDataRate, bit/s
    uint64_t fabricRateBps = 100000000000ULL;       //!< FabricDataRate (leaf uplinks), bit/s
    uint64_t intraServerRateBps = 1000000000000ULL; //!< IntraServerDataRate, bit/s
    uint64_t nicDelayNs = 500;                      //!< NicDelay, ns
    uint64_t fabricDelayNs = 1000;                  //!< FabricDelay, ns
    uint64_t intraServerDelayNs = 100;              //!< IntraServerDelay, ns
};

/**
 * \ingroup cluster
 * \brief How a flow from one GPU to another crosses the fabric.
 */
enum class ClusterPathKind
{
    SAME_GPU,     //!< source and destination are the same GPU: no link
    INTRA_SERVER, //!< same server (more than one GPU per server): the intra-server links
    SAME_LEAF,    //!< same leaf, other server: NIC up, NIC down
    VIA_CORE      //!< other leaf: NIC up, leaf uplink, leaf downlink, NIC down
};

/**
 * \ingroup cluster
 * \brief The directed links of one path, in order (at most four).
 */
struct ClusterPath
{
    static constexpr uint32_t MAX_LINKS = 4;          //!< longest path in a two-tier fabric
    ClusterPathKind kind = ClusterPathKind::SAME_GPU; //!< how it crosses the fabric
    std::array<uint32_t, MAX_LINKS> links{};          //!< link ids, first `size` valid
    uint32_t size = 0;                                //!< number of links

    /// \return the first link id
    const uint32_t* begin() const
    {
        return links.data();
    }

    /// \return one past the last link id
    const uint32_t* end() const
    {
        return links.data() + size;
    }
};

/**
 * \ingroup cluster
 * \brief A validated leaf-spine topology with a dense id for every directed link.
 *
 * GPU ids are contiguous per server and per leaf, as in ClosFabric: gpu = (leaf *
 * ServersPerLeaf + server) * GpusPerServer + local. With G GPUs, L leaves and U uplink ports
 * per leaf (U = Spines in the static layer, OcsCount with an OCS layer), link ids are:
 *
 * | ids                      | kind          | link                             |
 * |--------------------------|---------------|----------------------------------|
 * | gpu                      | GPU_TO_LEAF   | GPU NIC up                       |
 * | G + gpu                  | LEAF_TO_GPU   | leaf port down to the GPU        |
 * | 2G + leaf*U + u          | LEAF_UP       | leaf uplink port u (to spine u or OCS u) |
 * | 2G + L*U + leaf*U + u    | LEAF_DOWN     | the same port, towards the leaf  |
 * | 2G + 2LU + gpu           | GPU_TO_SERVER | intra-server, GPU to its server's switch (only when
 * GpusPerServer > 1) | | 3G + 2LU + gpu           | SERVER_TO_GPU | intra-server, switch to GPU |
 *
 * In the static layer LEAF_UP (leaf, s) is the leaf->spine s link and LEAF_DOWN (leaf, s)
 * the spine s->leaf link. With an OCS layer the circuits are point-to-point, so a circuit's
 * load is its leaf port's load and the spine ports add no constraint of their own.
 *
 * Construction throws std::invalid_argument with one line naming the field.
 */
class ClusterTopology
{
  public:
    static constexpr uint32_t MAX_LEAVES = 1024;           //!< upper bound of Leaves
    static constexpr uint32_t MAX_SPINES = 1024;           //!< upper bound of Spines
    static constexpr uint32_t MAX_SERVERS_PER_LEAF = 1024; //!< upper bound of ServersPerLeaf
    static constexpr uint32_t MAX_GPUS_PER_SERVER = 64;    //!< upper bound of GpusPerServer
    static constexpr uint32_t MAX_GPUS = 131072;           //!< upper bound of all GPUs
    static constexpr uint32_t MAX_PORTS = 4096;            //!< upper bound of a switch's ports
    static constexpr uint64_t MAX_RATE_BPS = 100000000000000ULL; //!< 100 Tbit/s
    static constexpr uint64_t MAX_DELAY_NS = 1000000000ULL;      //!< 1 s

    /// Where a directed link sits.
    enum class LinkKind
    {
        GPU_TO_LEAF,   //!< NIC up
        LEAF_TO_GPU,   //!< NIC down
        LEAF_UP,       //!< leaf uplink port, up
        LEAF_DOWN,     //!< leaf uplink port, down
        GPU_TO_SERVER, //!< intra-server, towards the server's switch
        SERVER_TO_GPU  //!< intra-server, towards the GPU
    };

    /// One directed link.
    struct Link
    {
        LinkKind kind;    //!< where it sits
        uint32_t gpu;     //!< the GPU (NIC and intra-server links), else 0
        uint32_t leaf;    //!< the leaf (all but intra-server links: the GPU's leaf)
        uint32_t port;    //!< uplink port (LEAF_UP, LEAF_DOWN), else 0
        uint64_t rateBps; //!< capacity, bit/s
        uint64_t delayNs; //!< propagation delay, ns
    };

    /**
     * \brief Validate and build; throws std::invalid_argument naming the first bad field.
     * \param config the numbers
     */
    explicit ClusterTopology(const ClusterTopologyConfig& config);

    /**
     * \brief Check a configuration without building anything.
     * \param config the numbers
     * \return "" when valid, else one line naming the field
     */
    static std::string Check(const ClusterTopologyConfig& config);

    /// \return the configuration
    const ClusterTopologyConfig& GetConfig() const;
    /// \return L
    uint32_t GetLeaves() const;
    /// \return spines
    uint32_t GetSpines() const;
    /// \return servers per leaf
    uint32_t GetServersPerLeaf() const;
    /// \return GPUs per server
    uint32_t GetGpusPerServer() const;
    /// \return GPUs per leaf
    uint32_t GetGpusPerLeaf() const;
    /// \return G
    uint32_t GetGpus() const;
    /// \return true with an OCS layer
    bool HasOcs() const;
    /// \return uplink ports per leaf (spines, or OCSs)
    uint32_t GetUplinksPerLeaf() const;
    /// \return ports of each spine on each OCS (0 without an OCS layer)
    uint32_t GetSpinePortsPerOcs() const;
    /// \return number of directed links (ids are 0 to this - 1)
    uint32_t GetLinkCount() const;

    /// \param gpu a GPU \return its leaf
    uint32_t GetLeafOfGpu(uint32_t gpu) const;
    /// \param gpu a GPU \return its server, counted over the whole cluster
    uint32_t GetServerOfGpu(uint32_t gpu) const;
    /// \param gpu a GPU \return its index among the GPUs of its leaf
    uint32_t GetIndexInLeaf(uint32_t gpu) const;
    /// \param gpu a GPU \return its index inside its server
    uint32_t GetLocalIndex(uint32_t gpu) const;
    /// \param leaf a leaf \param indexInLeaf a position under it \return the GPU there
    uint32_t GetGpuAt(uint32_t leaf, uint32_t indexInLeaf) const;

    /// \param gpu a GPU \return its NIC uplink id
    uint32_t GetNicUp(uint32_t gpu) const;
    /// \param gpu a GPU \return the leaf port down to it
    uint32_t GetNicDown(uint32_t gpu) const;
    /// \param leaf a leaf \param port an uplink port \return the upward link id
    uint32_t GetLeafUp(uint32_t leaf, uint32_t port) const;
    /// \param leaf a leaf \param port an uplink port \return the downward link id
    uint32_t GetLeafDown(uint32_t leaf, uint32_t port) const;
    /// \param gpu a GPU \return its intra-server uplink (throws with one GPU per server)
    uint32_t GetIntraUp(uint32_t gpu) const;
    /// \param gpu a GPU \return its intra-server downlink (throws with one GPU per server)
    uint32_t GetIntraDown(uint32_t gpu) const;

    /// \param id a link id \return the link
    const Link& GetLink(uint32_t id) const;
    /// \param id a link id \return a readable name, e.g. "leaf3.up5"
    std::string GetLinkName(uint32_t id) const;
    /// \return every link's capacity in bit/s, indexed by id (for a flow engine)
    std::vector<double> GetLinkCapacities() const;

    /// \param src a GPU \param dst a GPU \return how a flow between them crosses the fabric
    ClusterPathKind Classify(uint32_t src, uint32_t dst) const;

    /**
     * \brief The path of a flow in the static layer.
     * \param src source GPU
     * \param dst destination GPU
     * \param spine the spine, used (and checked) only for VIA_CORE
     * \return the links in order
     */
    ClusterPath GetPath(uint32_t src, uint32_t dst, uint32_t spine) const;

    /**
     * \brief The path of a flow given its uplink port at each end (an OCS circuit pair, or
     *        spine s at both ends in the static layer).
     * \param src source GPU
     * \param dst destination GPU
     * \param srcPort uplink port of the source leaf (VIA_CORE only)
     * \param dstPort uplink port of the destination leaf (VIA_CORE only)
     * \return the links in order
     */
    ClusterPath GetPathVia(uint32_t src, uint32_t dst, uint32_t srcPort, uint32_t dstPort) const;

    /**
     * \param path a path
     * \return the sum of its links' propagation delays, ns
     */
    uint64_t GetPathDelayNs(const ClusterPath& path) const;

  private:
    /// A GPU's leaf and server (a table: paths are asked for millions of times a run).
    struct Place
    {
        uint32_t leaf;   //!< its leaf
        uint32_t server; //!< its server, counted over the cluster
    };

    /// \param gpu a GPU \param what the caller, for the error
    void CheckGpu(uint32_t gpu, const char* what) const;
    /// \param gpu a GPU that is not in the cluster \param what the caller; throws
    [[noreturn]] void FailGpu(uint32_t gpu, const char* what) const;
    /// \param what the caller \param leaf a leaf \param port a port; throws
    [[noreturn]] void FailLeafPort(const char* what, uint32_t leaf, uint32_t port) const;

    ClusterTopologyConfig m_config; //!< the numbers
    uint32_t m_gpus;                //!< G
    uint32_t m_uplinks;             //!< U
    std::vector<Link> m_links;      //!< by id
    std::vector<Place> m_place;     //!< by GPU
};

// The questions a flow engine asks per flow, inline.

inline void
ClusterTopology::CheckGpu(uint32_t gpu, const char* what) const
{
    if (gpu >= m_gpus)
    {
        FailGpu(gpu, what);
    }
}

inline uint32_t
ClusterTopology::GetLeafOfGpu(uint32_t gpu) const
{
    CheckGpu(gpu, "GetLeafOfGpu");
    return m_place[gpu].leaf;
}

inline uint32_t
ClusterTopology::GetServerOfGpu(uint32_t gpu) const
{
    CheckGpu(gpu, "GetServerOfGpu");
    return m_place[gpu].server;
}

inline uint32_t
ClusterTopology::GetNicUp(uint32_t gpu) const
{
    CheckGpu(gpu, "GetNicUp");
    return gpu;
}

inline uint32_t
ClusterTopology::GetNicDown(uint32_t gpu) const
{
    CheckGpu(gpu, "GetNicDown");
    return m_gpus + gpu;
}

inline uint32_t
ClusterTopology::GetLeafUp(uint32_t leaf, uint32_t port) const
{
    if (leaf >= m_config.leaves || port >= m_uplinks)
    {
        FailLeafPort("GetLeafUp", leaf, port);
    }
    return 2 * m_gpus + leaf * m_uplinks + port;
}

inline uint32_t
ClusterTopology::GetLeafDown(uint32_t leaf, uint32_t port) const
{
    if (leaf >= m_config.leaves || port >= m_uplinks)
    {
        FailLeafPort("GetLeafDown", leaf, port);
    }
    return 2 * m_gpus + (m_config.leaves + leaf) * m_uplinks + port;
}

inline ClusterPathKind
ClusterTopology::Classify(uint32_t src, uint32_t dst) const
{
    CheckGpu(src, "Classify");
    CheckGpu(dst, "Classify");
    if (src == dst)
    {
        return ClusterPathKind::SAME_GPU;
    }
    const Place& a = m_place[src];
    const Place& b = m_place[dst];
    if (m_config.gpusPerServer > 1 && a.server == b.server)
    {
        return ClusterPathKind::INTRA_SERVER;
    }
    return a.leaf == b.leaf ? ClusterPathKind::SAME_LEAF : ClusterPathKind::VIA_CORE;
}

} // namespace ns3

#endif /* CLUSTER_TOPOLOGY_H */
