/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-nic.h"

#include "roce-host-path.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/ipv4-end-point.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/lean-link-ipv4-receive.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/suite-check.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/uinteger.h"

#include <stdexcept>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceNic");
NS_OBJECT_ENSURE_REGISTERED(RoceNic);

namespace
{
/// IPv4 + UDP header bytes.
constexpr uint32_t IP_UDP_BYTES = 20 + 8;

/// Started NICs by IPv4 address (Connect's lookup; each NIC removes its own on disposal).
std::unordered_map<uint32_t, RoceNic*>&
Registry()
{
    static std::unordered_map<uint32_t, RoceNic*> registry;
    return registry;
}
} // namespace

TypeId
RoceNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceNic")
            .SetParent<Object>()
            .SetGroupName("Roce")
            .AddConstructor<RoceNic>()
            .AddAttribute("Mtu",
                          "Payload bytes per packet (IB path MTU): 256, 512, 1024, 2048 or 4096 "
                          "(IBTA RoCEv2 annex A17); with IbMtuOnly=false any value from 256 that "
                          "the IP MTU carries.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RoceNic::m_mtu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("IbMtuOnly",
                          "Refuse an Mtu that is not an IB path MTU. false accepts payloads "
                          "above RoCE's 4096-byte cap, such as SimAI's default 9000 bytes, for "
                          "like-for-like comparisons with SimAI (SimAI's defaults: a fidelity "
                          "gap, no real RNIC sends them).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceNic::m_ibMtuOnly),
                          MakeBooleanChecker())
            .AddAttribute("AckInterval",
                          "The responder acknowledges every this many packets accepted in "
                          "order, and every packet with the AckReq bit (the last of each "
                          "message); at least 1 (IBTA Vol. 1 ch. 9, AckPolicy).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RoceNic::m_ackInterval),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CnpInterval",
                          "Notification point: at most one CNP per QP per this interval; a "
                          "CE mark within it after a CNP sends none (DCQCN paper, section 3, N).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RoceNic::m_cnpInterval),
                          MakeTimeChecker())
            .AddAttribute("AckTimeout",
                          "Retransmission timer of a requester: with packets unacknowledged "
                          "this long it goes back to snd_una. 0 disables it (IB t=0, "
                          "infinite). Default 4.096 us * 2^14 (IBTA Vol. 1 ch. 9, AckTimeoutExp).",
                          TimeValue(NanoSeconds(4096ULL << 14)),
                          MakeTimeAccessor(&RoceNic::m_ackTimeout),
                          MakeTimeChecker())
            .AddAttribute("RetryCount",
                          "Timeouts in a row without progress after which a requester enters "
                          "the error state and stops (IBTA Vol. 1 ch. 9).",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RoceNic::m_retryCount),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "NakSuppression",
                "UntilProgress: one NAK per expected PSN (IBTA); Interval: also "
                "repeat it after NakInterval (HPCC compat) (IBTA Vol. 1 ch. 9).",
                EnumValue(NAK_UNTIL_PROGRESS),
                MakeEnumAccessor(&RoceNic::m_nakMode),
                MakeEnumChecker(NAK_UNTIL_PROGRESS, "UntilProgress", NAK_INTERVAL, "Interval"))
            .AddAttribute("NakInterval",
                          "NAK repeat interval with NakSuppression=Interval (HPCC: 500 us).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&RoceNic::m_nakInterval),
                          MakeTimeChecker())
            .AddAttribute("RateControl",
                          "TypeId name of the rate controller (a subclass of "
                          "ns3::RoceRateControl) each requester QP gets; empty: none, "
                          "the QP sends at line rate.",
                          StringValue(""),
                          MakeStringAccessor(&RoceNic::m_rateControl),
                          MakeStringChecker())
            .AddAttribute("LineRate",
                          "Rate the NIC paces all its data at; 0 reads the DataRate attribute "
                          "of the node's first device (interface 1).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RoceNic::m_lineRate),
                          MakeDataRateChecker())
            .AddAttribute("WireOverhead",
                          "Link-layer bytes each packet takes on the wire beyond its IPv4 "
                          "datagram, for pacing: 2 for a PointToPointNetDevice (PPP header); "
                          "38 for Ethernet with FCS, preamble and IFG.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RoceNic::m_wireOverhead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DataDscp",
                          "DSCP of data packets (0..63).",
                          UintegerValue(26),
                          MakeUintegerAccessor(&RoceNic::m_dataDscp),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("ControlDscp",
                          "DSCP of ACKs, NAKs and CNPs (0..63; NVIDIA's CNP default is 48, "
                          "IBTA Vol. 1 ch. 9).",
                          UintegerValue(48),
                          MakeUintegerAccessor(&RoceNic::m_controlDscp),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("EcnCapable",
                          "Data packets carry ECT(0), so queues can mark them CE.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceNic::m_ecnCapable),
                          MakeBooleanChecker())
            .AddAttribute("InitialPsn",
                          "The first PSN of every requester QP (24 bits).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceNic::m_initialPsn),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostFastPath",
                          "Send and receive RoCE packets through a RoceHostPath (the NIC "
                          "builds the UDP and IPv4 headers and hands them to the traffic-control "
                          "layer; packets for port 4791 go from the device to the NIC) instead of "
                          "UdpL4Protocol and Ipv4L3Protocol. The frames are the same; "
                          "Ipv4L3Protocol's Tx, Rx, SendOutgoing and LocalDeliver traces do not "
                          "fire for them. Read in Start.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceNic::m_hostFastPath),
                          MakeBooleanChecker());
    return tid;
}

RoceNic::RoceNic() = default;

RoceNic::~RoceNic() = default;

void
RoceNic::NotifyConstructionCompleted()
{
    Object::NotifyConstructionCompleted();
}

void
RoceNic::Validate() const
{
    const char* nic = "ns3::RoceNic::";
    if (m_ibMtuOnly)
    {
        SUITE_REQUIRE(m_mtu >= 256 && m_mtu <= 4096 && (m_mtu & (m_mtu - 1)) == 0,
                      std::invalid_argument,
                      nic << "Mtu=" << m_mtu
                          << ": must be 256, 512, 1024, 2048 or 4096 (or set IbMtuOnly=false)");
    }
    else
    {
        SUITE_REQUIRE(m_mtu >= 256 && m_mtu <= MAX_PAYLOAD,
                      std::invalid_argument,
                      nic << "Mtu=" << m_mtu << ": must be 256 to " << MAX_PAYLOAD
                          << " with IbMtuOnly=false");
    }
    SUITE_REQUIRE(m_ackInterval > 0,
                  std::invalid_argument,
                  nic << "AckInterval=0: must be at least 1 packet");
    SUITE_REQUIRE(!m_cnpInterval.IsStrictlyNegative(),
                  std::invalid_argument,
                  nic << "CnpInterval=" << m_cnpInterval.As(Time::US) << ": must be >= 0");
    SUITE_REQUIRE(!m_ackTimeout.IsStrictlyNegative(),
                  std::invalid_argument,
                  nic << "AckTimeout=" << m_ackTimeout.As(Time::US)
                      << ": must be >= 0 (0 disables it)");
    SUITE_REQUIRE(m_nakMode != NAK_INTERVAL || m_nakInterval.IsStrictlyPositive(),
                  std::invalid_argument,
                  nic << "NakInterval=" << m_nakInterval.As(Time::US)
                      << ": must be > 0 with NakSuppression=Interval");
    SUITE_REQUIRE(m_dataDscp < 64 && m_controlDscp < 64,
                  std::invalid_argument,
                  nic << "DataDscp=" << unsigned{m_dataDscp}
                      << ", ControlDscp=" << unsigned{m_controlDscp} << ": a DSCP is 0..63");
    SUITE_REQUIRE(m_initialPsn <= RoceBth::MASK24,
                  std::invalid_argument,
                  nic << "InitialPsn=" << m_initialPsn << ": a PSN has 24 bits");
    if (!m_rateControl.empty())
    {
        TypeId tid;
        SUITE_REQUIRE(TypeId::LookupByNameFailSafe(m_rateControl, &tid) &&
                          tid.IsChildOf(RoceRateControl::GetTypeId()) && tid.HasConstructor(),
                      std::invalid_argument,
                      nic << "RateControl=" << m_rateControl
                          << ": not a constructible subclass of ns3::RoceRateControl");
    }
}

void
RoceNic::Start()
{
    if (m_started)
    {
        return;
    }
    Validate();
    m_node = GetObject<Node>();
    SUITE_REQUIRE(m_node, std::invalid_argument, "RoceNic: not aggregated to a node");
    Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
    m_udp = m_node->GetObject<UdpL4Protocol>();
    SUITE_REQUIRE(ipv4 && m_udp && ipv4->GetNInterfaces() > 1,
                  std::invalid_argument,
                  "RoceNic: node " << m_node->GetId()
                                   << " needs the Internet stack and an IPv4 interface");
    // The largest packet (WRITE FIRST: BTH + RETH + a full payload) must not be fragmented.
    const uint32_t largest = IP_UDP_BYTES + 12 + 16 + m_mtu;
    SUITE_REQUIRE(ipv4->GetMtu(1) >= largest,
                  std::invalid_argument,
                  "ns3::RoceNic::Mtu=" << m_mtu << " needs an IP MTU of at least " << largest
                                       << " bytes; node " << m_node->GetId()
                                       << "'s interface 1 has " << ipv4->GetMtu(1)
                                       << " (raise the device's Mtu)");
    if (m_lineRate.GetBitRate() == 0)
    {
        DataRateValue rate;
        Ptr<NetDevice> device = ipv4->GetNetDevice(1);
        SUITE_REQUIRE(device && device->GetAttributeFailSafe("DataRate", rate) &&
                          rate.Get().GetBitRate() > 0,
                      std::invalid_argument,
                      "ns3::RoceNic::LineRate=0: node "
                          << m_node->GetId() << "'s device has no DataRate to read; set it");
        m_lineRate = rate.Get();
    }
    if (!m_rateControl.empty())
    {
        m_rcFactory.SetTypeId(m_rateControl);
        // A controller refuses bad attributes in Start (with one line): try one now, outside
        // any simulator event, rather than in a QP's first Send.
        Ptr<RoceRateControl> probe = m_rcFactory.Create<RoceRateControl>();
        probe->Start(m_lineRate);
        probe->Stop();
    }
    // The endpoint a UDP socket bound to 0.0.0.0:4791 would hold, with our callback instead of
    // the socket's receive queue: a packet goes from UdpL4Protocol::Receive straight to
    // Receive, with its IPv4 header (the TOS, for CE marks) and no tag.
    m_endPoint = m_udp->Allocate(nullptr, ROCE_UDP_PORT);
    SUITE_REQUIRE(m_endPoint,
                  std::invalid_argument,
                  "RoceNic: node " << m_node->GetId() << ": UDP port 4791 is taken");
    m_endPoint->SetRxCallback(MakeCallback(&RoceNic::Receive, this));
    m_endPoint->SetDestroyCallback(MakeCallback(&RoceNic::EndPointDestroyed, this));
    if (m_hostFastPath && !LeanLinkIsIpv4ReceiveTaken(m_node))
    {
        // (A switch's forwarder may hold the node's IPv4 receive: a NIC there keeps the old
        // path.) The endpoint stays: it keeps the port taken, and receives what the fast path
        // leaves to the stack (none of it, unless a device was added after Start).
        m_hostPath = CreateObject<RoceHostPath>();
        m_hostPath->Install(m_node, ROCE_UDP_PORT, MakeCallback(&RoceNic::ReceiveRoce, this));
    }
    m_started = true;
    for (uint32_t i = 1; i < ipv4->GetNInterfaces(); ++i)
    {
        for (uint32_t j = 0; j < ipv4->GetNAddresses(i); ++j)
        {
            const uint32_t address = ipv4->GetAddress(i, j).GetLocal().Get();
            Registry()[address] = this;
            m_registered.push_back(address);
        }
    }
}

void
RoceNic::EndPointDestroyed()
{
    m_endPoint = nullptr;
}

void
RoceNic::DoDispose()
{
    m_txEvent.Cancel();
    for (uint32_t address : m_registered)
    {
        auto entry = Registry().find(address);
        if (entry != Registry().end() && entry->second == this)
        {
            Registry().erase(entry);
        }
    }
    m_registered.clear();
    m_hostPath = nullptr; // the node's handlers hold it until the node is disposed
    for (auto& qp : m_qps)
    {
        qp->Dispose();
    }
    m_qps.clear();
    m_requesters.clear();
    if (m_endPoint && m_udp)
    {
        m_endPoint->SetDestroyCallback(MakeNullCallback<void>());
        m_udp->DeAllocate(m_endPoint);
    }
    m_endPoint = nullptr;
    m_started = false;
    m_udp = nullptr;
    m_node = nullptr;
    m_accept.clear();
    Object::DoDispose();
}

uint16_t
RoceNic::SourcePort(uint32_t localQpn, uint32_t remoteQpn)
{
    // Linux rdma_calc_flow_label and rdma_flow_label_to_udp_sport (IBTA RoCEv2 annex A17).
    uint64_t v = uint64_t{localQpn} * remoteQpn;
    v ^= v >> 20;
    v ^= v >> 40;
    const uint32_t label = static_cast<uint32_t>(v & 0xFFFFF);
    const uint32_t low = (label & 0x3FFF) ^ ((label & 0xFC000) >> 14);
    return static_cast<uint16_t>(0xC000 | low);
}

Ptr<RoceQp>
RoceNic::NewQp()
{
    Ptr<RoceQp> qp = CreateObject<RoceQp>();
    qp->m_qpn = FIRST_QPN + static_cast<uint32_t>(m_qps.size());
    SUITE_REQUIRE(qp->m_qpn <= RoceBth::MASK24,
                  std::invalid_argument,
                  "RoceNic: node " << m_node->GetId() << " has 2^24 QPs already");
    m_qps.push_back(qp);
    return qp;
}

Ptr<RoceQp>
RoceNic::Connect(Ipv4Address peer)
{
    return Connect(peer, 0);
}

Ptr<RoceQp>
RoceNic::Connect(Ipv4Address peer, uint16_t service)
{
    SUITE_REQUIRE(m_started,
                  std::invalid_argument,
                  "RoceNic::Connect: the NIC is not started (RoceHelper::Install)");
    // The NICs registered their addresses when they started; a scan of the nodes covers
    // addresses assigned later.
    Ptr<RoceNic> peerNic;
    auto known = Registry().find(peer.Get());
    if (known != Registry().end() &&
        known->second->m_node->GetObject<Ipv4>()->GetInterfaceForAddress(peer) >= 0)
    {
        peerNic = known->second;
    }
    for (auto it = NodeList::Begin(); it != NodeList::End() && !peerNic; ++it)
    {
        Ptr<Ipv4> ipv4 = (*it)->GetObject<Ipv4>();
        if (ipv4 && ipv4->GetInterfaceForAddress(peer) >= 0)
        {
            peerNic = (*it)->GetObject<RoceNic>();
        }
    }
    SUITE_REQUIRE(peerNic && peerNic->m_started,
                  std::invalid_argument,
                  "RoceNic::Connect: no node with a started RoceNic owns " << peer);
    // The source address the node's routing picks towards the peer.
    Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
    Ipv4Header header;
    header.SetDestination(peer);
    header.SetProtocol(UdpL4Protocol::PROT_NUMBER);
    Socket::SocketErrno error = Socket::ERROR_NOTERROR;
    Ptr<Ipv4Route> route =
        ipv4->GetRoutingProtocol()
            ? ipv4->GetRoutingProtocol()->RouteOutput(nullptr, header, nullptr, error)
            : nullptr;
    SUITE_REQUIRE(route,
                  std::invalid_argument,
                  "RoceNic::Connect: node " << m_node->GetId() << " has no route to " << peer
                                            << " (populate the routing tables first)");
    const Ipv4Address local = route->GetSource();
    Ptr<RoceQp> requester = NewQp();
    Ptr<RoceQp> responder = peerNic->NewQp();
    // Internal PSN counters start one wrap up, so unwrapping never goes below zero.
    const uint64_t first = (uint64_t{1} << 24) + m_initialPsn;
    requester->Setup(this,
                     RoceQp::Role::REQUESTER,
                     requester->m_qpn,
                     responder->m_qpn,
                     local,
                     peer,
                     first);
    responder->Setup(PeekPointer(peerNic),
                     RoceQp::Role::RESPONDER,
                     responder->m_qpn,
                     requester->m_qpn,
                     peer,
                     local,
                     first);
    responder->m_service = service;
    m_requesters.push_back(PeekPointer(requester));
    NS_LOG_INFO("node " << m_node->GetId() << " QP " << requester->m_qpn << " -> " << peer << " QP "
                        << responder->m_qpn << " sport " << requester->m_sport);
    return requester;
}

void
RoceNic::SetAcceptCallback(AcceptCallback cb)
{
    SetAcceptCallback(0, cb);
}

void
RoceNic::SetAcceptCallback(uint16_t service, AcceptCallback cb)
{
    if (cb.IsNull())
    {
        m_accept.erase(service);
    }
    else
    {
        m_accept[service] = cb;
    }
}

uint32_t
RoceNic::GetMtu() const
{
    return m_mtu;
}

DataRate
RoceNic::GetLineRate() const
{
    return m_lineRate;
}

Ptr<RoceQp>
RoceNic::GetQp(uint32_t qpn) const
{
    if (qpn < FIRST_QPN || qpn - FIRST_QPN >= m_qps.size())
    {
        return nullptr;
    }
    return m_qps[qpn - FIRST_QPN];
}

uint32_t
RoceNic::GetNQps() const
{
    return static_cast<uint32_t>(m_qps.size());
}

uint64_t
RoceNic::GetUnknownPackets() const
{
    return m_unknown;
}

Ptr<RoceHostPath>
RoceNic::GetHostPath() const
{
    return m_hostPath;
}

void
RoceNic::NotifyReady()
{
    const Time now = Simulator::Now();
    const Time at = std::max(now, m_txFreeAt);
    if (m_txEvent.IsRunning())
    {
        if (Time(m_txEvent.GetTs()) <= at)
        {
            return;
        }
        m_txEvent.Cancel();
    }
    m_txEvent = Simulator::Schedule(at - now, &RoceNic::TransmitEvent, this);
}

void
RoceNic::TransmitEvent()
{
    // Control packets sent since this event was scheduled may have pushed m_txFreeAt past
    // now: the data packet still goes now (behind them in the device queue), and their line
    // time delays the one after, rather than costing an extra event per control packet.
    const Time now = Simulator::Now();
    const std::size_t n = m_requesters.size();
    Time earliest = Time::Max();
    for (std::size_t k = 0; k < n; ++k)
    {
        const std::size_t index = (m_next + k) % n;
        RoceQp* qp = m_requesters[index];
        if (!qp->HasDataToSend())
        {
            continue;
        }
        const Time allowed = qp->GetNextAllowed();
        if (allowed <= now)
        {
            const uint32_t wire = qp->TransmitNext();
            m_next = (index + 1) % n;
            m_txFreeAt = std::max(now, m_txFreeAt) + m_dataTxTime.Get(m_lineRate, wire);
            m_txEvent = Simulator::Schedule(m_txFreeAt - now, &RoceNic::TransmitEvent, this);
            return;
        }
        earliest = std::min(earliest, allowed);
    }
    if (earliest != Time::Max())
    {
        m_txEvent = Simulator::Schedule(earliest - now, &RoceNic::TransmitEvent, this);
    }
}

void
RoceNic::SendControl(const Ptr<Packet>& packet,
                     Ipv4Address local,
                     Ipv4Address peer,
                     uint16_t sport,
                     uint16_t* ipId)
{
    const uint32_t wire = packet->GetSize() + IP_UDP_BYTES + m_wireOverhead;
    m_txFreeAt = std::max(Simulator::Now(), m_txFreeAt) + m_controlTxTime.Get(m_lineRate, wire);
    SendPacket(packet, local, peer, sport, m_controlDscp << 2, ipId);
}

uint16_t*
RoceNic::IdentificationCounter(Ipv4Address local, Ipv4Address peer)
{
    return m_hostPath ? &m_hostPath->GetIdentificationCounter(local, peer) : nullptr;
}

void
RoceNic::SendPacket(const Ptr<Packet>& packet,
                    Ipv4Address local,
                    Ipv4Address peer,
                    uint16_t sport,
                    uint8_t tos,
                    uint16_t* ipId)
{
    if (m_hostPath)
    {
        // A QP made before the host path holds no counter: look it up.
        uint16_t& id = ipId ? *ipId : m_hostPath->GetIdentificationCounter(local, peer);
        m_hostPath->Send(packet, local, peer, sport, ROCE_UDP_PORT, tos, id);
        return;
    }
    SocketIpTosTag tag;
    tag.SetTos(tos);
    packet->AddPacketTag(tag);
    m_udp->Send(packet, local, peer, sport, ROCE_UDP_PORT);
}

void
RoceNic::Receive(Ptr<Packet> packet,
                 Ipv4Header header,
                 uint16_t sport,
                 Ptr<Ipv4Interface> incomingInterface)
{
    ReceiveRoce(packet, header, sport, incomingInterface);
}

void
RoceNic::ReceiveRoce(const Ptr<Packet>& packet,
                     const Ipv4Header& header,
                     uint16_t /* sport */,
                     const Ptr<Ipv4Interface>& /* incomingInterface */)
{
    const uint8_t tos = header.GetTos();
    RoceBth bth;
    if (packet->GetSize() < bth.GetSerializedSize())
    {
        ++m_unknown;
        return;
    }
    packet->RemoveHeader(bth);
    RoceQp* qp = bth.destQp >= FIRST_QPN && bth.destQp - FIRST_QPN < m_qps.size()
                     ? PeekPointer(m_qps[bth.destQp - FIRST_QPN])
                     : nullptr;
    const bool responder = qp && qp->m_role == RoceQp::Role::RESPONDER;
    switch (bth.opcode)
    {
    case RoceBth::RC_WRITE_FIRST:
    case RoceBth::RC_WRITE_MIDDLE:
    case RoceBth::RC_WRITE_LAST:
    case RoceBth::RC_WRITE_ONLY:
        if (responder)
        {
            if (!qp->m_accepted)
            {
                qp->m_accepted = true;
                auto accept = m_accept.find(qp->m_service); // once per QP
                if (accept != m_accept.end())
                {
                    accept->second(qp, qp->m_peer);
                }
            }
            qp->ReceiveData(packet, bth, tos);
            return;
        }
        break;
    case RoceBth::RC_ACKNOWLEDGE:
        if (qp && !responder)
        {
            qp->ReceiveAck(packet, bth);
            return;
        }
        break;
    case RoceBth::CNP:
        if (qp && !responder)
        {
            qp->ReceiveCnp();
            return;
        }
        break;
    default:
        break;
    }
    ++m_unknown;
}

} // namespace ns3
