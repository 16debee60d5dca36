/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLOS_FABRIC_H
#define CLOS_FABRIC_H

#include "ns3/cluster-flow-hash.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class ClosEcmpRouting;
class OcsSwitch;

/**
 * \ingroup clos
 * \brief One direction of a physical link of the fabric.
 */
struct ClusterLink
{
    /// Where the link sits.
    enum Kind
    {
        GPU_TO_LEAF,     //!< NIC uplink
        LEAF_TO_GPU,     //!< leaf downlink
        LEAF_TO_SPINE,   //!< fabric uplink
        SPINE_TO_LEAF,   //!< fabric downlink
        GPU_TO_NVSWITCH, //!< intra-server, towards the server's switch
        NVSWITCH_TO_GPU  //!< intra-server, towards a GPU
    };

    Kind kind;             //!< where the link sits
    uint32_t from;         //!< index of the sending node in its role (GPU id, leaf, spine, server)
    uint32_t to;           //!< index of the receiving node in its role; with an OCS layer,
                           //!< LEAF_TO_SPINE: the leaf's uplink port (= its OCS), SPINE_TO_LEAF:
                           //!< the spine's port (k * SpinePorts / OcsCount + q)
    Ptr<NetDevice> device; //!< the transmitting device
    std::string name;      //!< readable name, e.g. "leaf0->spine3"
};

/**
 * \ingroup clos
 * \brief A leaf-spine GPU fabric built by ClosFabricHelper: its nodes, links, addresses
 *        and the topology questions a scenario asks.
 *
 * GPU ids are contiguous per server and per leaf: gpu = (leaf * serversPerLeaf + server)
 * * gpusPerServer + local. A GPU's NIC address is 10.<leaf>.<server>.<local + 1>; its
 * intra-server (NVLink-like) interface is 10.<leaf>.<server>.<local + 65>.
 */
