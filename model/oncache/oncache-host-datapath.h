/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_HOST_DATAPATH_H
#define ONCACHE_HOST_DATAPATH_H

#include "oncache-conntrack.h"
#include "oncache-cost-model.h"
#include "oncache-fast-path.h"
#include "oncache-flow-key.h"
#include "oncache-host-cpu.h"
#include "oncache-mode.h"
#include "oncache-policy.h"
#include "oncache-veth-net-device.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>
#include <map>
#include <memory>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief The container data path of one host: the pods' veths, the fallback overlay (routing,
 *        network policy, conntrack, VXLAN encapsulation) and ONCache's caches and fast paths,
 *        each packet's work charged on the host's CPU model.
 *
 * Egress: a packet from a pod's veth is served on the pod's application core (E1-E6), then
 * leaves on the NIC. Ingress: a frame from the NIC is served on the RSS core chosen by hashing
 * the outer UDP source port (I1-I5), then on the pod's application core (I6 and the copy to the
 * application), then enters the pod. In ONCache modes the decisions and caches are those of
 * an OncacheFastPath, fed with each packet's frame: tc_masq (egress) or tc_restore (ingress)
 * first, as in the ONCache authors' code; a hit takes the fast path, anything else falls back to
 * the unmodified overlay, which sets the established mark from its conntrack; the learning programs
 * tc_init_e and tc_init_in fill the caches only from packets that carry both marks.
 * This class applies the bytes OncacheFastPath rewrote and charges the costs. The fast path
 * has no drop branch.
 */
class OncacheHostDatapath : public Object
{
  public:
    /// The miss mark in the inner IPv4 TOS byte.
    static constexpr uint8_t MISS_MARK = ONCACHE_MISS_MARK;
    /// The established mark in the inner IPv4 TOS byte.
    static constexpr uint8_t EST_MARK = ONCACHE_EST_MARK;

    /// Direction of a packet through this host.
    enum Direction
    {
        EGRESS, //!< from a local pod
        INGRESS //!< from the NIC
    };

    /// How a packet was handled.
    enum Path
    {
        PATH_NATIVE,  //!< bare metal: no overlay
        PATH_FAST,    //!< ONCache hit
        PATH_MISS,    //!< ONCache miss: miss mark set, fallback overlay
        PATH_REVERSE, //!< ONCache reverse (or destination) check failed: fallback, no mark
        PATH_FALLBACK //!< overlay mode, or a packet ONCache does not handle (intra-host, ...)
    };

    /// Why the fallback overlay dropped a packet.
    enum DropReason
    {
        DROP_POLICY,    //!< denied by the network policy
        DROP_NO_ROUTE,  //!< no route to the destination pod
        DROP_NO_POD,    //!< the destination pod is not on this host (or its veth is gone)
        DROP_MALFORMED, //!< not a VXLAN frame in an overlay mode, or a bad VXLAN header
        DROP_NIC_QUEUE, //!< the NIC transmit queue was full
        DROP_RX_QUEUE   //!< the receiving core's queue was full (backlog / socket buffer)
    };

    /// Which core runs the receive work of a frame (I1-I5).
    enum ReceiveSteering
    {
        STEER_RSS, //!< the core chosen by hashing the outer UDP source port (5-tuple natively)
        STEER_RFS  //!< the application core of the destination pod (Linux RFS), RSS otherwise
    };

    /// The caches of a host.
    enum CacheKind
    {
        CACHE_EGRESS_IP, //!< egress level 1: remote pod IP -> remote host IP
        CACHE_EGRESS,    //!< egress level 2: remote host IP -> header template
        CACHE_INGRESS,   //!< local pod IP -> veth and MACs
        CACHE_FILTER     //!< local/remote 5-tuple -> ingress and egress verdict bits
    };

    /**
     * \brief Signature of the Path trace source.
     * \param host the host index
     * \param flow the packet's source/destination oriented inner flow
     * \param direction egress or ingress
     * \param path how it was handled
     */
    typedef void (*PathTracedCallback)(uint32_t host,
                                       const OncacheFlowKey& flow,
                                       Direction direction,
                                       Path path);

