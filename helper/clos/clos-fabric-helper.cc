/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "clos-fabric-helper.h"

#include "ns3/boolean.h"
#include "ns3/clos-ecmp-routing.h"
#include "ns3/clos-switch-forwarder.h"
#include "ns3/cluster-ocs-state.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/lean-link-net-device.h"
#include "ns3/log.h"
#include "ns3/ocs-helper.h"
#include "ns3/pfc-net-device.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/red-queue-disc.h"
#include "ns3/string.h"
#include "ns3/suite-check.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"
#ifdef LEAN_LINK_MPI
#include "ns3/mpi-interface.h"
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClosFabricHelper");

NS_OBJECT_ENSURE_REGISTERED(ClosFabricHelper);

namespace
{
constexpr uint32_t TCP_IP_HEADER_BYTES = 52; //!< IPv4 20 + TCP 20 + timestamp option 12

/// Bounds of every link delay, 1 ns to 1 s (a delay text beyond ns-3's Time range wraps,
/// often to 0). A function: GetTypeId runs during static initialisation.
Ptr<const AttributeChecker>
MakeDelayChecker()
{
    return MakeTimeChecker(NanoSeconds(1), Seconds(1));
}

/// Hands out the addresses of switch-side interfaces: 100.64.0.1, 100.64.0.2, ...
class SwitchAddressPool
{
  public:
    /// \return the next address
    Ipv4Address Next()
    {
        return Ipv4Address((100u << 24) | (64u << 16) | ++m_next);
    }

  private:
    uint32_t m_next = 0; //!< last host number handed out
};

/**
 * \brief Add a device to a node's IPv4 with one /32 address, and bring it up.
 * \param device the device
 * \param address its address
 * \return the interface index
 */
uint32_t
AddInterface(Ptr<NetDevice> device, Ipv4Address address)
{
    Ptr<Ipv4> ipv4 = device->GetNode()->GetObject<Ipv4>();
    int32_t existing = ipv4->GetInterfaceForDevice(device);
    uint32_t interface = existing >= 0 ? existing : ipv4->AddInterface(device);
    ipv4->AddAddress(interface, Ipv4InterfaceAddress(address, Ipv4Mask("255.255.255.255")));
    ipv4->SetUp(interface);
    return interface;
}

/// \return the network 10.<leaf>.<server>.0 (server 0: the leaf's 10.<leaf>.0.0)
Ipv4Address
GpuNetwork(uint32_t leaf, uint32_t server)
{
    return Ipv4Address((10u << 24) | (leaf << 16) | (server << 8));
}

/**
 * \brief CircuitUp / CircuitDown sink: the switches' routes follow the circuits.
 * \param fabric the fabric
 */
void
OnOcsCircuit(ClosFabric* fabric, uint32_t, uint32_t)
{
    fabric->UpdateOcsRoutes();
}
} // namespace

