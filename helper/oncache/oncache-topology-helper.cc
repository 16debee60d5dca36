/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-topology-helper.h"

#include "ns3/boolean.h"
#include "ns3/bridge-helper.h"
#include "ns3/config.h"
#include "ns3/csma-net-device.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/oncache-check.h"
#include "ns3/oncache-cost-defaults.h"
#include "ns3/oncache-limits.h"
#include "ns3/oncache-vxlan-header.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/trace-helper.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheTopologyHelper");

NS_OBJECT_ENSURE_REGISTERED(OncacheTopologyHelper);

TypeId
OncacheTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheTopologyHelper")
            .SetParent<Object>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheTopologyHelper>()
            .AddAttribute("Hosts",
                          "The number of hosts (servers with one NIC each).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&OncacheTopologyHelper::m_hosts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PodsPerHost",
                          "The number of pods on each host.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&OncacheTopologyHelper::m_podsPerHost),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Mode",
                          "The data path of every host: BareMetal, Overlay, Oncache or "
                          "OncacheRpeer (see OncacheHostDatapath::Mode).",
                          EnumValue(ONCACHE_MODE_ONCACHE),
                          MakeEnumAccessor(&OncacheTopologyHelper::m_mode),
                          MakeOncacheModeChecker())
            .AddAttribute("CoresPerHost",
                          "The number of CPU cores of each host.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&OncacheTopologyHelper::m_coresPerHost),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LinkRate",
                          "The rate of every NIC and link.",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&OncacheTopologyHelper::m_linkRate),
                          MakeDataRateChecker())
            .AddAttribute("LinkDelay",
                          "The one-way latency between two hosts' NICs, applied by the sending "
                          "host after serialisation. It lumps propagation, switching, NIC DMA "
                          "and interrupt moderation, none of which costs CPU. The default is "
                          "fitted (utils/oncache-fit.py, the one paper anchor) so that a "
                          "bare-metal 1-byte RR of OncacheRrClient/Server takes 25.46 us "
                          "(39,272 trans/s, the ONCache authors' tutorial) with the default "
                          "(testbed-fitted) costs and application ProcessingTime (2 x 3.28 us).",
                          TimeValue(NanoSeconds(oncachefit::kLinkDelayNs)),
                          MakeTimeAccessor(&OncacheTopologyHelper::m_linkDelay),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("UnderlayMtu",
                          "The IP MTU of the hosts' NICs; pods get 50 bytes less in the overlay "
                          "modes.",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&OncacheTopologyHelper::m_underlayMtu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SuperSegmentBytes",
                          "When non-zero, the pod MTU used for GSO/GRO-like super-segments "
                          "(e.g. 65000), so that bulk TCP pays per-skb costs once per "
                          "super-segment; the NIC MTU grows accordingly. 0 disables them. The "
                          "testbed's bulk TCP sends skbs of oncachefit::kSuperSegmentBytes "
                          "(tcp_tx_bytes_per_skb_P1, utils/oncache-fit.py), which "
                          "oncache-micro-benchmark uses for its streams.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&OncacheTopologyHelper::m_superSegmentBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostNetwork",
                          "The /24 network of the hosts' NIC addresses.",
                          Ipv4AddressValue(Ipv4Address("192.168.0.0")),
                          MakeIpv4AddressAccessor(&OncacheTopologyHelper::m_hostNetwork),
                          MakeIpv4AddressChecker())
            .AddAttribute("PodNetwork",
                          "The /16 network of the pods; host h owns the /24 number h in it.",
                          Ipv4AddressValue(Ipv4Address("10.244.0.0")),
                          MakeIpv4AddressAccessor(&OncacheTopologyHelper::m_podNetwork),
                          MakeIpv4AddressChecker())
            .AddAttribute("NicQueueFrames",
                          "The transmit queue (qdisc) of every NIC, in frames.",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&OncacheTopologyHelper::m_nicQueueFrames),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ChannelSpeedup",
                          "The CSMA channel runs this many times faster than LinkRate: each "
                          "host's data path serialises its frames at LinkRate (with TSO framing) "
                          "and the channel only adds a small transfer time and the propagation "
                          "delay, so the half-duplex CSMA medium behaves as a full-duplex link.",
                          UintegerValue(100),
                          MakeUintegerAccessor(&OncacheTopologyHelper::m_channelSpeedup),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ConfigureTcp",
                          "Set ns3::TcpSocket::SegmentSize to the pod MTU minus 52 bytes: the MSS "
                          "(MTU - 40: 1410 in the overlay modes, 1460 on bare metal at MTU 1500) "
                          "minus the 12-byte timestamp option that ns-3 TCP adds to every "
                          "segment, so that segments are never fragmented.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&OncacheTopologyHelper::m_configureTcp),
                          MakeBooleanChecker())
            .AddAttribute("DelAckCount",
                          "With ConfigureTcp, ns3::TcpSocket::DelAckCount: the segments (skbs, "
                          "super-segments included) a receiver takes per delayed ACK. Most of "
                          "the overlay's bulk-TCP cost comes from ACKs, so it is stated: the "
                          "default is the testbed's data skbs per ACK of one bulk TCP flow "
                          "(tcp_rx_skbs_per_ack_P1, rounded; utils/oncache-fit.py).",
                          UintegerValue(oncachefit::kDelAckCount),
                          MakeUintegerAccessor(&OncacheTopologyHelper::m_delAckCount),
                          MakeUintegerChecker<uint32_t>(1, 64));
    return tid;
}