class ClosFabric : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// A GPU's intra-server address is its NIC address plus this (host byte 1..64 -> 65..128).
    static constexpr uint32_t INTRA_SERVER_HOST_OFFSET = 64;

    ClosFabric();

    /// \return the number of leaves
    uint32_t GetLeafCount() const;
    /// \return the number of spines
    uint32_t GetSpineCount() const;
    /// \return servers under each leaf
    uint32_t GetServersPerLeaf() const;
    /// \return GPUs in each server
    uint32_t GetGpusPerServer() const;
    /// \return GPUs under each leaf
    uint32_t GetGpusPerLeaf() const;
    /// \return the number of GPUs
    uint32_t GetGpuCount() const;
    /// \return GPUs per leaf divided by spines (1 = non-blocking)
    double GetOversubscription() const;

    /// \return the GPU nodes, indexed by GPU id
    const NodeContainer& GetGpus() const;
    /// \return the leaf switch nodes
    const NodeContainer& GetLeaves() const;
    /// \return the spine switch nodes
    const NodeContainer& GetSpines() const;
    /// \return the intra-server switch nodes (empty with one GPU per server)
    const NodeContainer& GetServerSwitches() const;

    /// \param gpu a GPU id \return its leaf
    uint32_t GetLeafOfGpu(uint32_t gpu) const;
    /// \param gpu a GPU id \return its server, counted over the whole fabric
    uint32_t GetServerOfGpu(uint32_t gpu) const;
    /// \param gpu a GPU id \return its index inside its server
    uint32_t GetLocalIndex(uint32_t gpu) const;
    /// \param gpu a GPU id \return its index among the GPUs of its leaf
    uint32_t GetIndexInLeaf(uint32_t gpu) const;
    /// \param leaf a leaf \param indexInLeaf a position under it \return the GPU id
    uint32_t GetGpuAt(uint32_t leaf, uint32_t indexInLeaf) const;

    /// \param gpu a GPU id \return the address of its NIC
    Ipv4Address GetGpuAddress(uint32_t gpu) const;
    /// \param gpu a GPU id \return the address of its intra-server (NVLink-like) interface
    Ipv4Address GetGpuIntraServerAddress(uint32_t gpu) const;
    /// \param address an address \return the GPU owning it (NIC or NVLink side), or -1
    int32_t GetGpuId(Ipv4Address address) const;

    /// \return all directed links
    const std::vector<ClusterLink>& GetLinks() const;
    /// \param device a transmitting device \return its link id, or -1 if not in the fabric
    int32_t GetLinkOfDevice(Ptr<const NetDevice> device) const;
    /// \param leaf a leaf \return its uplink ids, indexed by spine (with an OCS layer: by
    ///        uplink port, i.e. OCS)
    const std::vector<uint32_t>& GetLeafUplinks(uint32_t leaf) const;
    /// \param spine a spine \return its downlink ids, indexed by leaf (with an OCS layer: by
    ///        spine port, k * SpinePorts / OcsCount + q for its q-th port on OCS k)
    const std::vector<uint32_t>& GetSpineDownlinks(uint32_t spine) const;

    /// \return the number of OCSs (0: static leaf-spine links)
    uint32_t GetOcsCount() const;
    /// \return each spine's ports on each OCS (0 without an OCS layer)
    uint32_t GetSpinePortsPerOcs() const;
    /// \param k an OCS \return the switch
    Ptr<OcsSwitch> GetOcs(uint32_t k) const;
    /// \param leaf a leaf \param k an OCS \return the OCS port of the leaf's uplink k (= leaf)
    uint32_t GetLeafOcsPort(uint32_t leaf, uint32_t k) const;
    /**
     * \param spine a spine
     * \param k an OCS
     * \param q the spine's port on it, 0 to GetSpinePortsPerOcs() - 1
     * \return the OCS port (Leaves + spine * GetSpinePortsPerOcs() + q)
     */
    uint32_t GetSpineOcsPort(uint32_t spine, uint32_t k, uint32_t q) const;
    /**
     * \brief With an OCS layer: the uplink port of a leaf whose up circuit now reaches a
     *        spine (the lowest such port), or -1.
     * \param leaf a leaf
     * \param spine a spine
     * \return the port, or -1
     */
    int32_t FindUplinkToSpine(uint32_t leaf, uint32_t spine) const;
    /**
     * \brief Install the switches' routes from the OCSs' up circuits (the helper calls it on
     *        every circuit change). Leaves: the default route over the uplinks whose circuit
     *        reaches a spine; a /16 route per other leaf over those uplinks plus the uplinks
     *        with a direct (leaf-leaf) circuit to it. Spines: each leaf's /16 over the spine
     *        ports whose circuit reaches that leaf. A prefix with no such port is unreachable
     *        (dropped at the switch, never sent into a dark or unmapped port).
     */
    void UpdateOcsRoutes();

    /**
     * \brief With an OCS layer: send every packet of a GPU that leaves its leaf through one
     *        of its leaf's uplink ports (while that port's circuit leads towards the
     *        destination; otherwise ECMP decides).
     * \param gpu the source GPU
     * \param port the uplink port (OCS)
     */
    void PinSourceToUplink(uint32_t gpu, uint32_t port);
    /**
     * \brief With an OCS layer: on a spine, send the packets from one GPU to another down the
     *        spine's port on OCS k whose circuit reaches the destination's leaf.
     * \param src the source GPU
     * \param dst the destination GPU
     * \param spine the spine
     * \param k the OCS
     * \return false (nothing pinned) when no such circuit is up
     */
    bool PinPairAtSpine(uint32_t src, uint32_t dst, uint32_t spine, uint32_t k);
    /**
     * \param src the source GPU \param dst the destination GPU \param spine the spine whose
     *        pair pin is removed
     */
    void UnpinPairAtSpine(uint32_t src, uint32_t dst, uint32_t spine);

    /**
     * \brief The links a packet crosses from one GPU to another through a given spine.
     * \param src source GPU
     * \param dst destination GPU
     * \param spine the spine used when the GPUs are on different leaves (ignored otherwise)
     * \return link ids in path order
     */
    std::vector<uint32_t> GetPathLinks(uint32_t src, uint32_t dst, uint32_t spine) const;

    /**
     * \brief Store-and-forward latency of one packet from one GPU to another: the sum over
     *        the links of the path of propagation delay plus serialization of the frame.
     * \param src source GPU
     * \param dst destination GPU
     * \param frameBytes bytes on the wire per packet (IP packet and link header)
     * \return the latency
     */
    Time GetPathLatency(uint32_t src, uint32_t dst, uint32_t frameBytes) const;

    /**
     * \brief The links a flow actually takes, asking each switch's routing.
     * \param tuple the flow (addresses must be GPU addresses)
     * \return link ids in path order
     */
    std::vector<uint32_t> TraceFlowPath(const ClusterFiveTuple& tuple) const;

    /// \param leaf a leaf \return its routing protocol
    Ptr<ClosEcmpRouting> GetLeafRouting(uint32_t leaf) const;
    /// \param spine a spine \return its routing protocol
    Ptr<ClosEcmpRouting> GetSpineRouting(uint32_t spine) const;

    /**
     * \brief Send every packet of a GPU that leaves its leaf through one spine.
     * \param gpu the source GPU
     * \param spine the spine
     */
    void PinSourceToSpine(uint32_t gpu, uint32_t spine);
    /**
     * \brief Send the packets from one GPU to another through one spine.
     * \param src the source GPU
     * \param dst the destination GPU
     * \param spine the spine
     */
    void PinPairToSpine(uint32_t src, uint32_t dst, uint32_t spine);
    /// \param gpu a GPU whose source pin is removed (it goes back to ECMP)
    void UnpinSource(uint32_t gpu);
    /// Remove every pin from every leaf.
    void ClearPins();

  protected:
    void DoDispose() override;

  private:
    friend class ClosFabricHelper;

    /**
     * \brief Record a directed link.
     * \param kind where it sits
     * \param from index of the sending node in its role
     * \param to index of the receiving node in its role
     * \param device the transmitting device
     * \return its id
     */
    uint32_t AddLink(ClusterLink::Kind kind, uint32_t from, uint32_t to, Ptr<NetDevice> device);
    /**
     * \param gpu a GPU id
     * \param what the caller, for the error message
     */
    void CheckGpu(uint32_t gpu, const char* what) const;
    /// \param leaf a leaf \param spine a spine \return the leaf's interface towards it
    uint32_t UplinkIfToSpine(uint32_t leaf, uint32_t spine) const;
    /**
     * \brief TraceFlowPath across the OCS layer.
     * \param tuple the flow
     * \param src source GPU
     * \param dst destination GPU (on another leaf)
     * \param uplinkIf the interface the source leaf chose
     * \return link ids in path order
     */
    std::vector<uint32_t> TraceOcsPath(const ClusterFiveTuple& tuple,
                                       uint32_t src,
                                       uint32_t dst,
                                       uint32_t uplinkIf) const;

    uint32_t m_leafCount = 0;                                      //!< leaves
    uint32_t m_spineCount = 0;                                     //!< spines
    uint32_t m_serversPerLeaf = 0;                                 //!< servers under a leaf
    uint32_t m_gpusPerServer = 0;                                  //!< GPUs in a server
    NodeContainer m_gpus;                                          //!< GPU nodes
    NodeContainer m_serverSwitches;                                //!< intra-server switch nodes
    NodeContainer m_leaves;                                        //!< leaf nodes
    NodeContainer m_spines;                                        //!< spine nodes
    std::vector<ClusterLink> m_links;                              //!< directed links
    std::unordered_map<const NetDevice*, uint32_t> m_linkOfDevice; //!< device -> link id
    std::vector<uint32_t> m_gpuUplink;                             //!< GPU -> NIC uplink id
    std::vector<uint32_t> m_gpuDownlink;                           //!< GPU -> leaf downlink id
    std::vector<uint32_t> m_gpuNvUplink;                 //!< GPU -> intra-server uplink id
    std::vector<uint32_t> m_gpuNvDownlink;               //!< GPU -> intra-server downlink id
    std::vector<std::vector<uint32_t>> m_leafUplinks;    //!< [leaf][spine] link id
    std::vector<std::vector<uint32_t>> m_spineDownlinks; //!< [spine][leaf] link id
    std::vector<std::vector<uint32_t>> m_leafUplinkIf;   //!< [leaf][spine] interface
    std::vector<Ptr<ClosEcmpRouting>> m_leafRouting;     //!< per leaf
    std::vector<Ptr<ClosEcmpRouting>> m_spineRouting;    //!< per spine
    std::vector<Ptr<OcsSwitch>> m_ocs;                   //!< OCS k (empty: static layer)
    uint32_t m_spinePortsPerOcs = 0;                     //!< each spine's ports on each OCS
    std::vector<std::vector<uint32_t>> m_spinePortIf;    //!< [spine][spine port] interface
};

} // namespace ns3

#endif /* CLOS_FABRIC_H */