TypeId
ClosFabricHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClosFabricHelper")
            .SetParent<Object>()
            .SetGroupName("Clos")
            .AddConstructor<ClosFabricHelper>()
            .AddAttribute("Leaves",
                          "Number of leaf (top-of-rack) switches, 1 to 256.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&ClosFabricHelper::m_leaves),
                          MakeUintegerChecker<uint32_t>(1, MAX_LEAVES))
            .AddAttribute("Spines",
                          "Number of spine switches, 1 to 256; each leaf has one uplink to each "
                          "spine, so fewer spines than GPUs per leaf oversubscribe the fabric.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&ClosFabricHelper::m_spines),
                          MakeUintegerChecker<uint32_t>(1, MAX_SPINES))
            .AddAttribute("ServersPerLeaf",
                          "Servers attached to each leaf, 1 to 256.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&ClosFabricHelper::m_serversPerLeaf),
                          MakeUintegerChecker<uint32_t>(1, MAX_SERVERS_PER_LEAF))
            .AddAttribute("GpusPerServer",
                          "GPUs in each server, 1 to 64; each GPU has its own NIC to the leaf.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&ClosFabricHelper::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>(1, MAX_GPUS_PER_SERVER))
            .AddAttribute("LeafPorts",
                          "Ports of a leaf switch (0: exactly as many as needed). Must cover "
                          "the GPU downlinks plus one uplink per spine.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClosFabricHelper::m_leafPorts),
                          MakeUintegerChecker<uint32_t>(0, MAX_PORTS))
            .AddAttribute("SpinePorts",
                          "Ports of a spine switch (0: exactly as many as needed). Must cover "
                          "one downlink per leaf.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClosFabricHelper::m_spinePorts),
                          MakeUintegerChecker<uint32_t>(0, MAX_PORTS))
            .AddAttribute("OcsCount",
                          "Optical circuit switches between leaves and spines (0: none, the "
                          "static layer). With K > 0 leaf uplink port k sits on OCS k and each "
                          "spine has SpinePorts / K ports on every OCS (as in RapidNetSim). "
                          "Install() "
                          "builds one OcsSwitch per k and starts with the fixed full leaf-spine "
                          "wiring where one exists (OcsCount = Spines), else no circuit.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClosFabricHelper::m_ocsCount),
                          MakeUintegerChecker<uint32_t>(0, MAX_PORTS))
            .AddAttribute("Systems",
                          "Processes of a distributed (MPI) run the fabric is split over: "
                          "leaves in contiguous blocks, each with its servers and GPUs, and "
                          "spines likewise; a link between two blocks is a "
                          "LeanLinkRemoteChannel, its Delay the lookahead. 1: one process. "
                          "More needs ns-3's mpi module with as many processes enabled, "
                          "LinkLayer=p2p with LeanLinks, no OCS layer, and at least as many "
                          "leaves and spines as processes (doc/lean-link/lean-link.rst, "
                          "\"Distributed runs\").",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ClosFabricHelper::m_systems),
                          MakeUintegerChecker<uint32_t>(1, MAX_PORTS))
            .AddAttribute("OcsReconfigurationTime",
                          "Dark time of an OCS circuit set-up (OcsSwitch::ReconfigurationTime "
                          "of every OCS; the initial wiring is up at time 0).",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&ClosFabricHelper::m_ocsReconfigurationTime),
                          MakeTimeChecker(Time(0), Seconds(60)))
            .AddAttribute("NicDataRate",
                          "Rate of a GPU NIC and of its leaf port (at least 1Mbps).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&ClosFabricHelper::m_nicRate),
                          MakeDataRateChecker())
            .AddAttribute("NicDelay",
                          "Propagation delay of a GPU-leaf link, 1ns to 1s.",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&ClosFabricHelper::m_nicDelay),
                          MakeDelayChecker())
            .AddAttribute("FabricDataRate",
                          "Rate of a leaf-spine link (at least 1Mbps).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&ClosFabricHelper::m_fabricRate),
                          MakeDataRateChecker())
            .AddAttribute("FabricDelay",
                          "Propagation delay of a leaf-spine link, 1ns to 1s.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&ClosFabricHelper::m_fabricDelay),
                          MakeDelayChecker())
            .AddAttribute("IntraServerDataRate",
                          "Rate of the NVLink-like links between a GPU and its server's "
                          "switch (10x a NIC by default, as in the vClos authors' simulator; at "
                          "least 1Mbps).",
                          DataRateValue(DataRate("1000Gbps")),
                          MakeDataRateAccessor(&ClosFabricHelper::m_intraServerRate),
                          MakeDataRateChecker())
            .AddAttribute("IntraServerDelay",
                          "Propagation delay of an intra-server link, 1ns to 1s.",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&ClosFabricHelper::m_intraServerDelay),
                          MakeDelayChecker())
            .AddAttribute("Mtu",
                          "IP MTU of every link in bytes, 576 to 65535. The default, 9000, is the "
                          "jumbo frame "
                          "GPU fabrics run (and SimAI's packet size); it also needs 6x fewer "
                          "packets, hence events, than 1500.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&ClosFabricHelper::m_mtu),
                          MakeUintegerChecker<uint32_t>(576, 65535))
            .AddAttribute("QueueSize",
                          "Queue limit of every port; packets beyond it are dropped.",
                          QueueSizeValue(QueueSize("1MB")),
                          MakeQueueSizeAccessor(&ClosFabricHelper::m_queueSize),
                          MakeQueueSizeChecker())
            .AddAttribute("EcnThreshold",
                          "DCTCP marking threshold K: packets are ECN-marked while the queue "
                          "exceeds it (RED with MinTh = K, instantaneous queue). 0 disables "
                          "marking and gives a drop-tail FIFO. Same unit as QueueSize.",
                          QueueSizeValue(QueueSize("100KB")),
                          MakeQueueSizeAccessor(&ClosFabricHelper::m_ecnThreshold),
                          MakeQueueSizeChecker())
            .AddAttribute("TcpSocketType",
                          "TCP congestion control of the GPUs (a TcpCongestionOps TypeId).",
                          StringValue("ns3::TcpDctcp"),
                          MakeStringAccessor(&ClosFabricHelper::m_tcpSocketType),
                          MakeStringChecker())
            .AddAttribute("TcpBufferSize",
                          "TCP send and receive buffer in bytes (must exceed the "
                          "bandwidth-delay product for line rate).",
                          UintegerValue(4 << 20),
                          MakeUintegerAccessor(&ClosFabricHelper::m_tcpBufferSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TcpPacing",
                          "Pace TCP senders (ns-3's pacing at cwnd/RTT, capped at NicDataRate), "
                          "as Linux fq or a NIC rate limiter does. Without it a sender dumps "
                          "its window into its own NIC queue, where it is marked or dropped.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ClosFabricHelper::m_tcpPacing),
                          MakeBooleanChecker())
            .AddAttribute("TcpDelAckTimeout",
                          "TCP delayed-ACK timeout. ns-3's default, 200 ms, stalls a flow whose "
                          "window falls to one segment for 200 ms; datacenter stacks ACK fast.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&ClosFabricHelper::m_tcpDelAckTimeout),
                          MakeTimeChecker())
            .AddAttribute("LinkLayer",
                          "NIC-leaf and leaf-spine links: p2p (PointToPointNetDevice and a queue "
                          "disc per device) or pfc (lossless Ethernet: PfcNetDevice with 8 "
                          "priorities, PFC and ECN, a PfcSwitchBuffer per leaf and spine; "
                          "not with an OCS layer). Intra-server links stay p2p.",
                          EnumValue(P2P),
                          MakeEnumAccessor(&ClosFabricHelper::m_linkLayer),
                          MakeEnumChecker(P2P, "p2p", PFC, "pfc"))
            .AddAttribute("SwitchFastPath",
                          "Leaves and spines forward transit IPv4 packets in one handler "
                          "(ClosSwitchForwarder: same ECMP choice, TTL decrement, priority "
                          "tag, queue disc or PFC device) instead of ns-3's IPv4 receive, "
                          "routing and send path; anything else (TTL expiry, no route, local "
                          "destination, interface down) still takes that path. Ipv4L3Protocol's "
                          "Rx/Tx/UnicastForward traces do not fire for fast-forwarded packets. "
                          "false: the old path everywhere.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ClosFabricHelper::m_switchFastPath),
                          MakeBooleanChecker())
            .AddAttribute(
                "LeanLinks",
                "LinkLayer=p2p: NIC-leaf and leaf-spine links are LeanLinkNetDevice "
                "pairs (the frames of PointToPointNetDevice at the same times, one "
                "event per frame instead of two; doc/lean-link/lean-link.rst, \"Device and "
                "channel\"). false: PointToPointNetDevice. Intra-server and OCS links "
                "stay PointToPointNetDevice.",
                BooleanValue(true),
                MakeBooleanAccessor(&ClosFabricHelper::m_leanLinks),
                MakeBooleanChecker())
            .AddAttribute("Egress",
                          "Where frames wait on the lean NIC-leaf and leaf-spine ports. "
                          "queue-disc: the queue disc (RED marking at EcnThreshold, or FIFO) "
                          "over a 2-frame device queue, as ns-3. clock: the port is the "
                          "device, which gives each frame its start time on arrival and "
                          "schedules only its arrival at the peer (LeanLinkNetDevice "
                          "Egress=Clock: about half the events; QueueSize limits the frames "
                          "not yet started; marks CE above EcnThreshold on arrival, DCTCP's "
                          "step; doc/lean-link/lean-link.rst, \"Clock ports\"). "
                          "clock needs LinkLayer=p2p, LeanLinks and no SetQueueDisc. "
                          "Intra-server and OCS links keep their queue discs.",
                          EnumValue(QUEUE_DISC),
                          MakeEnumAccessor(&ClosFabricHelper::m_egress),
                          MakeEnumChecker(QUEUE_DISC, "queue-disc", CLOCK, "clock"))
            .AddAttribute("TcpMinRto",
                          "Minimum TCP retransmission timeout.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&ClosFabricHelper::m_tcpMinRto),
                          MakeTimeChecker());
    return tid;
}

