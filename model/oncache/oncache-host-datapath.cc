/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-host-datapath.h"

#include "oncache-check.h"
#include "oncache-limits.h"
#include "oncache-packet-frame.h"
#include "oncache-vxlan-header.h"

#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/hash.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <arpa/inet.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheHostDatapath");

NS_OBJECT_ENSURE_REGISTERED(OncacheHostDatapath);

namespace
{
/// EtherType of IPv4.
constexpr uint16_t IPV4_ETHERTYPE = 0x0800;
/// IP protocol number of UDP.
constexpr uint8_t UDP_PROTOCOL = 17;

/// \return the data path of an OncacheFastPath verdict (PASS: the packet is not ONCache's)
OncacheHostDatapath::Path
ToPath(OncacheFastPath::Verdict verdict)
{
    switch (verdict)
    {
    case OncacheFastPath::VERDICT_HIT:
        return OncacheHostDatapath::PATH_FAST;
    case OncacheFastPath::VERDICT_MISS:
        return OncacheHostDatapath::PATH_MISS;
    case OncacheFastPath::VERDICT_REVERSE:
        return OncacheHostDatapath::PATH_REVERSE;
    case OncacheFastPath::VERDICT_PASS:
    case OncacheFastPath::VERDICT_SPOOF:
        break;
    }
    return OncacheHostDatapath::PATH_FALLBACK;
}

/**
 * \param packetBytes the IPv4 packet as it leaves on the wire (encapsulation included)
 * \param payload its transport payload bytes
 * \param gso a TCP or UDP packet (TSO/GSO applies)
 * \param mtu the wire MTU
 * \return the wire frames it leaves as: ceil(payload / MSS) for a TCP or UDP packet larger
 *         than the MTU (TSO, UDP GSO; each frame repeats every header), else 1
 */
uint32_t
WireSegments(uint32_t packetBytes, uint32_t payload, bool gso, uint32_t mtu)
{
    const uint32_t headers = packetBytes - payload;
    if (!gso || packetBytes <= mtu || mtu <= headers)
    {
        return 1;
    }
    const uint32_t mss = mtu - headers;
    return (payload + mss - 1) / mss;
}

/**
 * \param job a decapsulated skb (its payload is set)
 * \param mtu the wire MTU
 * \param inner set to its inner IPv4 header
 * \param segments set to the wire segments it arrived as (GRO merged them, see EgressStart)
 * \return its inner flow
 */
template <typename Job>
OncacheFlowKey
DecapsulatedFlow(Job& job, uint32_t mtu, Ipv4Header& inner, int64_t& segments)
{
    OncacheFlowKey flow = OncacheParseFlow(job.packet, inner, &job.payload);
    segments = WireSegments(job.packet->GetSize() + OncacheVxlanHeader::OVERHEAD,
                            job.payload,
                            flow.protocol == 6 || flow.protocol == 17,
                            mtu);
    return flow;
}
} // namespace