OncacheTopologyHelper::OncacheTopologyHelper()
    : m_hosts(2),
      m_podsPerHost(1),
      m_mode(ONCACHE_MODE_ONCACHE),
      m_coresPerHost(8),
      m_underlayMtu(1500),
      m_superSegmentBytes(0),
      m_nicQueueFrames(1000),
      m_channelSpeedup(100),
      m_configureTcp(true),
      m_delAckCount(oncachefit::kDelAckCount)
{
    NS_LOG_FUNCTION(this);
    m_datapathFactory.SetTypeId(OncacheHostDatapath::GetTypeId());
    m_costFactory.SetTypeId(OncacheCostModel::GetTypeId());
}

void
OncacheTopologyHelper::SetDatapathAttribute(const std::string& name, const AttributeValue& value)
{
    m_datapathFactory.Set(name, value);
}

void
OncacheTopologyHelper::SetCostModelAttribute(const std::string& name, const AttributeValue& value)
{
    m_costFactory.Set(name, value);
}

uint32_t
OncacheTopologyHelper::GetPodMtu() const
{
    if (m_superSegmentBytes > 0)
    {
        return m_superSegmentBytes;
    }
    return m_underlayMtu - OncacheEncapsulationBytes(m_mode);
}

uint32_t
OncacheTopologyHelper::GetNicMtu() const
{
    if (m_superSegmentBytes > 0)
    {
        return m_superSegmentBytes + OncacheEncapsulationBytes(m_mode);
    }
    return m_underlayMtu;
}

NetDeviceContainer
OncacheTopologyHelper::GetNics() const
{
    return m_nics;
}

Ipv4Address
OncacheTopologyHelper::GetPodAddress(uint32_t host, uint32_t pod) const
{
    ONCACHE_REQUIRE(host < m_hosts, std::out_of_range, "host " << host << " is past Hosts");
    ONCACHE_REQUIRE(pod < m_podsPerHost,
                    std::out_of_range,
                    "pod " << pod << " is past PodsPerHost");
    return Ipv4Address(m_podNetwork.Get() + (host << 8) + pod + 2);
}