ClosFabricHelper::ClosFabricHelper()
    : m_switchFastPath(true),
      m_leanLinks(true),
      m_hasCustomQueueDisc(false),
      m_linkLayer(P2P),
      m_egress(QUEUE_DISC),
      m_saltRng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

void
ClosFabricHelper::SetRoutingAttribute(const std::string& name, const AttributeValue& value)
{
    m_routing.Set(name, value);
}

void
ClosFabricHelper::SetPfcDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_pfc.SetDeviceAttribute(name, value);
}

void
ClosFabricHelper::SetPfcBufferAttribute(const std::string& name, const AttributeValue& value)
{
    m_pfc.SetBufferAttribute(name, value);
}

int64_t
ClosFabricHelper::AssignStreams(Ptr<ClosFabric> fabric, int64_t stream)
{
    NS_LOG_FUNCTION(this << fabric << stream);
    int64_t next = stream;
    m_saltRng->SetStream(next++);
    DrawSalts(fabric);
    NodeContainer all(fabric->GetGpus(), fabric->GetServerSwitches());
    all.Add(fabric->GetLeaves());
    all.Add(fabric->GetSpines());
    next += InternetStackHelper().AssignStreams(all, next);
    for (const auto& link : fabric->GetLinks())
    {
        if (Ptr<PfcNetDevice> pfc = DynamicCast<PfcNetDevice>(link.device))
        {
            next += pfc->AssignStreams(next);
            continue;
        }
        Ptr<LeanLinkNetDevice> lean = DynamicCast<LeanLinkNetDevice>(link.device);
        if (lean && lean->GetEgress() == LeanLinkNetDevice::CLOCK)
        {
            next += lean->AssignStreams(next);
            continue;
        }
        Ptr<TrafficControlLayer> tc = link.device->GetNode()->GetObject<TrafficControlLayer>();
        Ptr<RedQueueDisc> red =
            DynamicCast<RedQueueDisc>(tc->GetRootQueueDiscOnDevice(link.device));
        if (red)
        {
            next += red->AssignStreams(next);
        }
    }
    return next - stream;
}

void
ClosFabricHelper::DrawSalts(Ptr<ClosFabric> fabric)
{
    for (const auto& routing : fabric->m_leafRouting)
    {
        routing->SetSalt(m_saltRng->GetInteger(0, UINT32_MAX));
    }
    for (const auto& routing : fabric->m_spineRouting)
    {
        routing->SetSalt(m_saltRng->GetInteger(0, UINT32_MAX));
    }
}

void
ClosFabricHelper::Validate() const
{
    // Attribute checkers bound each value; these are the fabric's own limits, checked in
    // this order (the first inconsistent attribute is the one named).
    ValidateLinkLayer();
    ValidateSystems();
    ValidateSize();
    ValidateRatesAndTransport();
}

void
ClosFabricHelper::ValidateLinkLayer() const
{
    SUITE_REQUIRE(m_linkLayer != PFC || m_ocsCount == 0,
                  std::invalid_argument,
                  "LinkLayer=pfc does not support an OCS layer (OcsCount=" << m_ocsCount << ")");
    SUITE_REQUIRE(m_egress != CLOCK || (m_linkLayer == P2P && m_leanLinks),
                  std::invalid_argument,
                  "Egress=clock needs LinkLayer=p2p and LeanLinks=true (the port is a "
                  "LeanLinkNetDevice)");
    SUITE_REQUIRE(m_egress != CLOCK || !m_hasCustomQueueDisc,
                  std::invalid_argument,
                  "Egress=clock: the ports are their own queues, SetQueueDisc does not apply");
}

void
ClosFabricHelper::ValidateSystems() const
{
    if (m_systems <= 1)
    {
        return;
    }
#ifdef LEAN_LINK_MPI
    const uint32_t processes = MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
#else
    const uint32_t processes = 1;
#endif
    SUITE_REQUIRE(processes == m_systems,
                  std::invalid_argument,
                  "Systems=" << m_systems << " needs as many MPI processes, this run has "
                             << processes
#ifndef LEAN_LINK_MPI
                             << " (this ns-3 has no mpi module: utils/build-optimized-ns3.sh)"
#endif
    );
    SUITE_REQUIRE(m_linkLayer == P2P && m_leanLinks && m_ocsCount == 0,
                  std::invalid_argument,
                  "Systems=" << m_systems
                             << " needs LinkLayer=p2p, LeanLinks=true and no OCS layer (links "
                                "between processes are LeanLinkRemoteChannels)");
    SUITE_REQUIRE(m_leaves >= m_systems && m_spines >= m_systems,
                  std::invalid_argument,
                  "Systems=" << m_systems << " needs at least as many leaves and spines (have "
                             << m_leaves << " and " << m_spines << ")");
}