TypeId
OncacheHostDatapath::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheHostDatapath")
            .SetParent<Object>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheHostDatapath>()
            .AddAttribute("Mode",
                          "The data path: BareMetal (host networking), Overlay (Antrea-like "
                          "standard overlay), Oncache (fast path on a hit, overlay on a miss) or "
                          "OncacheRpeer (Oncache whose egress fast path also skips the veth).",
                          EnumValue(ONCACHE_MODE_ONCACHE),
                          MakeEnumAccessor(&OncacheHostDatapath::m_mode),
                          MakeOncacheModeChecker())
            .AddAttribute("ReceiveSteering",
                          "The core that runs a received frame's driver, decapsulation and "
                          "overlay work: Rss hashes the outer UDP source port (the 5-tuple for "
                          "plain IP); Rfs uses the application core of the destination pod, as "
                          "Linux receive flow steering does, so that one flow's receive work "
                          "and copy share a core.",
                          EnumValue(STEER_RSS),
                          MakeEnumAccessor(&OncacheHostDatapath::m_steering),
                          MakeEnumChecker(STEER_RSS, "Rss", STEER_RFS, "Rfs"))
            .AddAttribute("NicRate",
                          "The line rate of the NIC: the datapath serialises every frame at "
                          "this rate (TSO framing of super-segments included) before handing it "
                          "to the channel.",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&OncacheHostDatapath::m_nicRate),
                          MakeDataRateChecker())
            .AddAttribute("LinkDelay",
                          "The one-way latency from this NIC to another host's NIC "
                          "(propagation and switching), applied after serialisation.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&OncacheHostDatapath::m_linkDelay),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("WireMtu",
                          "The IP MTU of a frame on the wire: a TCP super-segment leaves as "
                          "ceil(payload / MSS) frames of at most this size (TSO).",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&OncacheHostDatapath::m_wireMtu),
                          MakeUintegerChecker<uint32_t>(ONCACHE_MIN_IP_MTU, ONCACHE_MAX_IP_PACKET))
            .AddAttribute("NicQueueLimit",
                          "The capacity of the NIC transmit queue (qdisc) in frames; a full "
                          "queue drops.",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&OncacheHostDatapath::m_nicQueueLimit),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReceiveQueueLimit",
                          "A received packet is dropped (DROP_RX_QUEUE in the Drop trace) when "
                          "the core it is queued on, for its receive work or for its delivery "
                          "to the pod, already holds this many jobs: the bound of Linux's "
                          "netdev backlog (netdev_max_backlog, 1000) and socket receive buffer.",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&OncacheHostDatapath::m_receiveQueueLimit),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("EgressIpCacheSize",
                          "Capacity of the egress level-1 LRU cache (remote pod IP to remote "
                          "host IP); 4096 in ONCache's code.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&OncacheHostDatapath::m_egressIpCacheSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EgressCacheSize",
                          "Capacity of the egress level-2 LRU cache (remote host IP to header "
                          "template); 1024 in ONCache's code.",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&OncacheHostDatapath::m_egressCacheSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("IngressCacheSize",
                          "Capacity of the ingress LRU cache (local pod IP to veth and MACs); "
                          "1024 in ONCache's code.",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&OncacheHostDatapath::m_ingressCacheSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FilterCacheSize",
                          "Capacity of the filter LRU cache (local/remote 5-tuple to the "
                          "ingress and egress verdict bits); 4096 in ONCache's code.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&OncacheHostDatapath::m_filterCacheSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Vni",
                          "The VXLAN network identifier of the overlay.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&OncacheHostDatapath::m_vni),
                          MakeUintegerChecker<uint32_t>(0, (1U << 24) - 1))
            .AddTraceSource("Path",
                            "A packet's data-path decision: host, inner flow, direction and "
                            "path (native, fast, miss, reverse-check failure, fallback).",
                            MakeTraceSourceAccessor(&OncacheHostDatapath::m_pathTrace),
                            "ns3::OncacheHostDatapath::PathTracedCallback")
            .AddTraceSource("Drop",
                            "A packet was dropped by the fallback overlay (policy, no route, no "
                            "pod, malformed), at a full NIC queue or at a full receive queue: "
                            "host, packet, reason.",
                            MakeTraceSourceAccessor(&OncacheHostDatapath::m_dropTrace),
                            "ns3::OncacheHostDatapath::DropTracedCallback")
            .AddTraceSource("Deliver",
                            "A packet was handed to a local pod: host, pod IP, packet.",
                            MakeTraceSourceAccessor(&OncacheHostDatapath::m_deliverTrace),
                            "ns3::OncacheHostDatapath::DeliverTracedCallback")
            .AddTraceSource("EgressDone",
                            "A pod's packet finished its egress processing on the application "
                            "core (its send system call returns): host, inner flow.",
                            MakeTraceSourceAccessor(&OncacheHostDatapath::m_egressDoneTrace),
                            "ns3::OncacheHostDatapath::EgressDoneTracedCallback")
            .AddTraceSource("TxComplete",
                            "A pod's packet was freed by the host: serialised by the NIC, handed "
                            "to a local pod, or dropped (the skb destructor that returns its "
                            "send-buffer space to the socket): host, inner flow.",
                            MakeTraceSourceAccessor(&OncacheHostDatapath::m_txCompleteTrace),
                            "ns3::OncacheHostDatapath::EgressDoneTracedCallback");
    return tid;
}

OncacheHostDatapath::OncacheHostDatapath()
    : m_mode(ONCACHE_MODE_ONCACHE),
      m_steering(STEER_RSS),
      m_nicRate("100Gbps"),
      m_linkDelay(MicroSeconds(1)),
      m_wireMtu(1500),
      m_nicQueueLimit(1000),
      m_receiveQueueLimit(1000),
      m_nicBusy(false),
      m_egressIpCacheSize(4096),
      m_egressCacheSize(1024),
      m_ingressCacheSize(1024),
      m_filterCacheSize(4096),
      m_vni(1),
      m_hostId(0),
      m_vtepMac(Mac48Address::Allocate()),
      m_ipId(0)
{
    NS_LOG_FUNCTION(this);
}

void
OncacheHostDatapath::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_nic = nullptr;
    m_cpu = nullptr;
    m_costs = nullptr;
    if (m_policy)
    {
        m_policy->TraceDisconnectWithoutContext(
            "Changed",
            MakeCallback(&OncacheHostDatapath::PolicyChanged, this));
    }
    m_policy = nullptr;
    m_conntrack = nullptr;
    m_pods.clear();
    m_veths.clear();
    m_nicQueue.clear();
    m_fastPath.reset();
    Object::DoDispose();
}

void
OncacheHostDatapath::Setup(uint32_t hostId,
                           const Ptr<Node>& host,
                           const Ptr<NetDevice>& nic,
                           Ipv4Address hostIp,
                           const Ptr<OncacheHostCpu>& cpu,
                           const Ptr<OncacheCostModel>& costs,
                           const Ptr<OncachePolicy>& policy)
{
    NS_LOG_FUNCTION(this << hostId << host << nic << hostIp);
    ONCACHE_REQUIRE(m_nicRate.GetBitRate() > 0,
                    std::invalid_argument,
                    "NicRate must be above 0bps");
    m_fastPath = std::make_unique<OncacheFastPath>(m_egressIpCacheSize,
                                                   m_egressCacheSize,
                                                   m_ingressCacheSize,
                                                   m_filterCacheSize);
    // The devmap entry of the NIC: the agent's "init" (bpf/oncache/oncache-bpf-agent.cc).
    oncache_dev_info dev{};
    dev.ip = htonl(hostIp.Get());
    Mac48Address::ConvertFrom(nic->GetAddress()).CopyTo(dev.mac);
    dev.vni = m_vni;
    m_fastPath->SetDevice(nic->GetIfIndex(), dev);
    m_hostId = hostId;
    m_node = host;
    m_nic = nic;
    m_hostIp = hostIp;
    m_cpu = cpu;
    m_cpu->SetHostId(hostId);
    m_costs = costs;
    m_policy = policy;
    m_policy->TraceConnectWithoutContext("Changed",
                                         MakeCallback(&OncacheHostDatapath::PolicyChanged, this));
    m_conntrack = CreateObject<OncacheConntrack>();
    m_node->RegisterProtocolHandler(MakeCallback(&OncacheHostDatapath::Receive, this),
                                    IPV4_ETHERTYPE,
                                    nullptr);
}