    /**
     * \brief Signature of the Drop trace source.
     * \param host the host index
     * \param packet the inner IPv4 packet
     * \param reason why it was dropped
     */
    typedef void (*DropTracedCallback)(uint32_t host, Ptr<const Packet> packet, DropReason reason);

    /**
     * \brief Signature of the Deliver trace source.
     * \param host the host index
     * \param pod the pod's address
     * \param packet the IPv4 packet handed to the pod
     */
    typedef void (*DeliverTracedCallback)(uint32_t host, Ipv4Address pod, Ptr<const Packet> packet);

    /**
     * \brief Signature of the EgressDone trace source.
     * \param host the host index
     * \param flow the packet's source/destination oriented flow
     */
    typedef void (*EgressDoneTracedCallback)(uint32_t host, const OncacheFlowKey& flow);

    /// The outer headers and inner MACs of the overlay's own (slow-path) encapsulation.
    struct EgressInfo
    {
        Mac48Address outerDstMac; //!< remote NIC MAC
        Ipv4Address outerSrcIp;   //!< this host's IP
        Ipv4Address outerDstIp;   //!< remote host IP
        uint8_t ttl = 64;         //!< outer TTL
        uint32_t vni = 1;         //!< VXLAN network identifier
        Mac48Address innerSrcMac; //!< this host's VTEP MAC
        Mac48Address innerDstMac; //!< remote host's VTEP MAC
    };

    /// An ingress cache entry, as PeekIngress shows it.
    struct IngressInfo
    {
        Ptr<OncacheVethNetDevice> hostVeth; //!< host end of the pod's veth (the "ifindex")
        uint32_t appCore = 0;               //!< core of the pod's application
        Mac48Address podMac;                //!< learned inner destination MAC
        Mac48Address gatewayMac;            //!< learned inner source MAC
        bool learned = false;               //!< MACs learned by tc_init_in
    };

    /// Filter cache value: both bits must be set for a hit.
    using FilterAction = oncache_filter_action;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheHostDatapath();

    /**
     * \brief Wire the data path into its host. Creates the caches (capacities from the
     *        Attributes) and registers the IPv4 handler of the NIC and veths.
     * \param hostId the host index
     * \param host the host node
     * \param nic the underlay NIC (an Ethernet device)
     * \param hostIp the NIC's IPv4 address (the VTEP address)
     * \param cpu the host's cores
     * \param costs the segment costs
     * \param policy the cluster's network policy; every change to it deletes the filter
     *        entries of the flows whose verdict may have changed (its Changed trace source)
     * \throws std::invalid_argument for a cache size of 0
     */
    void Setup(uint32_t hostId,
               const Ptr<Node>& host,
               const Ptr<NetDevice>& nic,
               Ipv4Address hostIp,
               const Ptr<OncacheHostCpu>& cpu,
               const Ptr<OncacheCostModel>& costs,
               const Ptr<OncachePolicy>& policy);

    /// \return the data-path mode
    OncacheMode GetMode() const;
    /// \return this host's IP
    Ipv4Address GetHostIp() const;
    /// \return the NIC's MAC
    Mac48Address GetNicMac() const;
    /// \return the MAC of this host's VTEP (inner source MAC of encapsulated frames)
    Mac48Address GetVtepMac() const;
    /// \return the CPU model
    Ptr<OncacheHostCpu> GetCpu() const;
    /// \return the connection tracker
    Ptr<OncacheConntrack> GetConntrack() const;
    /// \return the network policy this data path enforces
    Ptr<OncachePolicy> GetPolicy() const;

    /**
     * \brief Plug a pod's veth into this host (the CNI ADD, plus the daemon's ingress entry).
     * \param pod the pod's IP
     * \param hostVeth the host end of its veth (already added to the host node)
     * \param appCore the core its applications run on
     */
    void AttachPod(Ipv4Address pod, Ptr<OncacheVethNetDevice> hostVeth, uint32_t appCore);

    /**
     * \brief Unplug a local pod (its veth stays on the node but no longer reaches the pod table)
     *        and delete what the fast paths know of it: its ingress entry and the filter
     *        entries of its flows.
     * \param pod the pod's IP
     */
    void DetachPod(Ipv4Address pod);