void
ClosFabricHelper::ValidateSize() const
{
    if (m_ocsCount > 0)
    {
        GetTopologyConfig(); // throws, one line, where the OCS layer does not fit
    }
    const uint64_t gpus = uint64_t{m_leaves} * m_serversPerLeaf * m_gpusPerServer;
    const uint64_t nodes = gpus + m_leaves + m_spines +
                           (m_gpusPerServer > 1 ? uint64_t{m_leaves} * m_serversPerLeaf : 0);
    const uint64_t core = m_ocsCount > 0 ? uint64_t{m_leaves} * m_ocsCount + m_spinePorts * m_spines
                                         : uint64_t{m_leaves} * m_spines;
    const uint64_t links = 2 * (gpus + core + (m_gpusPerServer > 1 ? gpus : 0));
    SUITE_REQUIRE(nodes <= MAX_NODES && links <= MAX_LINKS,
                  std::invalid_argument,
                  "Leaves=" << m_leaves << ", Spines=" << m_spines << ", ServersPerLeaf="
                            << m_serversPerLeaf << ", GpusPerServer=" << m_gpusPerServer << " make "
                            << nodes << " nodes and " << links
                            << " directed links; the packet-level fabric holds at most "
                            << MAX_NODES << " and " << MAX_LINKS);
    uint32_t downlinks = m_serversPerLeaf * m_gpusPerServer;
    const uint32_t uplinks = m_ocsCount > 0 ? m_ocsCount : m_spines;
    SUITE_REQUIRE(m_leafPorts == 0 || m_leafPorts >= downlinks + uplinks,
                  std::invalid_argument,
                  "LeafPorts=" << m_leafPorts << " cannot hold the " << downlinks
                               << " GPU downlinks plus " << uplinks << " uplinks");
    SUITE_REQUIRE(m_ocsCount > 0 || m_spinePorts == 0 || m_spinePorts >= m_leaves,
                  std::invalid_argument,
                  "SpinePorts=" << m_spinePorts << " cannot hold one downlink to each of the "
                                << m_leaves << " leaves");
}

void
ClosFabricHelper::ValidateRatesAndTransport() const
{
    for (const auto& [name, rate] : {std::make_pair("NicDataRate", m_nicRate),
                                     std::make_pair("FabricDataRate", m_fabricRate),
                                     std::make_pair("IntraServerDataRate", m_intraServerRate)})
    {
        SUITE_REQUIRE(rate.GetBitRate() >= MIN_DATA_RATE_BPS,
                      std::invalid_argument,
                      name << " must be at least 1Mbps (got " << rate.GetBitRate() << "bps)");
    }
    SUITE_REQUIRE(m_queueSize.GetValue() > 0, std::invalid_argument, "QueueSize must be > 0");
    SUITE_REQUIRE(
        m_ecnThreshold.GetValue() == 0 || (m_ecnThreshold.GetUnit() == m_queueSize.GetUnit() &&
                                           m_ecnThreshold.GetValue() < m_queueSize.GetValue()),
        std::invalid_argument,
        "EcnThreshold=" << m_ecnThreshold << " must be 0 or below QueueSize=" << m_queueSize
                        << " in the same unit");
    TypeId congestion;
    SUITE_REQUIRE(TypeId::LookupByNameFailSafe(m_tcpSocketType, &congestion) &&
                      congestion.IsChildOf(TcpCongestionOps::GetTypeId()),
                  std::invalid_argument,
                  "TcpSocketType '" << m_tcpSocketType
                                    << "' is not a TCP congestion control TypeId");
    SUITE_REQUIRE(m_tcpBufferSize >= m_mtu,
                  std::invalid_argument,
                  "TcpBufferSize=" << m_tcpBufferSize << " must be at least one Mtu");
    SUITE_REQUIRE(m_tcpDelAckTimeout.IsStrictlyPositive(),
                  std::invalid_argument,
                  "TcpDelAckTimeout must be > 0");
    SUITE_REQUIRE(m_tcpMinRto.IsStrictlyPositive(), std::invalid_argument, "TcpMinRto must be > 0");
}

void
ClosFabricHelper::ConfigureTransport() const
{
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue(m_tcpSocketType));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(m_mtu - TCP_IP_HEADER_BYTES));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(m_tcpBufferSize));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(m_tcpBufferSize));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(m_tcpMinRto));
    // A lost SYN or SYN-ACK is resent after ConnTimeout (then 2x, 4x, ... ConnCount times):
    // the same scale as a lost data segment, not ns-3's 3 s.
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(m_tcpMinRto));
    // TIME_WAIT (2 MSL) holds a closed connection's endpoint for 4 minimum RTOs rather than
    // ns-3's 240 s, so a long run of short jobs does not accumulate closed sockets.
    Config::SetDefault("ns3::TcpSocketBase::MaxSegLifetime",
                       DoubleValue(2 * m_tcpMinRto.GetSeconds()));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(m_tcpDelAckTimeout));
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(m_tcpPacing));
    Config::SetDefault("ns3::TcpSocketState::MaxPacingRate", DataRateValue(m_nicRate));
}