OncacheMode
OncacheHostDatapath::GetMode() const
{
    return m_mode;
}

Ipv4Address
OncacheHostDatapath::GetHostIp() const
{
    return m_hostIp;
}

Mac48Address
OncacheHostDatapath::GetNicMac() const
{
    return Mac48Address::ConvertFrom(m_nic->GetAddress());
}

Mac48Address
OncacheHostDatapath::GetVtepMac() const
{
    return m_vtepMac;
}

Ptr<OncacheHostCpu>
OncacheHostDatapath::GetCpu() const
{
    return m_cpu;
}

Ptr<OncacheConntrack>
OncacheHostDatapath::GetConntrack() const
{
    return m_conntrack;
}

Ptr<OncachePolicy>
OncacheHostDatapath::GetPolicy() const
{
    return m_policy;
}

void
OncacheHostDatapath::AttachPod(Ipv4Address pod,
                               Ptr<OncacheVethNetDevice> hostVeth,
                               uint32_t appCore)
{
    NS_LOG_FUNCTION(this << pod << hostVeth << appCore);
    ONCACHE_REQUIRE(m_pods.count(pod.Get()) == 0,
                    std::invalid_argument,
                    "pod address " << pod << " is already in use on host " << m_hostId);
    ONCACHE_REQUIRE(appCore < m_cpu->GetCores(),
                    std::out_of_range,
                    "pod " << pod << ": application core " << appCore << " does not exist");
    PodInfo info;
    info.hostVeth = hostVeth;
    info.appCore = appCore;
    m_pods[pod.Get()] = info;
    m_podByIfIndex[hostVeth->GetIfIndex()] = pod.Get();
    m_veths[hostVeth->GetIfIndex()] = info;
    if (OncacheModeUsesCache(m_mode))
    {
        // The daemon writes the ingress entry with the veth and zero MACs (as the ONCache
        // authors' daemon.py does).
        m_fastPath->AddLocalPod(htonl(pod.Get()), hostVeth->GetIfIndex());
    }
}

void
OncacheHostDatapath::DetachPod(Ipv4Address pod)
{
    NS_LOG_FUNCTION(this << pod);
    auto it = m_pods.find(pod.Get());
    ONCACHE_REQUIRE(it != m_pods.end(),
                    std::invalid_argument,
                    "pod " << pod << " is not on host " << m_hostId);
    m_podByIfIndex.erase(it->second.hostVeth->GetIfIndex());
    m_pods.erase(it);
    InvalidateLocalPod(pod);
    const uint32_t local = htonl(pod.Get());
    m_fastPath->DeleteFlows(
        [local](const oncache_flow_key& localRemote) { return localRemote.laddr == local; });
}

void
OncacheHostDatapath::RunOnAppCore(const Ptr<Node>& pod, Time cost, std::function<void()> done)
{
    if (!cost.IsStrictlyPositive())
    {
        done();
        return;
    }
    for (uint32_t i = 0; i < pod->GetNDevices(); ++i)
    {
        Ptr<OncacheVethNetDevice> veth = DynamicCast<OncacheVethNetDevice>(pod->GetDevice(i));
        Ptr<OncacheVethNetDevice> hostVeth = veth ? veth->GetPeer() : nullptr;
        Ptr<OncacheHostDatapath> datapath =
            hostVeth ? hostVeth->GetNode()->GetObject<OncacheHostDatapath>() : nullptr;
        if (!datapath)
        {
            continue;
        }
        auto podIp = datapath->m_podByIfIndex.find(hostVeth->GetIfIndex());
        if (podIp == datapath->m_podByIfIndex.end())
        {
            continue; // a veth left behind by a migration
        }
        datapath->m_cpu->Submit(
            datapath->m_pods[podIp->second].appCore,
            [cost]() { return cost; },
            std::move(done));
        return;
    }
    done();
}

bool
OncacheHostDatapath::HasPod(Ipv4Address pod) const
{
    return m_pods.count(pod.Get()) > 0;
}

uint32_t
OncacheHostDatapath::GetNPods() const
{
    return static_cast<uint32_t>(m_pods.size());
}

void
OncacheHostDatapath::SetRoute(Ipv4Address pod, Ipv4Address host)
{
    NS_LOG_FUNCTION(this << pod << host);
    auto it = m_routes.find(pod.Get());
    if (it == m_routes.end() || it->second != host.Get())
    {
        InvalidateRemotePod(pod);
    }
    m_routes[pod.Get()] = host.Get();
}

void
OncacheHostDatapath::RemoveRoute(Ipv4Address pod)
{
    NS_LOG_FUNCTION(this << pod);
    m_routes.erase(pod.Get());
    InvalidateRemotePod(pod);
}

void
OncacheHostDatapath::SetNeighbour(Ipv4Address host, Mac48Address nicMac, Mac48Address vtepMac)
{
    NS_LOG_FUNCTION(this << host << nicMac << vtepMac);
    auto it = m_neighbours.find(host.Get());
    if (it == m_neighbours.end() || it->second.nicMac != nicMac || it->second.vtepMac != vtepMac)
    {
        InvalidateHost(host);
    }
    m_neighbours[host.Get()] = Neighbour{nicMac, vtepMac};
}