    /**
     * \brief Run an application's own (user-space) work on its pod's application core.
     *
     * The job queues behind the packets that core is serving, counts in the CoreBusy trace
     * (so in the CPU time per transaction) and calls done when it ends. A node that is not a
     * pod of a cluster, or a zero cost, calls done at once.
     * \param pod the pod node the application runs on
     * \param cost the CPU time of the work
     * \param done called when it is done
     */
    static void RunOnAppCore(const Ptr<Node>& pod, Time cost, std::function<void()> done);

    /**
     * \param pod an IP
     * \return true when it is a pod attached to this host
     */
    bool HasPod(Ipv4Address pod) const;

    /// \return the number of pods attached to this host
    uint32_t GetNPods() const;

    /**
     * \brief Route a remote pod's IP to its host (the overlay's routing table). A new or
     *        changed route deletes the pod's egress level-1 entry, so the next packet to it
     *        takes the fallback, follows the route and re-learns.
     * \param pod the pod IP
     * \param host the IP of the host that runs it
     */
    void SetRoute(Ipv4Address pod, Ipv4Address host);

    /**
     * \brief Remove a route and the pod's egress level-1 entry.
     * \param pod the pod IP whose route to remove
     */
    void RemoveRoute(Ipv4Address pod);

    /**
     * \brief Set the neighbour and FDB entry of a remote host. A new or changed entry deletes
     *        the host's egress level-2 entry (the template holds its MACs), so the next
     *        packet to it takes the fallback and re-learns.
     * \param host its IP
     * \param nicMac its NIC MAC
     * \param vtepMac its VTEP MAC
     */
    void SetNeighbour(Ipv4Address host, Mac48Address nicMac, Mac48Address vtepMac);

    /**
     * \brief Remove a neighbour entry and the host's egress level-2 entry.
     * \param host the IP of the host whose neighbour entry to remove
     */
    void RemoveNeighbour(Ipv4Address host);

    /**
     * \brief Delete a remote pod's egress level-1 entry (pod deletion or migration).
     * \param pod the pod IP
     * \return the number of entries deleted
     */
    uint32_t InvalidateRemotePod(Ipv4Address pod);

    /**
     * \brief Delete a local pod's ingress entry (pod deletion or migration away).
     * \param pod the pod IP
     * \return the number of entries deleted
     */
    uint32_t InvalidateLocalPod(Ipv4Address pod);

    /**
     * \brief Delete a remote host's egress level-2 entry (node removal).
     * \param host the host IP
     * \return the number of entries deleted
     */
    uint32_t InvalidateHost(Ipv4Address host);

    /**
     * \brief Delete the filter entries of every flow a rule matches, in either direction
     *        (policy change).
     * \param rule the new or changed rule
     * \return the number of entries deleted
     */
    uint32_t InvalidateFlows(const OncachePolicyRule& rule);

    /**
     * \brief Evict one filter entry, as the LRU would.
     * \param localRemote the key: local address and port first
     * \return true when an entry was deleted
     */
    bool EvictFlow(const OncacheFlowKey& localRemote);

    /**
     * \param kind a cache
     * \return its number of entries
     */
    std::size_t GetCacheSize(CacheKind kind) const;

    /**
     * \param kind a cache
     * \return the entries it evicted to make room so far
     */
    uint64_t GetCacheEvictions(CacheKind kind) const;

    /**
     * \param pod a local pod IP
     * \return the ingress entry, or nullptr (valid until the next call)
     */
    const IngressInfo* PeekIngress(Ipv4Address pod) const;

    /**
     * \param localRemote a filter key
     * \return the filter entry, or nullptr
     */
    const FilterAction* PeekFilter(const OncacheFlowKey& localRemote) const;

    /// \return the decision logic and caches (nullptr before Setup)
    const OncacheFastPath* GetFastPath() const;

    /**
     * \param flow a flow in host byte order
     * \return the filter key of the eBPF maps (network byte order)
     */
    static oncache_flow_key ToAbiKey(const OncacheFlowKey& flow);

  protected:
    void DoDispose() override;