void
OncacheTopologyHelper::Validate() const
{
    ONCACHE_REQUIRE(m_hosts >= 1 && m_hosts <= 254,
                    std::invalid_argument,
                    "Hosts must be between 1 and 254, got " << m_hosts);
    ONCACHE_REQUIRE(m_podsPerHost <= 253,
                    std::invalid_argument,
                    "PodsPerHost must be at most 253, got " << m_podsPerHost);
    ONCACHE_REQUIRE(m_coresPerHost >= 1 && m_coresPerHost <= ONCACHE_MAX_CORES,
                    std::invalid_argument,
                    "CoresPerHost must be between 1 and " << ONCACHE_MAX_CORES << ", got "
                                                          << m_coresPerHost);
    // A pod needs the smallest IP MTU, and the overlay modes carry it inside VXLAN; no IP
    // packet exceeds ONCACHE_MAX_IP_PACKET (bounds written so that they cannot wrap).
    const uint32_t encapsulation = OncacheEncapsulationBytes(m_mode);
    ONCACHE_REQUIRE(m_underlayMtu >= OncacheMinUnderlayMtu(m_mode) &&
                        m_underlayMtu <= ONCACHE_MAX_IP_PACKET,
                    std::invalid_argument,
                    "UnderlayMtu must be between "
                        << OncacheMinUnderlayMtu(m_mode) << " and " << ONCACHE_MAX_IP_PACKET
                        << " in mode " << OncacheModeToString(m_mode) << ", got " << m_underlayMtu);
    ONCACHE_REQUIRE(
        m_superSegmentBytes == 0 || (m_superSegmentBytes >= m_underlayMtu &&
                                     m_superSegmentBytes <= ONCACHE_MAX_IP_PACKET - encapsulation),
        std::invalid_argument,
        "SuperSegmentBytes must be 0 or between UnderlayMtu ("
            << m_underlayMtu << ") and " << ONCACHE_MAX_IP_PACKET - encapsulation << " in mode "
            << OncacheModeToString(m_mode) << ", got " << m_superSegmentBytes);
    // The largest wire frame: TSO cuts super-segments to UnderlayMtu; Ethernet adds its
    // header and FCS (18), preamble and inter-frame gap (20).
    const DataRate slowest = OncacheMinLinkRate(m_underlayMtu + 18 + 20);
    ONCACHE_REQUIRE(m_linkRate >= slowest,
                    std::invalid_argument,
                    "LinkRate must be at least " << slowest.GetBitRate() << "bps (one "
                                                 << m_underlayMtu + 38
                                                 << "-byte frame per second, the minimum TCP "
                                                    "retransmission timeout), got "
                                                 << m_linkRate.GetBitRate() << "bps");
    ONCACHE_REQUIRE(m_linkRate.GetBitRate() <=
                        std::numeric_limits<uint64_t>::max() / m_channelSpeedup,
                    std::invalid_argument,
                    "LinkRate " << m_linkRate.GetBitRate() << "bps times ChannelSpeedup "
                                << m_channelSpeedup << " overflows a 64-bit bit rate");
    ONCACHE_REQUIRE((m_hostNetwork.Get() & 0xff) == 0,
                    std::invalid_argument,
                    "HostNetwork must be a /24 network address, got " << m_hostNetwork);
    ONCACHE_REQUIRE((m_podNetwork.Get() & 0xffff) == 0,
                    std::invalid_argument,
                    "PodNetwork must be a /16 network address, got " << m_podNetwork);
    ONCACHE_REQUIRE((m_hostNetwork.Get() & 0xffff0000U) != m_podNetwork.Get(),
                    std::invalid_argument,
                    "PodNetwork " << m_podNetwork << "/16 overlaps HostNetwork " << m_hostNetwork
                                  << "/24");
}