void
OncacheHostDatapath::RemoveNeighbour(Ipv4Address host)
{
    NS_LOG_FUNCTION(this << host);
    m_neighbours.erase(host.Get());
    InvalidateHost(host);
}

uint32_t
OncacheHostDatapath::InvalidateRemotePod(Ipv4Address pod)
{
    return m_fastPath->DeleteRemotePod(htonl(pod.Get())) ? 1 : 0;
}

uint32_t
OncacheHostDatapath::InvalidateLocalPod(Ipv4Address pod)
{
    return m_fastPath->DeleteLocalPod(htonl(pod.Get())) ? 1 : 0;
}

uint32_t
OncacheHostDatapath::InvalidateHost(Ipv4Address host)
{
    return m_fastPath->DeleteHost(htonl(host.Get())) ? 1 : 0;
}

oncache_flow_key
OncacheHostDatapath::ToAbiKey(const OncacheFlowKey& flow)
{
    oncache_flow_key key{};
    key.laddr = htonl(flow.srcAddress);
    key.raddr = htonl(flow.dstAddress);
    key.lport = htons(flow.srcPort);
    key.rport = htons(flow.dstPort);
    key.proto = flow.protocol;
    return key;
}

uint32_t
OncacheHostDatapath::InvalidateFlows(const OncachePolicyRule& rule)
{
    return static_cast<uint32_t>(m_fastPath->DeleteFlows([&rule](const oncache_flow_key& key) {
        OncacheFlowKey flow;
        flow.srcAddress = ntohl(key.laddr);
        flow.dstAddress = ntohl(key.raddr);
        flow.srcPort = ntohs(key.lport);
        flow.dstPort = ntohs(key.rport);
        flow.protocol = static_cast<uint8_t>(key.proto);
        return rule.MatchesEitherWay(flow);
    }));
}

void
OncacheHostDatapath::PolicyChanged(const OncachePolicyRule& scope)
{
    NS_LOG_FUNCTION(this);
    InvalidateFlows(scope);
}

bool
OncacheHostDatapath::EvictFlow(const OncacheFlowKey& localRemote)
{
    return m_fastPath->DeleteFlow(ToAbiKey(localRemote));
}

std::size_t
OncacheHostDatapath::GetCacheSize(CacheKind kind) const
{
    switch (kind)
    {
    case CACHE_EGRESS_IP:
        return m_fastPath->GetEgressIpCache().Size();
    case CACHE_EGRESS:
        return m_fastPath->GetEgressCache().Size();
    case CACHE_INGRESS:
        return m_fastPath->GetIngressCache().Size();
    case CACHE_FILTER:
        return m_fastPath->GetFilterCache().Size();
    }
    return 0;
}

uint64_t
OncacheHostDatapath::GetCacheEvictions(CacheKind kind) const
{
    switch (kind)
    {
    case CACHE_EGRESS_IP:
        return m_fastPath->GetEgressIpCache().Evictions();
    case CACHE_EGRESS:
        return m_fastPath->GetEgressCache().Evictions();
    case CACHE_INGRESS:
        return m_fastPath->GetIngressCache().Evictions();
    case CACHE_FILTER:
        return m_fastPath->GetFilterCache().Evictions();
    }
    return 0;
}

const OncacheHostDatapath::IngressInfo*
OncacheHostDatapath::PeekIngress(Ipv4Address pod) const
{
    const oncache_ingress_info* entry = m_fastPath->GetIngressCache().Peek(htonl(pod.Get()));
    if (!entry)
    {
        return nullptr;
    }
    m_peekedIngress = IngressInfo();
    auto veth = m_veths.find(entry->ifindex);
    if (veth != m_veths.end())
    {
        m_peekedIngress.hostVeth = veth->second.hostVeth;
        m_peekedIngress.appCore = veth->second.appCore;
    }
    m_peekedIngress.podMac = OncacheMacFromBytes(entry->dmac);
    m_peekedIngress.gatewayMac = OncacheMacFromBytes(entry->smac);
    m_peekedIngress.learned = m_peekedIngress.podMac != Mac48Address();
    return &m_peekedIngress;
}

const OncacheHostDatapath::FilterAction*
OncacheHostDatapath::PeekFilter(const OncacheFlowKey& localRemote) const
{
    return m_fastPath->GetFilterCache().Peek(ToAbiKey(localRemote));
}

const OncacheFastPath*
OncacheHostDatapath::GetFastPath() const
{
    return m_fastPath.get();
}

void
OncacheHostDatapath::Receive(Ptr<NetDevice> device,
                             Ptr<const Packet> packet,
                             uint16_t protocol,
                             const Address& from,
                             const Address& to,
                             NetDevice::PacketType type)
{
    NS_LOG_FUNCTION(this << device << packet);
    auto job = std::make_shared<Job>();
    job->packet = packet->Copy();
    if (Mac48Address::IsMatchingType(from) && Mac48Address::IsMatchingType(to))
    {
        job->frameSrc = Mac48Address::ConvertFrom(from);
        job->frameDst = Mac48Address::ConvertFrom(to);
    }
    uint32_t core = 0;
    if (device == m_nic)
    {
        job->fromNic = true;
        core = SteerReceive(packet, job->vxlan);
        job->core = core;
        if (m_cpu->GetQueueLength(core) >= m_receiveQueueLimit)
        {
            Drop(*job, DROP_RX_QUEUE);
            return;
        }
        m_cpu->Submit(
            core,
            [this, job]() { return IngressStart(*job); },
            [this, job]() { Finish(*job); });
        return;
    }
    job->inIfindex = device->GetIfIndex();
    auto pod = m_podByIfIndex.find(device->GetIfIndex());
    if (pod == m_podByIfIndex.end())
    {
        NS_LOG_LOGIC("packet from an unplugged veth");
        Drop(*job, DROP_NO_POD);
        return;
    }
    core = m_pods[pod->second].appCore;
    job->core = core;
    m_cpu->Submit(
        core,
        [this, job]() { return EgressStart(*job); },
        [this, job]() { Finish(*job); });
}