TrafficControlHelper
ClosFabricHelper::GetQueueDiscHelper() const
{
    if (m_hasCustomQueueDisc)
    {
        return m_customQueueDisc;
    }
    TrafficControlHelper tch;
    if (m_ecnThreshold.GetValue() == 0)
    {
        uint16_t fifo =
            tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(m_queueSize));
        // What FifoQueueDisc::CheckConfig would add (a DropTailQueue of the queue disc's
        // MaxSize), without a list node per packet.
        tch.AddInternalQueues(fifo,
                              1,
                              "ns3::LeanLinkFifoQueue",
                              "MaxSize",
                              QueueSizeValue(m_queueSize));
        return tch;
    }
    // DCTCP-style marking: instantaneous queue (QW = 1), mark at K, never drop early.
    double k = m_ecnThreshold.GetValue();
    double step = m_queueSize.GetUnit() == QueueSizeUnit::BYTES ? m_mtu : 1.0;
    uint16_t red = tch.SetRootQueueDisc("ns3::RedQueueDisc",
                                        "MaxSize",
                                        QueueSizeValue(m_queueSize),
                                        "MinTh",
                                        DoubleValue(k),
                                        "MaxTh",
                                        DoubleValue(k + step),
                                        "QW",
                                        DoubleValue(1.0),
                                        "UseEcn",
                                        BooleanValue(true),
                                        "UseHardDrop",
                                        BooleanValue(false),
                                        "MeanPktSize",
                                        UintegerValue(m_mtu),
                                        "LinkBandwidth",
                                        DataRateValue(m_fabricRate));
    // What RedQueueDisc::CheckConfig would add (a DropTailQueue of the queue disc's MaxSize),
    // without a list node per packet.
    tch.AddInternalQueues(red, 1, "ns3::LeanLinkFifoQueue", "MaxSize", QueueSizeValue(m_queueSize));
    return tch;
}

ClusterTopologyConfig
ClosFabricHelper::GetTopologyConfig() const
{
    ClusterTopologyConfig c;
    c.leaves = m_leaves;
    c.spines = m_spines;
    c.serversPerLeaf = m_serversPerLeaf;
    c.gpusPerServer = m_gpusPerServer;
    c.leafPorts = m_leafPorts;
    c.spinePorts = m_spinePorts;
    c.ocsCount = m_ocsCount;
    c.nicRateBps = m_nicRate.GetBitRate();
    c.fabricRateBps = m_fabricRate.GetBitRate();
    c.intraServerRateBps = m_intraServerRate.GetBitRate();
    c.nicDelayNs = static_cast<uint64_t>(std::max<int64_t>(0, m_nicDelay.GetNanoSeconds()));
    c.fabricDelayNs = static_cast<uint64_t>(std::max<int64_t>(0, m_fabricDelay.GetNanoSeconds()));
    c.intraServerDelayNs =
        static_cast<uint64_t>(std::max<int64_t>(0, m_intraServerDelay.GetNanoSeconds()));
    const std::string bad = ClusterTopology::Check(c);
    SUITE_REQUIRE(bad.empty(), std::invalid_argument, bad);
    return c;
}

/// What Install()'s link stages share while they build one fabric.
struct ClosFabricHelper::InstallState
{
    Ptr<ClosFabric> fabric;                        //!< the fabric being built
    PointToPointHelper p2p;                        //!< p2p links (intra-server, fabric if not lean)
    NetDeviceContainer queueDiscDevices;           //!< the devices that get a queue disc
    SwitchAddressPool switchAddresses;             //!< hands out switch-side addresses
    Ipv4StaticRoutingHelper staticRouting;         //!< GPU and server-switch routes
    std::vector<std::vector<uint32_t>> leafDownIf; //!< per leaf, its GPU downlinks' interfaces
};

Ptr<ClosFabric>
ClosFabricHelper::Install()
{
    NS_LOG_FUNCTION(this);
    Validate();
    ConfigureTransport();

    Ptr<ClosFabric> fabric = CreateObject<ClosFabric>();
    CreateNodes(fabric);
    InstallInternetStacks(fabric);

    InstallState state;
    state.fabric = fabric;
    ConfigureLinkHelpers(state.p2p);
    TrafficControlHelper queueDisc = GetQueueDiscHelper();
    if (m_linkLayer == PFC)
    {
        InstallPfcSwitchBuffers(fabric);
    }
    InstallNicLinks(state);
    // Leaves to spines: one link per pair, or through the OCS layer.
    if (m_ocsCount > 0)
    {
        InstallOcsLayer(fabric, state.queueDiscDevices, [&state]() {
            return state.switchAddresses.Next();
        });
    }
    else
    {
        InstallLeafSpineLinks(state);
    }
    if (m_gpusPerServer > 1)
    {
        InstallIntraServerLinks(state);
    }
    queueDisc.Install(state.queueDiscDevices);

    InstallSwitchRoutes(fabric, state.leafDownIf);
    if (m_ocsCount > 0)
    {
        StartOcsLayer(fabric);
    }
    if (m_switchFastPath)
    {
        InstallSwitchForwarders(fabric);
    }
    DrawSalts(fabric);
    NS_LOG_INFO("fabric: " << fabric->GetGpuCount() << " GPUs, " << m_leaves << " leaves, "
                           << m_spines << " spines, " << fabric->GetLinks().size()
                           << " directed links");
    return fabric;
}

void
ClosFabricHelper::CreateNodes(Ptr<ClosFabric> fabric) const
{
    fabric->m_leafCount = m_leaves;
    fabric->m_spineCount = m_spines;
    fabric->m_serversPerLeaf = m_serversPerLeaf;
    fabric->m_gpusPerServer = m_gpusPerServer;
    const uint32_t gpuCount = fabric->GetGpuCount();
    const uint32_t serverCount = m_leaves * m_serversPerLeaf;

    // Node ids in the order of one process; with Systems > 1 each node is on its block's
    // system (block b of n items out of c: items [b c / n, (b + 1) c / n)).
    auto systemOf = [this](uint32_t index, uint32_t count) {
        return static_cast<uint32_t>(uint64_t{index} * m_systems / count);
    };
    for (uint32_t s = 0; s < m_spines; ++s)
    {
        fabric->m_spines.Create(1, systemOf(s, m_spines));
    }
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        fabric->m_leaves.Create(1, systemOf(l, m_leaves));
    }
    if (m_gpusPerServer > 1)
    {
        for (uint32_t server = 0; server < serverCount; ++server)
        {
            fabric->m_serverSwitches.Create(1, systemOf(server / m_serversPerLeaf, m_leaves));
        }
    }
    for (uint32_t g = 0; g < gpuCount; ++g)
    {
        fabric->m_gpus.Create(1, systemOf(fabric->GetLeafOfGpu(g), m_leaves));
    }
}