  private:
    /// A local pod.
    struct PodInfo
    {
        Ptr<OncacheVethNetDevice> hostVeth; //!< host end of its veth
        uint32_t appCore = 0;               //!< its application core
    };

    /// A remote host's neighbour entry.
    struct Neighbour
    {
        Mac48Address nicMac;  //!< NIC MAC
        Mac48Address vtepMac; //!< VTEP MAC
    };

    /// What to do with a packet when its job ends.
    enum Action
    {
        ACTION_DROP,   //!< nothing (already traced)
        ACTION_NIC,    //!< send on the NIC
        ACTION_DELIVER //!< hand to a local pod (through its application core)
    };

    /// One packet's job.
    struct Job
    {
        Ptr<Packet> packet;                 //!< IPv4 packet, encapsulated when sent on the NIC
        bool fromNic = false;               //!< ingress job
        uint32_t inIfindex = 0;             //!< the device it arrived on (a pod's host veth)
        bool vxlan = false;                 //!< ingress: a VXLAN frame
        Mac48Address frameSrc;              //!< source MAC of the received frame
        Mac48Address frameDst;              //!< destination MAC of the received frame
        Action action = ACTION_DROP;        //!< outcome
        Mac48Address nicDst;                //!< ACTION_NIC: destination MAC
        Ipv4Address pod;                    //!< ACTION_DELIVER: destination pod
        Ptr<OncacheVethNetDevice> hostVeth; //!< ACTION_DELIVER: its veth
        uint32_t appCore = 0;               //!< ACTION_DELIVER: its core
        Mac48Address podMac;                //!< ACTION_DELIVER: destination MAC
        Mac48Address gatewayMac;            //!< ACTION_DELIVER: source MAC
        uint32_t payload = 0;               //!< transport payload bytes (for TSO framing)
        bool gso = false;                   //!< a TCP or UDP packet (TSO/GSO applies)
        uint32_t core = 0;                  //!< the core that runs the job
        OncacheFlowKey flow;                //!< egress: the inner flow
    };

    /// A frame waiting for the wire.
    struct NicFrame
    {
        Ptr<Packet> packet;       //!< the IPv4 packet (the NIC adds Ethernet)
        Mac48Address destination; //!< next-hop MAC
        Time wireTime;            //!< serialisation time at the NIC rate, TSO framing included
        OncacheFlowKey flow;      //!< the inner flow (for TxComplete)
    };

    /**
     * \brief Choose the core that runs a frame's receive work.
     * \param packet the frame's IPv4 packet (outer header first)
     * \param vxlan receives whether it is a VXLAN frame
     * \return the core index
     */
    uint32_t SteerReceive(Ptr<const Packet> packet, bool& vxlan) const;