uint32_t
OncacheHostDatapath::SteerReceive(Ptr<const Packet> packet, bool& vxlan) const
{
    Ipv4Header outer;
    OncacheFlowKey outerFlow = OncacheParseFlow(packet, outer);
    // Bare metal has no overlay: a pod's own UDP traffic to port 4789 is not VXLAN there.
    vxlan = m_mode != ONCACHE_MODE_BARE_METAL && outerFlow.protocol == UDP_PROTOCOL &&
            outerFlow.dstPort == OncacheVxlanHeader::PORT;
    if (m_steering == STEER_RFS)
    {
        uint32_t destination = outerFlow.dstAddress;
        if (vxlan && packet->GetSize() >= OncacheVxlanHeader::OVERHEAD + 20)
        {
            Ptr<Packet> copy = packet->Copy();
            copy->RemoveAtStart(OncacheVxlanHeader::OVERHEAD);
            Ipv4Header inner;
            copy->PeekHeader(inner);
            destination = inner.GetDestination().Get();
        }
        auto pod = m_pods.find(destination);
        if (pod != m_pods.end())
        {
            return pod->second.appCore;
        }
    }
    // RSS: hash the outer UDP source port (VXLAN), else the 5-tuple.
    uint32_t hash = outerFlow.Hash();
    if (vxlan)
    {
        uint8_t port[2] = {static_cast<uint8_t>(outerFlow.srcPort >> 8),
                           static_cast<uint8_t>(outerFlow.srcPort)};
        hash = Hash32(reinterpret_cast<const char*>(port), sizeof(port));
    }
    return hash % m_cpu->GetCores();
}

Time
OncacheHostDatapath::EgressStart(Job& job)
{
    Ipv4Header inner;
    OncacheFlowKey flow = OncacheParseFlow(job.packet, inner, &job.payload);
    job.gso = flow.protocol == 6 || flow.protocol == 17;
    job.flow = flow;
    Ipv4Address dst = inner.GetDestination();
    const OncacheCostModel& c = *m_costs;
    // Per skb, plus per wire segment (the frames it leaves as after encapsulation).
    const int64_t segments = WireSegments(job.packet->GetSize() + OncacheEncapsulationBytes(m_mode),
                                          job.payload,
                                          job.gso,
                                          m_wireMtu);
    Time cost = c.GetAppTx();
    if (m_mode == ONCACHE_MODE_BARE_METAL)
    {
        return EgressNative(job, dst, segments, cost);
    }

    const bool oncache = OncacheModeUsesCache(m_mode);
    const bool local = m_pods.count(dst.Get()) > 0;
    Path path = PATH_FALLBACK;
    if (oncache && !local)
    {
        path = EgressCacheLookup(job);
        if (path == PATH_FAST)
        {
            m_pathTrace(m_hostId, flow, EGRESS, PATH_FAST);
            Time veth = m_mode == ONCACHE_MODE_ONCACHE_RPEER ? Time(0) : c.GetVethEgress();
            return cost + veth + c.GetFastEncap() + c.GetDriverTx() +
                   (c.GetFastSegment() + c.GetSegmentTx()) * segments;
        }
        cost += c.GetMissMark();
    }
    m_pathTrace(m_hostId, flow, EGRESS, path);
    return EgressFallback(job, dst, local, segments, cost);
}

const OncacheHostDatapath::Neighbour*
OncacheHostDatapath::FindNextHop(Ipv4Address pod, Ipv4Address& host) const
{
    auto route = m_routes.find(pod.Get());
    if (route == m_routes.end())
    {
        return nullptr;
    }
    auto neighbour = m_neighbours.find(route->second);
    if (neighbour == m_neighbours.end())
    {
        return nullptr;
    }
    host = Ipv4Address(route->second);
    return &neighbour->second;
}

Time
OncacheHostDatapath::EgressNative(Job& job, Ipv4Address dst, int64_t segments, Time cost)
{
    const OncacheCostModel& c = *m_costs;
    m_pathTrace(m_hostId, job.flow, EGRESS, PATH_NATIVE);
    if (DeliverLocal(job, dst))
    {
        return cost;
    }
    Ipv4Address host;
    const Neighbour* neighbour = FindNextHop(dst, host);
    if (!neighbour)
    {
        Drop(job, DROP_NO_ROUTE);
        return cost;
    }
    job.action = ACTION_NIC;
    job.nicDst = neighbour->nicMac;
    return cost + c.GetDriverTx() + c.GetSegmentTx() * segments;
}