void
ClosFabricHelper::InstallInternetStacks(Ptr<ClosFabric> fabric) const
{
    InternetStackHelper hostStack;
    hostStack.SetRoutingHelper(Ipv4StaticRoutingHelper());
    hostStack.Install(fabric->m_gpus);
    hostStack.Install(fabric->m_serverSwitches);
    InternetStackHelper switchStack;
    switchStack.SetRoutingHelper(m_routing);
    switchStack.Install(fabric->m_leaves);
    switchStack.Install(fabric->m_spines);
}

void
ClosFabricHelper::ConfigureLinkHelpers(PointToPointHelper& p2p)
{
    p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("2p")));
    m_lean.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    // DropTailQueue's behaviour and traces without a list node per packet (LeanLinkFifoQueue).
    m_lean.SetQueue("ns3::LeanLinkFifoQueue", "MaxSize", QueueSizeValue(QueueSize("2p")));
    // m_lean keeps what is set on it: set Egress on every Install.
    m_lean.SetDeviceAttribute(
        "Egress",
        EnumValue(m_egress == CLOCK ? LeanLinkNetDevice::CLOCK : LeanLinkNetDevice::QUEUE));
    if (m_egress == CLOCK)
    {
        // The port's queue: QueueSize of frames not yet started, marked above K on arrival.
        const uint64_t k = m_ecnThreshold.GetValue();
        SUITE_REQUIRE(k == 0 || m_ecnThreshold.GetUnit() == m_queueSize.GetUnit(),
                      std::invalid_argument,
                      "Egress=clock: EcnThreshold=" << m_ecnThreshold << " and QueueSize="
                                                    << m_queueSize << " need the same unit");
        m_lean.SetDeviceAttribute("EgressMaxSize", QueueSizeValue(m_queueSize));
        m_lean.SetDeviceAttribute("EcnEnabled", BooleanValue(k > 0));
        m_lean.SetDeviceAttribute("EcnKmin", UintegerValue(k));
        m_lean.SetDeviceAttribute("EcnKmax", UintegerValue(k));
    }
}

void
ClosFabricHelper::InstallPfcSwitchBuffers(Ptr<ClosFabric> fabric)
{
    m_pfc.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    for (auto* switches : {&fabric->m_leaves, &fabric->m_spines})
    {
        for (auto it = switches->Begin(); it != switches->End(); ++it)
        {
            m_pfc.InstallSwitchBuffer(*it);
        }
    }
}

NetDeviceContainer
ClosFabricHelper::Connect(InstallState& state,
                          Ptr<Node> a,
                          Ptr<Node> b,
                          DataRate rate,
                          Time delay,
                          bool fabricLink)
{
    // Fabric links (NIC-leaf, leaf-spine) follow LinkLayer; intra-server links are p2p.
    if (m_linkLayer == PFC && fabricLink)
    {
        m_pfc.SetDeviceAttribute("DataRate", DataRateValue(rate));
        m_pfc.SetChannelAttribute("Delay", TimeValue(delay));
        return m_pfc.Install(a, b);
    }
    NetDeviceContainer devices;
    if (m_leanLinks && fabricLink)
    {
        m_lean.SetDeviceAttribute("DataRate", DataRateValue(rate));
        m_lean.SetChannelAttribute("Delay", TimeValue(delay));
        devices = m_lean.Install(a, b);
        if (m_egress == CLOCK)
        {
            return devices; // each device is its own queue: no queue disc
        }
    }
    else
    {
        state.p2p.SetDeviceAttribute("DataRate", DataRateValue(rate));
        state.p2p.SetChannelAttribute("Delay", TimeValue(delay));
        devices = state.p2p.Install(a, b);
    }
    state.queueDiscDevices.Add(devices);
    return devices;
}

void
ClosFabricHelper::InstallNicLinks(InstallState& state)
{
    Ptr<ClosFabric> fabric = state.fabric;
    const uint32_t gpuCount = fabric->GetGpuCount();
    fabric->m_gpuUplink.resize(gpuCount);
    fabric->m_gpuDownlink.resize(gpuCount);
    state.leafDownIf.assign(m_leaves, std::vector<uint32_t>());
    for (uint32_t gpu = 0; gpu < gpuCount; ++gpu)
    {
        uint32_t leaf = fabric->GetLeafOfGpu(gpu);
        Ptr<Node> gpuNode = fabric->m_gpus.Get(gpu);
        NetDeviceContainer d =
            Connect(state, gpuNode, fabric->m_leaves.Get(leaf), m_nicRate, m_nicDelay, true);
        if (m_linkLayer == PFC)
        {
            // Congestion points are switch egresses (DCQCN paper, section 3): NICs never mark.
            d.Get(0)->SetAttribute("EcnEnabled", BooleanValue(false));
        }
        uint32_t nicIf = AddInterface(d.Get(0), fabric->GetGpuAddress(gpu));
        Ipv4Address leafSide = state.switchAddresses.Next();
        state.leafDownIf[leaf].push_back(AddInterface(d.Get(1), leafSide));
        state.staticRouting.GetStaticRouting(gpuNode->GetObject<Ipv4>())
            ->SetDefaultRoute(leafSide, nicIf);
        fabric->m_gpuUplink[gpu] = fabric->AddLink(ClusterLink::GPU_TO_LEAF, gpu, leaf, d.Get(0));
        fabric->m_gpuDownlink[gpu] = fabric->AddLink(ClusterLink::LEAF_TO_GPU, leaf, gpu, d.Get(1));
    }
}