Ptr<OncacheCluster>
OncacheTopologyHelper::Install()
{
    NS_LOG_FUNCTION(this);
    Validate();
    m_datapathFactory.Set("Mode", EnumValue(m_mode));
    m_datapathFactory.Set("NicRate", DataRateValue(m_linkRate));
    m_datapathFactory.Set("LinkDelay", TimeValue(m_linkDelay));
    m_datapathFactory.Set("WireMtu", UintegerValue(m_underlayMtu));
    m_datapathFactory.Set("NicQueueLimit", UintegerValue(m_nicQueueFrames));
    const DataRate channelRate(m_linkRate.GetBitRate() * m_channelSpeedup);
    Ptr<OncacheCostModel> costs = m_costFactory.Create<OncacheCostModel>();
    Ptr<OncacheCluster> cluster = CreateObject<OncacheCluster>();

    m_csma = CsmaHelper();
    m_csma.SetChannelAttribute("DataRate", DataRateValue(channelRate));
    m_csma.SetChannelAttribute("Delay", TimeValue(Time(0)));
    m_csma.SetDeviceAttribute("Mtu", UintegerValue(GetNicMtu()));
    m_csma.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("1000p")));

    NodeContainer hosts;
    hosts.Create(m_hosts);
    m_nics = NetDeviceContainer();
    if (m_hosts <= 2)
    {
        m_nics = m_csma.Install(hosts);
    }
    else
    {
        Ptr<Node> tor = CreateObject<Node>();
        NetDeviceContainer ports;
        for (uint32_t h = 0; h < m_hosts; ++h)
        {
            NetDeviceContainer link = m_csma.Install(NodeContainer(hosts.Get(h), tor));
            m_nics.Add(link.Get(0));
            ports.Add(link.Get(1));
        }
        BridgeHelper bridge;
        bridge.Install(tor, ports);
    }

    for (uint32_t h = 0; h < m_hosts; ++h)
    {
        Ptr<CsmaNetDevice> nic = DynamicCast<CsmaNetDevice>(m_nics.Get(h));
        // The default 1 us backoff slot would dominate; scale it to the channel rate.
        nic->SetBackoffParams(channelRate.CalculateBytesTxTime(1538), 1, 8, 10, 1000);
        Ptr<OncacheHostCpu> cpu = CreateObject<OncacheHostCpu>();
        cpu->SetCores(m_coresPerHost);
        Ptr<OncacheHostDatapath> datapath = m_datapathFactory.Create<OncacheHostDatapath>();
        Ipv4Address hostIp(m_hostNetwork.Get() + h + 1);
        datapath->Setup(h, hosts.Get(h), nic, hostIp, cpu, costs, cluster->GetPolicy());
        hosts.Get(h)->AggregateObject(datapath);
        cluster->AddHost(hosts.Get(h), datapath);
    }
    if (m_configureTcp)
    {
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(GetPodMtu() - 52));
        Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(m_delAckCount));
    }
    for (uint32_t h = 0; h < m_hosts; ++h)
    {
        for (uint32_t k = 0; k < m_podsPerHost; ++k)
        {
            AddPod(cluster, h, GetPodAddress(h, k));
        }
    }
    return cluster;
}

Ptr<Node>
OncacheTopologyHelper::AddPod(Ptr<OncacheCluster> cluster, uint32_t host, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << cluster << host << address);
    Ptr<Node> hostNode = cluster->GetHost(host);
    Ptr<OncacheHostDatapath> datapath = cluster->GetDatapath(host);
    ONCACHE_REQUIRE(!datapath->HasPod(address),
                    std::invalid_argument,
                    "pod address " << address << " overlaps an existing pod");
    Ptr<Node> pod = CreateObject<Node>();
    InternetStackHelper stack;
    stack.Install(pod);
    Ptr<OncacheVethNetDevice> podVeth = CreateObject<OncacheVethNetDevice>();
    Ptr<OncacheVethNetDevice> hostVeth = CreateObject<OncacheVethNetDevice>();
    podVeth->SetMtu(GetPodMtu());
    hostVeth->SetMtu(GetPodMtu());
    pod->AddDevice(podVeth);
    hostNode->AddDevice(hostVeth);
    OncacheVethNetDevice::Connect(podVeth, hostVeth);

    Ptr<Ipv4> ipv4 = pod->GetObject<Ipv4>();
    int32_t interface = ipv4->AddInterface(podVeth);
    ipv4->AddAddress(interface, Ipv4InterfaceAddress(address, Ipv4Mask("255.255.255.255")));
    ipv4->SetMetric(interface, 1);
    ipv4->SetUp(interface);
    Ipv4StaticRoutingHelper routing;
    Ipv4Address gateway((address.Get() & 0xffffff00U) + 1);
    routing.GetStaticRouting(ipv4)->SetDefaultRoute(gateway, interface);

    // The pods already on the host (a count over the whole cluster made Install quadratic).
    uint32_t appCore = datapath->GetNPods() % datapath->GetCpu()->GetCores();
    cluster->AddPod(host, pod, address, podVeth, hostVeth, appCore);
    return pod;
}