OncacheHostDatapath::Path
OncacheHostDatapath::EgressCacheLookup(Job& job)
{
    // tc_masq on the pod's host-side veth: its bytes are applied to the packet as they are.
    OncacheFastPath::Frame frame =
        OncacheMakeFrame(job.packet, job.frameDst, job.frameSrc, OncacheFastPath::kEgressHeadBytes);
    const uint32_t copied = OncacheFrameCopied(frame);
    const OncacheFastPath::Result result =
        m_fastPath->Egress(frame, job.flow.Hash(), job.inIfindex);
    OncacheApplyFrame(job.packet, frame, copied);
    const Path path = ToPath(result.verdict);
    if (path == PATH_FAST)
    {
        job.action = ACTION_NIC;
        job.nicDst = OncacheFrameMac(frame, 0);
    }
    return path;
}

Time
OncacheHostDatapath::EgressFallback(Job& job,
                                    Ipv4Address dst,
                                    bool local,
                                    int64_t segments,
                                    Time cost)
{
    const OncacheCostModel& c = *m_costs;
    // The fallback overlay: veth, intra-host routing, policy and conntrack (E2-E4).
    cost += c.GetVethEgress() + c.GetOverlayEgressFilter();
    if (!m_policy->IsAllowed(job.flow))
    {
        Drop(job, DROP_POLICY);
        return cost;
    }
    if (m_conntrack->Track(job.flow) == OncacheConntrack::ESTABLISHED &&
        OncacheModeUsesCache(m_mode))
    {
        ChangeTos(job.packet, EST_MARK, 0);
    }
    if (local)
    {
        ChangeTos(job.packet, 0, MISS_MARK | EST_MARK);
        DeliverLocal(job, dst);
        return cost;
    }
    return EgressEncapsulate(job, dst, segments, cost);
}

Time
OncacheHostDatapath::EgressEncapsulate(Job& job, Ipv4Address dst, int64_t segments, Time cost)
{
    const OncacheCostModel& c = *m_costs;
    Ipv4Address host;
    const Neighbour* neighbour = FindNextHop(dst, host);
    if (!neighbour)
    {
        Drop(job, DROP_NO_ROUTE);
        return cost;
    }
    EgressInfo info;
    info.outerDstMac = neighbour->nicMac;
    info.outerSrcIp = m_hostIp;
    info.outerDstIp = host;
    info.vni = m_vni;
    info.innerSrcMac = m_vtepMac;
    info.innerDstMac = neighbour->vtepMac;
    cost += c.GetOverlayEncap() + c.GetDriverTx() +
            (c.GetOverlaySegment() + c.GetSegmentTx()) * segments;
    Encapsulate(job.packet, info, job.flow);
    if (OncacheModeUsesCache(m_mode))
    {
        // tc_init_e on the NIC egress: learns from packets that carry both marks, clears them.
        cost += c.GetInitEgress();
        OncacheFastPath::Frame frame = OncacheMakeFrame(job.packet,
                                                        info.outerDstMac,
                                                        GetNicMac(),
                                                        OncacheFastPath::kVxlanHeadBytes);
        const uint32_t copied = OncacheFrameCopied(frame);
        m_fastPath->EgressLearn(frame, m_nic->GetIfIndex());
        OncacheApplyFrame(job.packet, frame, copied);
    }
    job.action = ACTION_NIC;
    job.nicDst = info.outerDstMac;
    return cost;
}

Time
OncacheHostDatapath::IngressStart(Job& job)
{
    const OncacheCostModel& c = *m_costs;
    Time cost = c.GetDriverRx();
    if (!job.vxlan)
    {
        return IngressNative(job, cost);
    }
    // Decapsulate: outer IPv4, UDP, VXLAN and the inner Ethernet header (a packet too short
    // for them and an inner IPv4 header is malformed, before any header is read).
    if (job.packet->GetSize() < OncacheVxlanHeader::OVERHEAD + 20)
    {
        Drop(job, DROP_MALFORMED);
        return cost;
    }
    const bool oncache = OncacheModeUsesCache(m_mode);
    OncacheFastPath::Verdict verdict = OncacheFastPath::VERDICT_PASS;
    if (oncache && IngressCacheLookup(job, verdict, cost))
    {
        return cost;
    }
    if (!Decapsulate(job))
    {
        Drop(job, DROP_MALFORMED);
        return cost;
    }
    Ipv4Header inner;
    int64_t segments = 0;
    const OncacheFlowKey flow = DecapsulatedFlow(job, m_wireMtu, inner, segments);
    cost += c.GetSegmentRx() * segments;

    Path path = PATH_FALLBACK;
    if (oncache)
    {
        // A frame tc_restore passed untouched failed its destination check: no mark.
        path = verdict == OncacheFastPath::VERDICT_PASS ? PATH_REVERSE : ToPath(verdict);
        cost += c.GetRestoreMiss();
    }
    m_pathTrace(m_hostId, flow, INGRESS, path);
    return IngressFallback(job, flow, inner.GetDestination(), segments, cost);
}

Time
OncacheHostDatapath::IngressNative(Job& job, Time cost)
{
    Ipv4Header ip;
    OncacheFlowKey flow = OncacheParseFlow(job.packet, ip, &job.payload);
    cost += m_costs->GetSegmentRx() * WireSegments(job.packet->GetSize(),
                                                   job.payload,
                                                   flow.protocol == 6 || flow.protocol == 17,
                                                   m_wireMtu);
    if (m_mode != ONCACHE_MODE_BARE_METAL)
    {
        Drop(job, DROP_MALFORMED);
        return cost;
    }
    m_pathTrace(m_hostId, flow, INGRESS, PATH_NATIVE);
    if (!DeliverLocal(job, ip.GetDestination()))
    {
        Drop(job, DROP_NO_POD);
    }
    return cost;
}