void
ClosFabricHelper::InstallLeafSpineLinks(InstallState& state)
{
    Ptr<ClosFabric> fabric = state.fabric;
    fabric->m_leafUplinks.assign(m_leaves, std::vector<uint32_t>(m_spines));
    fabric->m_leafUplinkIf.assign(m_leaves, std::vector<uint32_t>(m_spines));
    fabric->m_spineDownlinks.assign(m_spines, std::vector<uint32_t>(m_leaves));
    fabric->m_spinePortIf.assign(m_spines, std::vector<uint32_t>(m_leaves));
    for (uint32_t leaf = 0; leaf < m_leaves; ++leaf)
    {
        for (uint32_t spine = 0; spine < m_spines; ++spine)
        {
            NetDeviceContainer d = Connect(state,
                                           fabric->m_leaves.Get(leaf),
                                           fabric->m_spines.Get(spine),
                                           m_fabricRate,
                                           m_fabricDelay,
                                           true);
            fabric->m_leafUplinkIf[leaf][spine] =
                AddInterface(d.Get(0), state.switchAddresses.Next());
            fabric->m_spinePortIf[spine][leaf] =
                AddInterface(d.Get(1), state.switchAddresses.Next());
            fabric->m_leafUplinks[leaf][spine] =
                fabric->AddLink(ClusterLink::LEAF_TO_SPINE, leaf, spine, d.Get(0));
            fabric->m_spineDownlinks[spine][leaf] =
                fabric->AddLink(ClusterLink::SPINE_TO_LEAF, spine, leaf, d.Get(1));
        }
    }
}

void
ClosFabricHelper::InstallIntraServerLinks(InstallState& state)
{
    Ptr<ClosFabric> fabric = state.fabric;
    const uint32_t gpuCount = fabric->GetGpuCount();
    fabric->m_gpuNvUplink.resize(gpuCount);
    fabric->m_gpuNvDownlink.resize(gpuCount);
    for (uint32_t gpu = 0; gpu < gpuCount; ++gpu)
    {
        uint32_t leaf = fabric->GetLeafOfGpu(gpu);
        uint32_t serverIndex = gpu / m_gpusPerServer;
        uint32_t server = serverIndex % m_serversPerLeaf;
        Ptr<Node> gpuNode = fabric->m_gpus.Get(gpu);
        Ptr<Node> serverSwitch = fabric->m_serverSwitches.Get(serverIndex);
        NetDeviceContainer d =
            Connect(state, gpuNode, serverSwitch, m_intraServerRate, m_intraServerDelay, false);
        Ipv4Address nvAddress = fabric->GetGpuIntraServerAddress(gpu);
        uint32_t nvIf = AddInterface(d.Get(0), nvAddress);
        uint32_t switchIf = AddInterface(d.Get(1), state.switchAddresses.Next());
        state.staticRouting.GetStaticRouting(gpuNode->GetObject<Ipv4>())
            ->AddNetworkRouteTo(GpuNetwork(leaf, server), Ipv4Mask("/24"), nvIf);
        Ptr<Ipv4StaticRouting> switchRouting =
            state.staticRouting.GetStaticRouting(serverSwitch->GetObject<Ipv4>());
        switchRouting->AddHostRouteTo(fabric->GetGpuAddress(gpu), switchIf);
        switchRouting->AddHostRouteTo(nvAddress, switchIf);
        fabric->m_gpuNvUplink[gpu] =
            fabric->AddLink(ClusterLink::GPU_TO_NVSWITCH, gpu, serverIndex, d.Get(0));
        fabric->m_gpuNvDownlink[gpu] =
            fabric->AddLink(ClusterLink::NVSWITCH_TO_GPU, serverIndex, gpu, d.Get(1));
    }
}

void
ClosFabricHelper::InstallSwitchRoutes(Ptr<ClosFabric> fabric,
                                      const std::vector<std::vector<uint32_t>>& leafDownIf) const
{
    // Switch routes from the structure: leaves reach their GPUs' NICs directly and everything
    // else through any spine; spines reach each leaf's GPUs (10.<leaf>/16) on its link.
    for (uint32_t leaf = 0; leaf < m_leaves; ++leaf)
    {
        Ptr<ClosEcmpRouting> routing = DynamicCast<ClosEcmpRouting>(
            fabric->m_leaves.Get(leaf)->GetObject<Ipv4>()->GetRoutingProtocol());
        for (uint32_t i = 0; i < fabric->GetGpusPerLeaf(); ++i)
        {
            routing->AddRoute(fabric->GetGpuAddress(fabric->GetGpuAt(leaf, i)),
                              Ipv4Mask("/32"),
                              {leafDownIf[leaf][i]});
        }
        // The rest of the leaf's own range (intra-server addresses) is not reachable through
        // the fabric: drop it here rather than bounce it off a spine until its TTL runs out.
        routing->AddRoute(GpuNetwork(leaf, 0), Ipv4Mask("/16"), {});
        if (m_ocsCount == 0)
        {
            routing->AddRoute(Ipv4Address::GetAny(),
                              Ipv4Mask::GetZero(),
                              fabric->m_leafUplinkIf[leaf]);
        }
        fabric->m_leafRouting.push_back(routing);
    }
    for (uint32_t spine = 0; spine < m_spines; ++spine)
    {
        Ptr<ClosEcmpRouting> routing = DynamicCast<ClosEcmpRouting>(
            fabric->m_spines.Get(spine)->GetObject<Ipv4>()->GetRoutingProtocol());
        for (uint32_t leaf = 0; m_ocsCount == 0 && leaf < m_leaves; ++leaf)
        {
            routing->AddRoute(GpuNetwork(leaf, 0),
                              Ipv4Mask("/16"),
                              {fabric->m_spinePortIf[spine][leaf]});
        }
        fabric->m_spineRouting.push_back(routing);
    }
}