namespace
{

/// What the pcap writer needs to split super-segments into wire frames.
struct PcapSplitter
{
    Ptr<PcapFileWrapper> file; //!< the capture
    uint32_t wireMtu = 1500;   //!< IP MTU of a wire frame
    DataRate rate;             //!< line rate (spacing of the split frames)
};

/// A frame taken apart by StripHeaders: every header a split segment repeats.
struct SplitHeaders
{
    EthernetHeader eth{false};      //!< the frame's Ethernet header
    EthernetTrailer fcs;            //!< its FCS
    Ipv4Header outer;               //!< the outer (or only) IPv4 header
    bool encapsulated = false;      //!< a VXLAN frame
    UdpHeader tunnel;               //!< encapsulated: the outer UDP header
    OncacheVxlanHeader vxlan;       //!< encapsulated: the VXLAN header
    EthernetHeader innerEth{false}; //!< encapsulated: the inner Ethernet header
    Ipv4Header inner;               //!< the inner IPv4 header (the outer one when not encapsulated)
    bool isTcp = false;             //!< a TCP segment, else a UDP datagram
    TcpHeader tcp;                  //!< isTcp: the TCP header
    UdpHeader udp;                  //!< !isTcp: the UDP header
};

/**
 * \brief Remove the Ethernet header and FCS, the IPv4 headers, the VXLAN encapsulation (if any)
 *        and the TCP or UDP header of a frame.
 * \param p a copy of the frame; the transport payload is left
 * \param h receives the headers
 * \return false when the (inner) packet is neither TCP nor UDP (p is then partly stripped)
 */
bool
StripHeaders(const Ptr<Packet>& p, SplitHeaders& h)
{
    p->RemoveHeader(h.eth);
    p->RemoveTrailer(h.fcs);
    p->RemoveHeader(h.outer);
    h.inner = h.outer;
    if (h.outer.GetProtocol() == 17)
    {
        UdpHeader udp;
        p->PeekHeader(udp);
        if (udp.GetDestinationPort() == OncacheVxlanHeader::PORT)
        {
            p->RemoveHeader(h.tunnel);
            p->RemoveHeader(h.vxlan);
            p->RemoveHeader(h.innerEth);
            p->RemoveHeader(h.inner);
            h.encapsulated = true;
        }
    }
    h.isTcp = h.inner.GetProtocol() == 6;
    if (h.isTcp)
    {
        p->RemoveHeader(h.tcp);
    }
    else if (h.inner.GetProtocol() == 17)
    {
        p->RemoveHeader(h.udp);
    }
    else
    {
        return false;
    }
    return true;
}

/**
 * \brief Build the i-th wire frame of a split super-segment, as a TSO/GSO NIC sends it.
 * \param h the super-segment's headers
 * \param payload the super-segment's transport payload
 * \param offset the frame's first payload byte
 * \param len the frame's payload bytes
 * \param i the frame's index (added to the IP identifications)
 * \return the frame, Ethernet header and FCS included
 */
Ptr<Packet>
BuildSegment(const SplitHeaders& h,
             const Ptr<Packet>& payload,
             uint32_t offset,
             uint32_t len,
             uint32_t i)
{
    Ptr<Packet> segment = payload->CreateFragment(offset, len);
    if (h.isTcp)
    {
        TcpHeader t = h.tcp;
        t.SetSequenceNumber(h.tcp.GetSequenceNumber() + offset);
        if (offset + len < payload->GetSize())
        {
            // FIN and PSH belong to the last segment only, as TSO sets them.
            t.SetFlags(h.tcp.GetFlags() & ~(TcpHeader::FIN | TcpHeader::PSH));
        }
        segment->AddHeader(t);
    }
    else
    {
        UdpHeader u; // fresh: the length follows the segment
        u.SetSourcePort(h.udp.GetSourcePort());
        u.SetDestinationPort(h.udp.GetDestinationPort());
        segment->AddHeader(u);
    }
    Ipv4Header ip = h.inner;
    ip.SetPayloadSize(segment->GetSize());
    ip.SetIdentification(static_cast<uint16_t>(h.inner.GetIdentification() + i));
    segment->AddHeader(ip);
    if (h.encapsulated)
    {
        segment->AddHeader(h.innerEth);
        segment->AddHeader(h.vxlan);
        UdpHeader u;
        u.SetSourcePort(h.tunnel.GetSourcePort());
        u.SetDestinationPort(h.tunnel.GetDestinationPort());
        segment->AddHeader(u);
        Ipv4Header o = h.outer;
        o.SetPayloadSize(segment->GetSize());
        o.SetIdentification(static_cast<uint16_t>(h.outer.GetIdentification() + i));
        segment->AddHeader(o);
    }
    segment->AddHeader(h.eth);
    segment->AddTrailer(h.fcs);
    return segment;
}

/**
 * \brief Write one Ethernet frame (header and FCS included) to a capture; a TCP or UDP
 *        super-segment larger than the wire MTU is written as the ceil(payload / MSS) frames a
 *        TSO/GSO NIC would send (headers repeated, IP identification, TCP sequence numbers and
 *        lengths adjusted), spaced by their wire time.
 * \param splitter the capture and the wire parameters
 * \param frame the frame
 */
void
WriteSplit(std::shared_ptr<const PcapSplitter> splitter, Ptr<const Packet> frame)
{
    const uint32_t ethernetBytes = 14 + 4;
    if (frame->GetSize() <= splitter->wireMtu + ethernetBytes)
    {
        splitter->file->Write(Simulator::Now(), frame);
        return;
    }
    Ptr<Packet> p = frame->Copy();
    SplitHeaders h;
    if (!StripHeaders(p, h))
    {
        splitter->file->Write(Simulator::Now(), frame);
        return;
    }
    const uint32_t l4Bytes = h.isTcp ? h.tcp.GetSerializedSize() : h.udp.GetSerializedSize();
    const uint32_t headerBytes =
        (h.encapsulated ? OncacheVxlanHeader::OVERHEAD : 0) + h.inner.GetSerializedSize() + l4Bytes;
    if (splitter->wireMtu <= headerBytes)
    {
        splitter->file->Write(Simulator::Now(), frame);
        return;
    }
    const uint32_t mss = splitter->wireMtu - headerBytes;
    const uint32_t payload = p->GetSize();
    Time at = Simulator::Now();
    for (uint32_t offset = 0, i = 0; offset < payload; offset += mss, ++i)
    {
        const uint32_t len = std::min(mss, payload - offset);
        Ptr<Packet> segment = BuildSegment(h, p, offset, len, i);
        splitter->file->Write(at, segment);
        at += splitter->rate.CalculateBytesTxTime(segment->GetSize() + 20);
    }
}

} // namespace

void
OncacheTopologyHelper::EnablePcap(const std::string& prefix)
{
    PcapHelper pcap;
    for (auto it = m_nics.Begin(); it != m_nics.End(); ++it)
    {
        std::string name = pcap.GetFilenameFromDevice(prefix, *it);
        auto splitter = std::make_shared<PcapSplitter>();
        splitter->file = pcap.CreateFile(name, std::ios::out, PcapHelper::DLT_EN10MB);
        splitter->wireMtu = m_underlayMtu;
        splitter->rate = m_linkRate;
        (*it)->TraceConnectWithoutContext(
            "Sniffer",
            MakeBoundCallback(&WriteSplit, std::shared_ptr<const PcapSplitter>(splitter)));
    }
}

} // namespace ns3