bool
OncacheHostDatapath::IngressCacheLookup(Job& job, OncacheFastPath::Verdict& verdict, Time& cost)
{
    const OncacheCostModel& c = *m_costs;
    // tc_restore on the NIC's ingress: its bytes are applied to the packet as they are.
    OncacheFastPath::Frame frame =
        OncacheMakeFrame(job.packet, job.frameDst, job.frameSrc, OncacheFastPath::kVxlanHeadBytes);
    const uint32_t copied = OncacheFrameCopied(frame);
    const OncacheFastPath::Result result = m_fastPath->Ingress(frame, m_nic->GetIfIndex());
    OncacheApplyFrame(job.packet, frame, copied);
    verdict = result.verdict;
    if (verdict != OncacheFastPath::VERDICT_HIT)
    {
        return false;
    }
    Ipv4Header inner;
    int64_t segments = 0;
    const OncacheFlowKey flow = DecapsulatedFlow(job, m_wireMtu, inner, segments);
    m_pathTrace(m_hostId, flow, INGRESS, PATH_FAST);
    auto veth = m_veths.find(result.ifindex);
    if (veth == m_veths.end())
    {
        Drop(job, DROP_NO_POD); // not reached: ingress entries name attached veths
        return true;
    }
    job.action = ACTION_DELIVER;
    job.pod = inner.GetDestination();
    job.hostVeth = veth->second.hostVeth;
    job.appCore = veth->second.appCore;
    job.podMac = OncacheFrameMac(frame, 0);
    job.gatewayMac = OncacheFrameMac(frame, 6);
    cost = cost + c.GetSegmentRx() * segments + c.GetFastDecap() + c.GetFastSegment() * segments;
    return true;
}

bool
OncacheHostDatapath::Decapsulate(Job& job)
{
    Ipv4Header outer;
    UdpHeader udp;
    OncacheVxlanHeader vxlan;
    EthernetHeader innerEthernet(false);
    job.packet->RemoveHeader(outer);
    job.packet->RemoveHeader(udp);
    job.packet->RemoveHeader(vxlan);
    if (m_mode == ONCACHE_MODE_BARE_METAL || !vxlan.IsValid() || vxlan.GetVni() != m_vni ||
        job.packet->GetSize() < innerEthernet.GetSerializedSize() + 20)
    {
        return false;
    }
    job.packet->RemoveHeader(innerEthernet);
    return true;
}

Time
OncacheHostDatapath::IngressFallback(Job& job,
                                     const OncacheFlowKey& flow,
                                     Ipv4Address dst,
                                     int64_t segments,
                                     Time cost)
{
    const OncacheCostModel& c = *m_costs;
    const bool oncache = OncacheModeUsesCache(m_mode);
    // The fallback overlay: outer receive and decap, routing, policy, conntrack, veth (I2-I5).
    cost += c.GetOverlayDecap() + c.GetOverlayIngressFilter() + c.GetVethIngress() +
            c.GetOverlaySegment() * segments;
    if (!m_policy->IsAllowed(flow))
    {
        Drop(job, DROP_POLICY);
        return cost;
    }
    if (m_conntrack->Track(flow) == OncacheConntrack::ESTABLISHED && oncache)
    {
        ChangeTos(job.packet, EST_MARK, 0);
    }
    if (!DeliverLocal(job, dst))
    {
        Drop(job, DROP_NO_POD);
        return cost;
    }
    if (oncache)
    {
        // tc_init_in on the pod's eth0 ingress: learns from packets that carry both marks,
        // clears them.
        cost += c.GetInitIngress();
        OncacheFastPath::Frame frame = OncacheMakeFrame(job.packet,
                                                        job.podMac,
                                                        job.gatewayMac,
                                                        OncacheFastPath::kEgressHeadBytes);
        const uint32_t copied = OncacheFrameCopied(frame);
        m_fastPath->IngressLearn(frame);
        OncacheApplyFrame(job.packet, frame, copied);
    }
    return cost;
}

bool
OncacheHostDatapath::DeliverLocal(Job& job, Ipv4Address pod)
{
    auto it = m_pods.find(pod.Get());
    if (it == m_pods.end())
    {
        return false;
    }
    job.action = ACTION_DELIVER;
    job.pod = pod;
    job.hostVeth = it->second.hostVeth;
    job.appCore = it->second.appCore;
    Ptr<OncacheVethNetDevice> podVeth = job.hostVeth->GetPeer();
    job.podMac = podVeth ? Mac48Address::ConvertFrom(podVeth->GetAddress()) : Mac48Address();
    job.gatewayMac = Mac48Address::ConvertFrom(job.hostVeth->GetAddress());
    return true;
}