void
ClosFabricHelper::InstallSwitchForwarders(Ptr<ClosFabric> fabric) const
{
    for (auto* switches : {&fabric->m_leaves, &fabric->m_spines})
    {
        for (auto it = switches->Begin(); it != switches->End(); ++it)
        {
            CreateObject<ClosSwitchForwarder>()->Install(*it);
        }
    }
}

void
ClosFabricHelper::InstallOcsLayer(Ptr<ClosFabric> fabric,
                                  NetDeviceContainer& devices,
                                  const std::function<Ipv4Address()>& nextAddress) const
{
    const ClusterTopology topology(GetTopologyConfig());
    const uint32_t perOcs = topology.GetSpinePortsPerOcs();
    fabric->m_spinePortsPerOcs = perOcs;
    OcsHelper ocsHelper;
    ocsHelper.SetDeviceAttribute("DataRate", DataRateValue(m_fabricRate));
    ocsHelper.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    ocsHelper.SetQueueAttribute("MaxSize", QueueSizeValue(QueueSize("2p")));
    // Two hops of half the fabric delay: a circuit has the delay of a static link.
    ocsHelper.SetOcsAttribute("Delay", TimeValue(m_fabricDelay / 2));
    // The initial wiring is up at once; StartOcsLayer sets the real dark time afterwards.
    ocsHelper.SetOcsAttribute("ReconfigurationTime", TimeValue(Time(0)));
    fabric->m_leafUplinks.assign(m_leaves, std::vector<uint32_t>(m_ocsCount));
    fabric->m_leafUplinkIf.assign(m_leaves, std::vector<uint32_t>(m_ocsCount));
    fabric->m_spineDownlinks.assign(m_spines, std::vector<uint32_t>(m_ocsCount * perOcs));
    fabric->m_spinePortIf.assign(m_spines, std::vector<uint32_t>(m_ocsCount * perOcs));
    for (uint32_t k = 0; k < m_ocsCount; ++k)
    {
        // Ports: leaf l is port l; spine j's q-th port is Leaves + j * perOcs + q.
        NodeContainer nodes(fabric->m_leaves);
        for (uint32_t spine = 0; spine < m_spines; ++spine)
        {
            for (uint32_t q = 0; q < perOcs; ++q)
            {
                nodes.Add(fabric->m_spines.Get(spine));
            }
        }
        Ptr<OcsSwitch> ocs = ocsHelper.Install(nodes);
        devices.Add(OcsHelper::GetDevices(ocs));
        for (uint32_t leaf = 0; leaf < m_leaves; ++leaf)
        {
            Ptr<NetDevice> device = ocs->GetDevice(leaf);
            fabric->m_leafUplinkIf[leaf][k] = AddInterface(device, nextAddress());
            fabric->m_leafUplinks[leaf][k] =
                fabric->AddLink(ClusterLink::LEAF_TO_SPINE, leaf, k, device);
        }
        for (uint32_t spine = 0; spine < m_spines; ++spine)
        {
            for (uint32_t q = 0; q < perOcs; ++q)
            {
                const uint32_t p = k * perOcs + q;
                Ptr<NetDevice> device = ocs->GetDevice(m_leaves + spine * perOcs + q);
                fabric->m_spinePortIf[spine][p] = AddInterface(device, nextAddress());
                fabric->m_spineDownlinks[spine][p] =
                    fabric->AddLink(ClusterLink::SPINE_TO_LEAF, spine, p, device);
            }
        }
        fabric->m_ocs.push_back(ocs);
    }
}

void
ClosFabricHelper::StartOcsLayer(Ptr<ClosFabric> fabric) const
{
    const ClusterTopology topology(GetTopologyConfig());
    const uint32_t perOcs = fabric->m_spinePortsPerOcs;
    if (ClusterOcsFullWiringCheck(topology).empty())
    {
        for (const ClusterOcsCircuit& c : ClusterOcsFullWiring(topology))
        {
            std::string error;
            const bool ok = fabric->m_ocs[c.ocs]->Connect(
                fabric->GetLeafOcsPort(c.leaf, c.ocs),
                fabric->GetSpineOcsPort(c.peer, c.ocs, c.peerPort % perOcs),
                &error);
            SUITE_REQUIRE(ok && c.peerPort / perOcs == c.ocs,
                          std::logic_error,
                          "full OCS wiring: " << error);
        }
    }
    ClosFabric* raw = PeekPointer(fabric); // owns the switches, so it outlives their traces
    for (const auto& ocs : fabric->m_ocs)
    {
        ocs->SetAttribute("ReconfigurationTime", TimeValue(m_ocsReconfigurationTime));
        OcsHelper::FollowCircuits(ocs);
        ocs->TraceConnectWithoutContext("CircuitUp", MakeBoundCallback(&OnOcsCircuit, raw));
        ocs->TraceConnectWithoutContext("CircuitDown", MakeBoundCallback(&OnOcsCircuit, raw));
    }
    fabric->UpdateOcsRoutes();
}

void
ClosFabricHelper::EnablePcap(const std::string& prefix, Ptr<ClosFabric> fabric)
{
    for (const auto& link : fabric->GetLinks())
    {
        if (link.kind == ClusterLink::GPU_TO_NVSWITCH || link.kind == ClusterLink::NVSWITCH_TO_GPU)
        {
            continue;
        }
        if (DynamicCast<PfcNetDevice>(link.device))
        {
            m_pfc.EnablePcap(prefix, link.device, false);
        }
        else if (DynamicCast<LeanLinkNetDevice>(link.device))
        {
            m_lean.EnablePcap(prefix, link.device, false);
        }
        else
        {
            m_pcap.EnablePcap(prefix, link.device, false);
        }
    }
}

} // namespace ns3