    /**
     * \brief IPv4 protocol handler for the NIC and the veths.
     * \param device the receiving device
     * \param packet the packet
     * \param protocol the EtherType
     * \param from source MAC
     * \param to destination MAC
     * \param type packet type
     */
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type);

    /**
     * \param job an egress job
     * \return its service time; takes every egress decision
     */
    Time EgressStart(Job& job);

    /**
     * \param job an ingress job (NIC)
     * \return its service time; takes every ingress decision
     */
    Time IngressStart(Job& job);

    /**
     * \brief Egress in bare metal: deliver to a local pod or send to the pod's host, natively.
     * \param job an egress job (its flow parsed)
     * \param dst the destination pod
     * \param segments the wire frames the packet leaves as
     * \param cost the service time so far
     * \return the job's service time
     */
    Time EgressNative(Job& job, Ipv4Address dst, int64_t segments, Time cost);

    /**
     * \brief tc_masq on a pod's host-side veth: look the flow up in the egress caches, the
     *        fast path's rewrite of the packet's head applied; a hit sends on the NIC.
     * \param job an egress job to a remote pod (its flow parsed)
     * \return PATH_FAST on a hit (the job then sends on the NIC), else the path it falls back
     *         on (PATH_MISS, PATH_REVERSE or PATH_FALLBACK)
     */
    Path EgressCacheLookup(Job& job);

    /**
     * \brief The overlay's egress (E2-E4): veth, intra-host routing, policy and conntrack, then
     *        delivery to a local pod or VXLAN encapsulation (EgressEncapsulate).
     * \param job an egress job the fast path did not take (its flow parsed)
     * \param dst the destination pod
     * \param local whether the destination pod is on this host
     * \param segments the wire frames the packet leaves as
     * \param cost the service time so far
     * \return the job's service time
     */
    Time EgressFallback(Job& job, Ipv4Address dst, bool local, int64_t segments, Time cost);

    /**
     * \brief Encapsulate an egress packet for a remote pod's host and send it on the NIC; in the
     *        ONCache modes, tc_init_e then learns the egress cache entries from it.
     * \param job an egress job the policy allowed, to a remote pod
     * \param dst the destination pod
     * \param segments the wire frames the packet leaves as
     * \param cost the service time so far
     * \return the job's service time (a drop when the pod has no route or neighbour)
     */
    Time EgressEncapsulate(Job& job, Ipv4Address dst, int64_t segments, Time cost);

    /**
     * \param pod a remote pod
     * \param host receives the IP of the pod's host, when found
     * \return the neighbour entry of the pod's host, or nullptr when the pod has no route or
     *         its host no neighbour entry
     */
    const Neighbour* FindNextHop(Ipv4Address pod, Ipv4Address& host) const;

    /**
     * \brief Ingress of a frame that is not VXLAN: delivered natively in bare metal, else
     *        malformed.
     * \param job an ingress job
     * \param cost the service time so far
     * \return the job's service time
     */
    Time IngressNative(Job& job, Time cost);

    /**
     * \brief tc_restore on the NIC's ingress: look the frame up in the ingress cache, the fast
     *        path's rewrite of its head applied; a hit is delivered to its pod's veth.
     * \param job an ingress VXLAN job, long enough for the encapsulation and an inner IPv4
     *        header
     * \param verdict receives the fast path's verdict
     * \param cost the service time so far; a hit adds its receive, decapsulation and segment
     *        costs
     * \return true when the fast path took the frame (a hit), false when it falls back
     */
    bool IngressCacheLookup(Job& job, OncacheFastPath::Verdict& verdict, Time& cost);

    /**
     * \brief Remove the outer IPv4, UDP and VXLAN headers, and the inner Ethernet header of a
     *        well-formed frame.
     * \param job an ingress VXLAN job
     * \return false when the frame is malformed (not VXLAN of this VNI, or too short for an
     *         inner Ethernet and IPv4 header; its inner Ethernet header is then left in place)
     */
    bool Decapsulate(Job& job);

    /**
     * \brief The overlay's ingress after decapsulation (I2-I5): routing, policy, conntrack and
     *        veth to the local pod; in the ONCache modes, tc_init_in then learns the ingress
     *        cache entry from it.
     * \param job a decapsulated ingress job
     * \param flow its inner flow
     * \param dst the destination pod
     * \param segments the wire frames the packet arrived as
     * \param cost the service time so far
     * \return the job's service time
     */
    Time IngressFallback(Job& job,
                         const OncacheFlowKey& flow,
                         Ipv4Address dst,
                         int64_t segments,
                         Time cost);

    /**
     * \brief Carry out a job's action when its service ends.
     * \param job the job
     */
    void Finish(Job& job);

    /**
     * \brief Add the VXLAN encapsulation (inner Ethernet, VXLAN, UDP, outer IPv4).
     * \param packet the inner IPv4 packet, encapsulated in place
     * \param info the template
     * \param flow the inner flow (its hash is the outer UDP source port)
     */
    void Encapsulate(Ptr<Packet> packet, const EgressInfo& info, const OncacheFlowKey& flow);

    /**
     * \brief Set and clear bits of an IPv4 packet's TOS byte.
     * \param packet the packet, IPv4 header first
     * \param set bits to set
     * \param clear bits to clear
     */
    static void ChangeTos(Ptr<Packet> packet, uint8_t set, uint8_t clear);

    /**
     * \param flow a flow
     * \return the outer UDP source port for it, in [49152, 65535]
     */
    static uint16_t SourcePort(const OncacheFlowKey& flow);

    /**
     * \brief Queue a packet for the wire (the qdisc and NIC).
     * \param job the job with the packet to send
     */
    void EnqueueNic(Job& job);

    /// Start serialising the frame at the head of the NIC queue.
    void StartNicTransmission();

    /// The frame at the head of the NIC queue has been serialised: hand it to the channel.
    void NicTransmissionDone();

    /**
     * \brief The policy changed: delete the filter entries of the flows it may have changed.
     * \param scope matches every such flow (OncachePolicy's Changed trace source)
     */
    void PolicyChanged(const OncachePolicyRule& scope);

    /**
     * \brief Mark a job as dropped and fire the Drop trace.
     * \param job the job
     * \param reason why
     */
    void Drop(Job& job, DropReason reason);

    /**
     * \brief Make a job deliver to a local pod.
     * \param job the job
     * \param pod the destination pod
     * \return false when the pod is not local
     */
    bool DeliverLocal(Job& job, Ipv4Address pod);

    OncacheMode m_mode;                          //!< data-path mode
    ReceiveSteering m_steering;                  //!< receive core selection
    DataRate m_nicRate;                          //!< NIC line rate (wire serialisation)
    Time m_linkDelay;                            //!< one-way NIC-to-NIC latency
    uint32_t m_wireMtu;                          //!< IP MTU of a wire frame (TSO segment size)
    uint32_t m_nicQueueLimit;                    //!< NIC queue capacity in frames
    uint32_t m_receiveQueueLimit;                //!< jobs a core may queue for a received packet
    std::deque<NicFrame> m_nicQueue;             //!< frames waiting for or in serialisation
    bool m_nicBusy;                              //!< a frame is being serialised
    uint32_t m_egressIpCacheSize;                //!< capacity of egress level 1
    uint32_t m_egressCacheSize;                  //!< capacity of egress level 2
    uint32_t m_ingressCacheSize;                 //!< capacity of the ingress cache
    uint32_t m_filterCacheSize;                  //!< capacity of the filter cache
    uint32_t m_vni;                              //!< VXLAN network identifier
    uint32_t m_hostId;                           //!< host index
    Ptr<Node> m_node;                            //!< host node
    Ptr<NetDevice> m_nic;                        //!< underlay NIC
    Ipv4Address m_hostIp;                        //!< NIC IP
    Mac48Address m_vtepMac;                      //!< VTEP MAC
    uint16_t m_ipId;                             //!< next outer IP identification
    Ptr<OncacheHostCpu> m_cpu;                   //!< cores
    Ptr<OncacheCostModel> m_costs;               //!< segment costs
    Ptr<OncachePolicy> m_policy;                 //!< network policy
    Ptr<OncacheConntrack> m_conntrack;           //!< connection tracker
    std::map<uint32_t, PodInfo> m_pods;          //!< local pods by IP
    std::map<uint32_t, uint32_t> m_podByIfIndex; //!< host veth ifindex -> pod IP
    std::map<uint32_t, PodInfo> m_veths;   //!< every veth ever attached, by ifindex (ingress hits)
    std::map<uint32_t, uint32_t> m_routes; //!< pod IP -> host IP
    std::map<uint32_t, Neighbour> m_neighbours;  //!< host IP -> MACs
    std::unique_ptr<OncacheFastPath> m_fastPath; //!< ONCache's decisions and caches
    mutable IngressInfo m_peekedIngress;         //!< what PeekIngress returned last
    TracedCallback<uint32_t, const OncacheFlowKey&, Direction, Path> m_pathTrace; //!< decisions
    TracedCallback<uint32_t, Ptr<const Packet>, DropReason> m_dropTrace;          //!< drops
    TracedCallback<uint32_t, Ipv4Address, Ptr<const Packet>> m_deliverTrace;      //!< deliveries
    TracedCallback<uint32_t, const OncacheFlowKey&> m_egressDoneTrace;            //!< sends done
    TracedCallback<uint32_t, const OncacheFlowKey&> m_txCompleteTrace;            //!< skbs freed
};

} // namespace ns3

#endif /* ONCACHE_HOST_DATAPATH_H */