void
OncacheHostDatapath::Finish(Job& job)
{
    if (!job.fromNic)
    {
        m_egressDoneTrace(m_hostId, job.flow);
    }
    switch (job.action)
    {
    case ACTION_DROP:
        return;
    case ACTION_NIC:
        EnqueueNic(job);
        return;
    case ACTION_DELIVER: {
        if (m_cpu->GetQueueLength(job.appCore) >= m_receiveQueueLimit)
        {
            Drop(job, DROP_RX_QUEUE); // also frees a local sender's packet (TxComplete)
            return;
        }
        if (!job.fromNic)
        {
            m_txCompleteTrace(m_hostId, job.flow); // intra-host: freed at the veth
        }
        // I6 on the pod's application core: IP/L4 receive, wake-up, syscall and copy.
        Ptr<Packet> packet = job.packet;
        Ipv4Address pod = job.pod;
        Ptr<OncacheVethNetDevice> veth = job.hostVeth;
        Mac48Address podMac = job.podMac;
        Time cost = m_costs->GetAppRx() + m_costs->GetRxCopy(packet->GetSize());
        // A blocking receiver sleeps and wakes once per skb with payload. The waker pays it:
        // the core that ran this packet's receive work, after the delivery, so that it is CPU
        // time but off the latency path (unless that core is the application core, RFS).
        const Time wakeup = job.payload > 0 ? m_costs->GetWakeup() : Time(0);
        const uint32_t core = job.core;
        m_cpu->Submit(
            job.appCore,
            [cost]() { return cost; },
            [this, packet, pod, veth, podMac, wakeup, core]() {
                if (veth->Send(packet, podMac, IPV4_ETHERTYPE))
                {
                    m_deliverTrace(m_hostId, pod, packet);
                }
                else
                {
                    // The pod was deleted or moved while the packet was queued for it.
                    m_dropTrace(m_hostId, packet, DROP_NO_POD);
                }
                if (wakeup.IsStrictlyPositive())
                {
                    m_cpu->Submit(
                        core,
                        [wakeup]() { return wakeup; },
                        []() {});
                }
            });
        return;
    }
    }
}

void
OncacheHostDatapath::EnqueueNic(Job& job)
{
    if (m_nicQueue.size() >= m_nicQueueLimit)
    {
        Drop(job, DROP_NIC_QUEUE);
        return;
    }
    // Wire bytes: Ethernet header and FCS (18), preamble and inter-frame gap (20) per frame; a
    // TCP or UDP super-segment larger than one wire frame leaves as ceil(payload / MSS) frames
    // (TSO, UDP GSO), each repeating every header.
    const uint32_t packetBytes = job.packet->GetSize();
    const uint32_t headers = packetBytes - job.payload + 18 + 20;
    const uint32_t frames = WireSegments(packetBytes, job.payload, job.gso, m_wireMtu);
    NicFrame frame;
    frame.packet = job.packet;
    frame.destination = job.nicDst;
    frame.flow = job.flow;
    frame.wireTime = m_nicRate.CalculateBytesTxTime(job.payload + frames * headers);
    m_nicQueue.push_back(frame);
    if (!m_nicBusy)
    {
        StartNicTransmission();
    }
}

void
OncacheHostDatapath::StartNicTransmission()
{
    m_nicBusy = true;
    Simulator::Schedule(m_nicQueue.front().wireTime,
                        &OncacheHostDatapath::NicTransmissionDone,
                        this);
}

void
OncacheHostDatapath::NicTransmissionDone()
{
    NicFrame frame = m_nicQueue.front();
    m_nicQueue.pop_front();
    m_txCompleteTrace(m_hostId, frame.flow);
    // The latency is applied before the channel, whose own delay is zero, so that the
    // half-duplex CSMA medium is busy only for the (sped-up) transfer time of a frame.
    Ptr<NetDevice> nic = m_nic;
    Simulator::Schedule(m_linkDelay, [nic, frame]() {
        nic->Send(frame.packet, frame.destination, IPV4_ETHERTYPE);
    });
    m_nicBusy = false;
    if (!m_nicQueue.empty())
    {
        StartNicTransmission();
    }
}

void
OncacheHostDatapath::Drop(Job& job, DropReason reason)
{
    NS_LOG_LOGIC("host " << m_hostId << " drops " << job.packet << " reason " << reason);
    job.action = ACTION_DROP;
    m_dropTrace(m_hostId, job.packet, reason);
    if (!job.fromNic)
    {
        m_txCompleteTrace(m_hostId, job.flow);
    }
}

void
OncacheHostDatapath::Encapsulate(Ptr<Packet> packet,
                                 const EgressInfo& info,
                                 const OncacheFlowKey& flow)
{
    EthernetHeader innerEthernet(false);
    innerEthernet.SetSource(info.innerSrcMac);
    innerEthernet.SetDestination(info.innerDstMac);
    innerEthernet.SetLengthType(IPV4_ETHERTYPE);
    packet->AddHeader(innerEthernet);
    OncacheVxlanHeader vxlan;
    vxlan.SetVni(info.vni);
    packet->AddHeader(vxlan);
    UdpHeader udp;
    udp.SetSourcePort(SourcePort(flow));
    udp.SetDestinationPort(OncacheVxlanHeader::PORT);
    packet->AddHeader(udp);
    Ipv4Header outer;
    outer.SetSource(info.outerSrcIp);
    outer.SetDestination(info.outerDstIp);
    outer.SetProtocol(UDP_PROTOCOL);
    outer.SetPayloadSize(packet->GetSize());
    outer.SetTtl(info.ttl);
    outer.SetDontFragment();
    outer.SetIdentification(m_ipId++);
    if (Node::ChecksumEnabled())
    {
        outer.EnableChecksum();
    }
    packet->AddHeader(outer);
}

void
OncacheHostDatapath::ChangeTos(Ptr<Packet> packet, uint8_t set, uint8_t clear)
{
    Ipv4Header header;
    packet->RemoveHeader(header);
    header.SetTos(static_cast<uint8_t>((header.GetTos() | set) & ~clear));
    if (Node::ChecksumEnabled())
    {
        header.EnableChecksum();
    }
    packet->AddHeader(header);
}

uint16_t
OncacheHostDatapath::SourcePort(const OncacheFlowKey& flow)
{
    return static_cast<uint16_t>(49152 + flow.Hash() % 16384);
}

} // namespace ns3
