/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLOS_FABRIC_HELPER_H
#define CLOS_FABRIC_HELPER_H

#include "clos-ecmp-routing-helper.h"

#include "ns3/clos-fabric.h"
#include "ns3/cluster-topology.h"
#include "ns3/data-rate.h"
#include "ns3/lean-link-helper.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/pfc-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traffic-control-helper.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup clos
 * \brief Builds a leaf-spine GPU fabric of real ns-3 nodes (see ClosFabric).
 *
 * GPUs (one NIC each) sit in servers under leaves; every leaf has one link to every spine.
 * GPUs of one server also reach each other through an intra-server switch over fast
 * NVLink-like links. GPUs run ns-3's TCP/IP stack with static routes (same server: the
 * intra-server link; otherwise the NIC); leaves and spines forward IP with
 * ClosEcmpRouting, whose routes come from the fabric's structure. Every device gets a
 * queue disc: by default RED in DCTCP style (mark ECN above EcnThreshold, drop above
 * QueueSize), or drop-tail when EcnThreshold is 0, or whatever SetQueueDisc() names. The
 * default RED and FIFO queue discs get a LeanLinkFifoQueue of QueueSize as their internal queue,
 * and lean links a LeanLinkFifoQueue of 2 packets as the device queue (DropTailQueue's behaviour
 * and traces without an allocation per packet; a SetQueueDisc() queue disc keeps ns-3's).
 * With LinkLayer pfc the NIC-leaf and leaf-spine links are lossless Ethernet instead
 * (PfcNetDevice, no queue disc; leaves and spines get a PfcSwitchBuffer; see
 * doc/pfc/pfc.rst); intra-server links stay point-to-point. With SwitchFastPath (the
 * default) leaves and spines forward transit IPv4 packets through ClosSwitchForwarder
 * instead of Ipv4L3Protocol (same routing, TTL, queue discs and devices; see its doc).
 *
 * Install() also sets these ns-3 defaults so TCP fits the fabric: TcpL4Protocol::SocketType
 * = TcpSocketType, TcpSocket::SegmentSize = Mtu - 52 (IPv4, TCP and timestamp headers),
 * TcpSocket::SndBufSize = RcvBufSize = TcpBufferSize, TcpSocketBase::MinRto = TcpMinRto,
 * TcpSocket::DelAckTimeout = TcpDelAckTimeout, TcpSocketState::EnablePacing = TcpPacing and
 * TcpSocketState::MaxPacingRate = NicDataRate.
 *
 * Every attribute's checker bounds it (an out-of-range value is refused when it is set);
 * inconsistent attributes, and a fabric larger than MAX_NODES nodes or MAX_LINKS directed
 * links, make Install() throw std::invalid_argument naming the attribute.
 */
class ClosFabricHelper : public Object
{
  public:
    static constexpr uint32_t MAX_LEAVES = 256;            //!< Leaves (the 10.<leaf>/16 plan)
    static constexpr uint32_t MAX_SPINES = 256;            //!< Spines
    static constexpr uint32_t MAX_SERVERS_PER_LEAF = 256;  //!< ServersPerLeaf (10.l.<s>/24)
    static constexpr uint32_t MAX_GPUS_PER_SERVER = 64;    //!< GpusPerServer
    static constexpr uint32_t MAX_PORTS = 65535;           //!< LeafPorts, SpinePorts
    static constexpr uint32_t MAX_NODES = 16384;           //!< GPUs + switches Install builds
    static constexpr uint32_t MAX_LINKS = 131072;          //!< directed links Install builds
    static constexpr uint64_t MIN_DATA_RATE_BPS = 1000000; //!< every data rate: 1 Mbps

    /// What the NIC-leaf and leaf-spine links are made of.
    enum LinkLayer
    {
        P2P, //!< PointToPointNetDevice (or LeanLinkNetDevice, LeanLinks) + a queue disc (default)
        PFC  //!< PfcNetDevice (priorities, PFC, ECN) + a PfcSwitchBuffer per switch
    };

    /// Where frames wait on lean NIC-leaf and leaf-spine ports.
    enum Egress
    {
        QUEUE_DISC, //!< the queue disc (RED or FIFO) and the device queue, as ns-3 (default)
        CLOCK       //!< the device's own clock and backlog (LeanLinkNetDevice Egress=Clock)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ClosFabricHelper();

    /**
     * \brief The fabric these attributes describe, for the flow-level engine (one
     *        description: the packet-level fabric and the flow engine read the same
     *        attributes). Throws std::invalid_argument, one line, where ClusterTopology refuses.
     * \return the topology configuration
     */
    ClusterTopologyConfig GetTopologyConfig() const;

    /**
     * \brief Build the fabric.
     * \return the fabric
     */
    Ptr<ClosFabric> Install();

    /**
     * \brief Set an attribute of the switches' ClosEcmpRouting (e.g. "HashAlgorithm").
     * \param name attribute name
     * \param value attribute value
     */
    void SetRoutingAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every PfcNetDevice (LinkLayer pfc), e.g. "EcnEnabled".
     *        DataRate and Mtu come from this helper's attributes.
     * \param name attribute name
     * \param value attribute value
     */
    void SetPfcDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every switch's PfcSwitchBuffer (LinkLayer pfc), e.g.
     *        "BufferSize" or "PfcEnabled".
     * \param name attribute name
     * \param value attribute value
     */
    void SetPfcBufferAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Replace the default queue disc of every device, as
     *        TrafficControlHelper::SetRootQueueDisc does.
     * \param type the queue disc TypeId name, e.g. "ns3::FqCoDelQueueDisc"
     * \param args attribute name-value pairs
     */
    template <typename... Ts>
    void SetQueueDisc(const std::string& type, Ts&&... args)
    {
        m_customQueueDisc = TrafficControlHelper();
        m_customQueueDisc.SetRootQueueDisc(type, std::forward<Ts>(args)...);
        m_hasCustomQueueDisc = true;
    }

    /**
     * \brief Write pcap traces of every fabric device (NICs, leaf and spine ports).
     * \param prefix file name prefix
     * \param fabric a fabric built by this helper
     */
    void EnablePcap(const std::string& prefix, Ptr<ClosFabric> fabric);

    /**
     * \brief Fix every random stream of a fabric built by this helper: the per-switch hash
     *        salts (drawn again from the new stream), the IP stacks and the RED queue discs.
     *        Needed, as for any ns-3 model, to repeat a run inside one process.
     * \param fabric the fabric
     * \param stream first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(Ptr<ClosFabric> fabric, int64_t stream);

    /**
     * \brief Set the ns-3 TCP defaults listed above from the attributes (Install() calls
     *        it; a program that builds its own nodes with the same transport may too).
     */
    void ConfigureTransport() const;

    /// \return the traffic-control helper Install() applies to every device
    TrafficControlHelper GetQueueDiscHelper() const;

  private:
    struct InstallState; //!< what Install()'s link stages share (defined in the .cc)

    /**
     * \brief Create the spines, leaves, server switches and GPUs, in this order (node ids),
     *        each on its Systems block's system, and record the fabric's shape.
     * \param fabric the fabric being built
     */
    void CreateNodes(Ptr<ClosFabric> fabric) const;
    /**
     * \brief Install IP: static routing on GPUs and server switches, the routing helper's
     *        ClosEcmpRouting on leaves and spines.
     * \param fabric the fabric being built
     */
    void InstallInternetStacks(Ptr<ClosFabric> fabric) const;
    /**
     * \brief Set the Mtu, device queue and Egress of the p2p and lean link helpers (throws
     *        when Egress=clock and EcnThreshold and QueueSize differ in unit).
     * \param p2p the point-to-point helper of this Install
     */
    void ConfigureLinkHelpers(PointToPointHelper& p2p);
    /**
     * \brief Give every leaf and spine a PfcSwitchBuffer (LinkLayer pfc).
     * \param fabric the fabric being built
     */
    void InstallPfcSwitchBuffers(Ptr<ClosFabric> fabric);
    /**
     * \brief Link two nodes: fabric links follow LinkLayer and LeanLinks, intra-server links
     *        are p2p; the devices that need a queue disc join state.queueDiscDevices.
     * \param state the Install in progress
     * \param a first node (device 0)
     * \param b second node (device 1)
     * \param rate data rate
     * \param delay propagation delay
     * \param fabricLink a NIC-leaf or leaf-spine link
     * \return the two devices
     */
    NetDeviceContainer Connect(InstallState& state,
                               Ptr<Node> a,
                               Ptr<Node> b,
                               DataRate rate,
                               Time delay,
                               bool fabricLink);
    /**
     * \brief Link every GPU's NIC to its leaf, with its address and default route.
     * \param state the Install in progress
     */
    void InstallNicLinks(InstallState& state);
    /**
     * \brief Link every leaf to every spine (static layer, OcsCount 0).
     * \param state the Install in progress
     */
    void InstallLeafSpineLinks(InstallState& state);
    /**
     * \brief Link every GPU to its server's switch (GpusPerServer > 1), with the routes.
     * \param state the Install in progress
     */
    void InstallIntraServerLinks(InstallState& state);
    /**
     * \brief Add the leaves' and spines' ClosEcmpRouting routes from the structure.
     * \param fabric the fabric being built
     * \param leafDownIf per leaf, the interfaces of its GPU downlinks
     */
    void InstallSwitchRoutes(Ptr<ClosFabric> fabric,
                             const std::vector<std::vector<uint32_t>>& leafDownIf) const;
    /**
     * \brief Put a ClosSwitchForwarder on every leaf and spine (SwitchFastPath).
     * \param fabric the fabric being built
     */
    void InstallSwitchForwarders(Ptr<ClosFabric> fabric) const;
    /**
     * \brief Build the OCS layer: one OcsSwitch per uplink port k, leaf l on its port l and
     *        spine j's q-th port on its port Leaves + j * SpinePorts / OcsCount + q.
     * \param fabric the fabric being built
     * \param devices receives the new devices
     * \param nextAddress hands out switch-side addresses
     */
    void InstallOcsLayer(Ptr<ClosFabric> fabric,
                         NetDeviceContainer& devices,
                         const std::function<Ipv4Address()>& nextAddress) const;
    /**
     * \brief Light the initial circuits (full wiring where it exists), make the interfaces
     *        and routes follow the circuits from now on.
     * \param fabric the fabric
     */
    void StartOcsLayer(Ptr<ClosFabric> fabric) const;
    /// Throw std::invalid_argument for the first inconsistent attribute.
    void Validate() const;
    /// Validate(): LinkLayer, Egress, LeanLinks, OcsCount and SetQueueDisc together.
    void ValidateLinkLayer() const;
    /// Validate(): Systems > 1 (MPI processes, link layer, leaves and spines).
    void ValidateSystems() const;
    /// Validate(): the OCS layer, node and link counts, LeafPorts and SpinePorts.
    void ValidateSize() const;
    /// Validate(): data rates, QueueSize, EcnThreshold and the TCP attributes.
    void ValidateRatesAndTransport() const;
    /**
     * \brief Give every switch a new salt from m_saltRng.
     * \param fabric the fabric
     */
    void DrawSalts(Ptr<ClosFabric> fabric);

    uint32_t m_leaves;                      //!< leaf count
    uint32_t m_spines;                      //!< spine count
    uint32_t m_serversPerLeaf;              //!< servers under a leaf
    uint32_t m_gpusPerServer;               //!< GPUs in a server
    uint32_t m_leafPorts;                   //!< leaf radix (0: as needed)
    uint32_t m_spinePorts;                  //!< spine radix (0: as needed)
    uint32_t m_ocsCount;                    //!< OCSs (0: static layer)
    uint32_t m_systems;                     //!< processes of a distributed run
    Time m_ocsReconfigurationTime;          //!< OCS dark time
    DataRate m_nicRate;                     //!< GPU NIC rate
    Time m_nicDelay;                        //!< GPU-leaf propagation delay
    DataRate m_fabricRate;                  //!< leaf-spine rate
    Time m_fabricDelay;                     //!< leaf-spine propagation delay
    DataRate m_intraServerRate;             //!< NVLink-like rate
    Time m_intraServerDelay;                //!< NVLink-like delay
    uint32_t m_mtu;                         //!< IP MTU of every link
    QueueSize m_queueSize;                  //!< per-port queue limit
    QueueSize m_ecnThreshold;               //!< DCTCP marking threshold K (0: no ECN)
    std::string m_tcpSocketType;            //!< TCP congestion control
    uint32_t m_tcpBufferSize;               //!< socket buffers
    Time m_tcpMinRto;                       //!< minimum RTO
    bool m_tcpPacing;                       //!< pace TCP at up to the NIC rate
    bool m_switchFastPath;                  //!< leaves and spines use ClosSwitchForwarder
    bool m_leanLinks;                       //!< p2p fabric links are LeanLinkNetDevices
    Time m_tcpDelAckTimeout;                //!< delayed-ACK timeout
    ClosEcmpRoutingHelper m_routing;        //!< switch routing factory
    TrafficControlHelper m_customQueueDisc; //!< set by SetQueueDisc
    bool m_hasCustomQueueDisc;              //!< SetQueueDisc was called
    PointToPointHelper m_pcap;              //!< used only for EnablePcap
    LeanLinkHelper m_lean;                  //!< lean p2p fabric links and their pcap
    LinkLayer m_linkLayer;                  //!< p2p or pfc fabric links
    Egress m_egress;                        //!< queue disc or clock on lean fabric ports
    PfcHelper m_pfc;                        //!< pfc links, buffers and their pcap
    Ptr<UniformRandomVariable> m_saltRng;   //!< draws per-switch salts
};

} // namespace ns3

#endif /* CLOS_FABRIC_HELPER_H */
