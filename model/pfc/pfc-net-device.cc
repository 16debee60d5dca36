/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-net-device.h"

#include "pfc-channel.h"
#include "pfc-header.h"
#include "pfc-switch-buffer.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/lean-link-ecn-mark.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/suite-check.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcNetDevice");

NS_OBJECT_ENSURE_REGISTERED(PfcNetDevice);

namespace
{
constexpr uint32_t ETHERNET_HEADER_BYTES = 14; //!< destination, source, EtherType
constexpr uint32_t MIN_FRAME_BYTES = 60;       //!< a minimum frame without its FCS

/// The PFC destination address 01-80-C2-00-00-01.
Mac48Address
PfcDestination()
{
    return Mac48Address("01:80:c2:00:00:01");
}
} // namespace

TypeId
PfcNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Pfc")
            .AddConstructor<PfcNetDevice>()
            .AddAttribute("Mtu",
                          "IP MTU in bytes.",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&PfcNetDevice::SetMtu, &PfcNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(68))
            .AddAttribute("Address",
                          "MAC address of the device.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&PfcNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute("DataRate",
                          "Line rate.",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&PfcNetDevice::m_bps),
                          MakeDataRateChecker())
            .AddAttribute(
                "FrameOverhead",
                "Wire bytes of a frame beyond its Ethernet header and payload: FCS "
                "4 + preamble and SFD 8 + inter-frame gap 12 = 24 (IBTA RoCEv2 annex A17).",
                UintegerValue(24),
                MakeUintegerAccessor(&PfcNetDevice::m_frameOverhead),
                MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("ControlPriority",
                          "Strict-priority class (ACK/NAK/CNP); it is never ECN-marked and "
                          "bypasses the switch buffer.",
                          UintegerValue(7),
                          MakeUintegerAccessor(&PfcNetDevice::m_controlPriority),
                          MakeUintegerChecker<uint32_t>(0, PRIORITIES - 1))
            .AddAttribute("DefaultPriority",
                          "Priority of a DSCP DscpMap does not name (RoCE data: 3).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&PfcNetDevice::m_defaultPriority),
                          MakeUintegerChecker<uint32_t>(0, PRIORITIES - 1))
            .AddAttribute("DscpMap",
                          "DSCP to priority, 'dscp:priority' pairs separated by commas; the "
                          "default sends DSCP 48 (RoCE ACK/NAK/CNP) to the control class.",
                          StringValue("48:7"),
                          MakeStringAccessor(&PfcNetDevice::SetDscpMap, &PfcNetDevice::GetDscpMap),
                          MakeStringChecker())
            .AddAttribute("QueueLimit",
                          "Without a switch buffer (a NIC): bytes the data priorities may hold "
                          "together; beyond it frames are dropped.",
                          UintegerValue(64u << 20),
                          MakeUintegerAccessor(&PfcNetDevice::m_queueLimit),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("PauseSemantics",
                          "Timed: a PFC time pauses for quanta x 512 bit times unless resumed. "
                          "XonXoff: until an XON (HPCC).",
                          EnumValue(TIMED),
                          MakeEnumAccessor(&PfcNetDevice::m_pauseSemantics),
                          MakeEnumChecker(TIMED, "Timed", XON_XOFF, "XonXoff"))
            .AddAttribute("EcnEnabled",
                          "Mark CE on the data priorities (DCQCN paper, section 3).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PfcNetDevice::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnKmin",
                          "Queue bytes at and below which nothing is marked (HPCC and SimAI "
                          "at 100 Gb/s: 400 KB, KB = 1000 B; 100 KB at 25 Gb/s, the HPCC "
                          "simulator's switch buffer).",
                          UintegerValue(400000),
                          MakeUintegerAccessor(&PfcNetDevice::m_ecnKmin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnKmax",
                          "Queue bytes above which every packet is marked (HPCC and SimAI at "
                          "100 Gb/s: 1600 KB).",
                          UintegerValue(1600000),
                          MakeUintegerAccessor(&PfcNetDevice::m_ecnKmax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnPmax",
                          "Marking probability at Kmax, 0 to 1 (HPCC: 0.2).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&PfcNetDevice::m_ecnPmax),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MarkPoint",
                          "Mark the arriving packet (Enqueue, DCQCN text) or the departing "
                          "one (Dequeue, HPCC).",
                          EnumValue(DEQUEUE),
                          MakeEnumAccessor(&PfcNetDevice::m_markPoint),
                          MakeEnumChecker(ENQUEUE, "Enqueue", DEQUEUE, "Dequeue"))
            .AddAttribute("EcnRequiresEct",
                          "Mark only ECT packets (false: any packet, HPCC-compatible).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfcNetDevice::m_ecnRequiresEct),
                          MakeBooleanChecker())
            .AddTraceSource("MacTx",
                            "A packet handed to the device for sending.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A packet dropped at this egress (switch admission, queue limit, "
                            "link down).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A packet received and handed up (Ethernet header removed).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame starts on the wire (data: the IPv4 packet; PFC: the frame).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "A frame has left.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxDrop",
                            "Never fired (the wire does not drop); kept for trackers.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A frame's last bit arrived.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Whole frames sent or received (pcap).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Whole frames sent or received (pcap).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcTx",
                            "A PFC frame queued for sending: priority, quanta (0: XON).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_pfcTxTrace),
                            "ns3::PfcNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcRx",
                            "A PFC frame received, per priority it names: priority, quanta.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_pfcRxTrace),
                            "ns3::PfcNetDevice::PfcTracedCallback")
            .AddTraceSource("EcnMark",
                            "A packet marked CE (the IPv4 packet).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_ecnMarkTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

PfcNetDevice::PfcNetDevice()
    : m_ifIndex(0),
      m_mtu(1500),
      m_linkUp(false),
      m_controlPriority(7),
      m_defaultPriority(3),
      m_rng(CreateObject<UniformRandomVariable>()),
      m_buffer(nullptr),
      m_port(PfcSwitchBuffer::NO_PORT),
      m_dataBytes(0),
      m_nextRoundRobin(0),
      m_txBusy(false),
      m_drops(0),
      m_ecnMarks(0)
{
    NS_LOG_FUNCTION(this);
    m_dscpToPriority.fill(PRIORITIES); // "unmapped": DefaultPriority at lookup
    m_queueBytes.fill(0);
    m_paused.fill(false);
    m_pausedTime.fill(Time(0));
    m_pauseStart.fill(Time(0));
    m_pausesSent.fill(0);
    m_resumesSent.fill(0);
    m_pausesRx.fill(0);
}

void
PfcNetDevice::DoDispose()
{
    for (EventId& e : m_resumeEvent)
    {
        e.Cancel();
    }
    for (auto& q : m_queues)
    {
        q.clear();
    }
    m_pfcFrames.clear();
    m_txPacket = nullptr;
    m_node = nullptr;
    m_channel = nullptr;
    m_buffer = nullptr;
    m_rxCallback =
        MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    m_promiscCallback = MakeNullCallback<bool,
                                         Ptr<NetDevice>,
                                         Ptr<const Packet>,
                                         uint16_t,
                                         const Address&,
                                         const Address&,
                                         PacketType>();
    NetDevice::DoDispose();
}

void
PfcNetDevice::SetDscpMap(std::string text)
{
    std::array<uint8_t, 64> map;
    map.fill(PRIORITIES);
    std::istringstream in(text);
    std::string pair;
    while (std::getline(in, pair, ','))
    {
        if (pair.empty())
        {
            continue;
        }
        unsigned dscp = 0;
        unsigned priority = 0;
        char colon = 0;
        std::istringstream one(pair);
        const bool ok = (one >> dscp >> colon >> priority) && colon == ':' && one.peek() == EOF;
        SUITE_REQUIRE(ok && dscp < 64 && priority < PRIORITIES,
                      std::invalid_argument,
                      "PfcNetDevice: DscpMap entry '"
                          << pair << "' is not 'dscp:priority' with dscp 0-63 and priority 0-7");
        map[dscp] = static_cast<uint8_t>(priority);
    }
    m_dscpToPriority = map;
    m_dscpMapText = text;
}

std::string
PfcNetDevice::GetDscpMap() const
{
    return m_dscpMapText;
}

void
PfcNetDevice::Validate() const
{
    SUITE_REQUIRE(m_ecnKmin <= m_ecnKmax,
                  std::invalid_argument,
                  "PfcNetDevice: EcnKmin=" << m_ecnKmin << " exceeds EcnKmax=" << m_ecnKmax);
    SUITE_REQUIRE(m_ecnPmax >= 0.0 && m_ecnPmax <= 1.0,
                  std::invalid_argument,
                  "PfcNetDevice: EcnPmax=" << m_ecnPmax << " is outside [0, 1]");
    SUITE_REQUIRE(m_bps.GetBitRate() > 0,
                  std::invalid_argument,
                  "PfcNetDevice: DataRate must be positive");
    SUITE_REQUIRE(m_defaultPriority != m_controlPriority,
                  std::invalid_argument,
                  "PfcNetDevice: DefaultPriority=" << m_defaultPriority
                                                   << " is the ControlPriority");
}

int64_t
PfcNetDevice::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

bool
PfcNetDevice::Attach(Ptr<PfcChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channel = channel;
    m_channel->Attach(this);
    m_linkUp = true;
    m_linkChangeCallbacks();
    return true;
}

void
PfcNetDevice::SetSwitchBuffer(PfcSwitchBuffer* buffer, uint32_t port)
{
    m_buffer = buffer;
    m_port = port;
}

DataRate
PfcNetDevice::GetDataRate() const
{
    return m_bps;
}

Time
PfcNetDevice::GetChannelDelay() const
{
    return m_channel ? m_channel->GetDelay() : Time(0);
}

uint8_t
PfcNetDevice::GetPriority(Ptr<const Packet> packet) const
{
    uint8_t ip[2];
    if (packet->CopyData(ip, 2) < 2 || (ip[0] >> 4) != 4)
    {
        return static_cast<uint8_t>(m_defaultPriority);
    }
    const uint8_t mapped = m_dscpToPriority[ip[1] >> 2];
    return mapped < PRIORITIES ? mapped : static_cast<uint8_t>(m_defaultPriority);
}

bool
PfcNetDevice::Send(Ptr<Packet> packet, const Address&, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << protocolNumber);
    m_macTxTrace(packet);
    const uint8_t priority = protocolNumber == ETHERTYPE_IPV4
                                 ? GetPriority(packet)
                                 : static_cast<uint8_t>(m_defaultPriority);
    const uint32_t bytes = packet->GetSize() + ETHERNET_HEADER_BYTES;
    const bool control = priority == m_controlPriority;
    uint32_t ingress = PfcSwitchBuffer::NO_PORT;
    bool admitted = m_linkUp;
    if (admitted && !control)
    {
        ingress = m_buffer ? m_buffer->GetCurrentIngress() : PfcSwitchBuffer::NO_PORT;
        admitted = ingress != PfcSwitchBuffer::NO_PORT
                       ? m_buffer->Admit(packet, ingress, priority, bytes)
                       : m_dataBytes + bytes <= m_queueLimit;
    }
    if (!admitted)
    {
        ++m_drops;
        m_macTxDropTrace(packet);
        return false;
    }
    if (!control)
    {
        if (m_ecnEnabled && m_markPoint == ENQUEUE && protocolNumber == ETHERTYPE_IPV4)
        {
            MaybeMark(packet, m_queueBytes[priority]);
        }
        m_dataBytes += bytes;
    }
    m_queues[priority].push_back(Item{packet, protocolNumber, ingress, bytes});
    m_queueBytes[priority] += bytes;
    if (!m_txBusy)
    {
        TransmitNext();
    }
    return true;
}

bool
PfcNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address&,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

void
PfcNetDevice::SendPfc(uint8_t priority, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +priority << quanta);
    PfcHeader pfc;
    pfc.SetPause(priority, quanta);
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(pfc);
    EthernetHeader ethernet(false);
    ethernet.SetSource(m_address);
    ethernet.SetDestination(PfcDestination());
    ethernet.SetLengthType(PfcHeader::ETHER_TYPE);
    frame->AddHeader(ethernet);
    (quanta > 0 ? m_pausesSent : m_resumesSent)[priority]++;
    m_pfcTxTrace(priority, quanta);
    m_pfcFrames.push_back(frame);
    if (!m_txBusy)
    {
        TransmitNext();
    }
}

void
PfcNetDevice::TransmitNext()
{
    if (m_txBusy || !m_linkUp)
    {
        return;
    }
    if (!m_pfcFrames.empty())
    {
        Ptr<Packet> frame = m_pfcFrames.front();
        m_pfcFrames.pop_front();
        m_txBusy = true;
        m_phyTxBeginTrace(frame);
        TransmitFrame(frame);
        return;
    }
    uint32_t priority = PRIORITIES;
    if (!m_queues[m_controlPriority].empty() && !m_paused[m_controlPriority])
    {
        priority = m_controlPriority;
    }
    else
    {
        for (uint32_t i = 0; i < PRIORITIES; ++i)
        {
            const uint32_t p = (m_nextRoundRobin + i) % PRIORITIES;
            if (p != m_controlPriority && !m_queues[p].empty() && !m_paused[p])
            {
                priority = p;
                m_nextRoundRobin = (p + 1) % PRIORITIES;
                break;
            }
        }
    }
    if (priority == PRIORITIES)
    {
        return; // nothing to send, or everything paused
    }
    m_txBusy = true; // before Release, which may send a PFC frame on this very port
    Item item = std::move(m_queues[priority].front());
    m_queues[priority].pop_front();
    m_queueBytes[priority] -= item.bytes;
    if (priority != m_controlPriority)
    {
        m_dataBytes -= item.bytes;
        if (item.ingress != PfcSwitchBuffer::NO_PORT)
        {
            m_buffer->Release(item.ingress, static_cast<uint8_t>(priority), item.bytes);
        }
        if (m_ecnEnabled && m_markPoint == DEQUEUE && item.protocol == ETHERTYPE_IPV4)
        {
            MaybeMark(item.packet, m_queueBytes[priority]);
        }
    }
    m_phyTxBeginTrace(item.packet);
    m_txPacket = item.packet;
    EthernetHeader ethernet(false);
    ethernet.SetSource(m_address);
    ethernet.SetDestination(GetRemote());
    ethernet.SetLengthType(item.protocol);
    item.packet->AddHeader(ethernet);
    TransmitFrame(item.packet);
}

void
PfcNetDevice::TransmitFrame(Ptr<Packet> frame)
{
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    const uint32_t wire = std::max(frame->GetSize(), MIN_FRAME_BYTES) + m_frameOverhead;
    const Time txTime = m_bps.CalculateBytesTxTime(wire);
    if (!m_txPacket)
    {
        m_txPacket = frame;
    }
    m_channel->TransmitStart(frame, this, txTime);
    Simulator::Schedule(txTime, &PfcNetDevice::TransmitComplete, this);
}

void
PfcNetDevice::TransmitComplete()
{
    m_txBusy = false;
    m_phyTxEndTrace(m_txPacket);
    m_txPacket = nullptr;
    TransmitNext();
}

void
PfcNetDevice::MaybeMark(Ptr<Packet> packet, uint64_t queueBytes)
{
    const DcqcnEcnCurve curve{m_ecnKmin, m_ecnKmax, m_ecnPmax, m_ecnRequiresEct};
    if (LeanLinkMaybeMarkCe(packet, queueBytes, curve, PeekPointer(m_rng)))
    {
        ++m_ecnMarks;
        m_ecnMarkTrace(packet);
    }
}

void
PfcNetDevice::Receive(Ptr<Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
    m_snifferTrace(packet);
    m_promiscSnifferTrace(packet);
    m_phyRxEndTrace(packet);
    EthernetHeader ethernet(false);
    packet->RemoveHeader(ethernet);
    const uint16_t protocol = ethernet.GetLengthType();
    if (protocol == PfcHeader::ETHER_TYPE)
    {
        ReceivePfc(packet);
        return;
    }
    m_macRxTrace(packet);
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this,
                          packet,
                          protocol,
                          ethernet.GetSource(),
                          ethernet.GetDestination(),
                          NetDevice::PACKET_HOST);
    }
    if (m_buffer)
    {
        m_buffer->SetCurrentIngress(m_port);
        m_rxCallback(this, packet, protocol, ethernet.GetSource());
        m_buffer->SetCurrentIngress(PfcSwitchBuffer::NO_PORT);
    }
    else
    {
        m_rxCallback(this, packet, protocol, ethernet.GetSource());
    }
}

void
PfcNetDevice::ReceivePfc(Ptr<Packet> frame)
{
    PfcHeader pfc;
    frame->RemoveHeader(pfc);
    if (pfc.GetOpcode() != PfcHeader::OPCODE)
    {
        return; // 802.3x PAUSE and other MAC control opcodes are not modelled
    }
    for (uint8_t p = 0; p < PRIORITIES; ++p)
    {
        if (!(pfc.GetClassEnable() & (1u << p)))
        {
            continue;
        }
        const uint16_t quanta = pfc.GetQuanta(p);
        m_pfcRxTrace(p, quanta);
        m_resumeEvent[p].Cancel();
        if (quanta == 0)
        {
            Resume(p);
            continue;
        }
        ++m_pausesRx[p];
        if (!m_paused[p])
        {
            m_paused[p] = true;
            m_pauseStart[p] = Simulator::Now();
        }
        if (m_pauseSemantics == TIMED)
        {
            const Time pause =
                m_bps.CalculateBytesTxTime(uint64_t{quanta} * PfcHeader::BITS_PER_QUANTUM / 8);
            m_resumeEvent[p] = Simulator::Schedule(pause, &PfcNetDevice::Resume, this, p);
        }
    }
}

void
PfcNetDevice::Resume(uint8_t priority)
{
    if (!m_paused[priority])
    {
        return;
    }
    m_paused[priority] = false;
    m_pausedTime[priority] += Simulator::Now() - m_pauseStart[priority];
    if (!m_txBusy)
    {
        TransmitNext();
    }
}

Mac48Address
PfcNetDevice::GetRemote() const
{
    if (m_channel && m_channel->GetNDevices() == 2)
    {
        for (std::size_t i = 0; i < 2; ++i)
        {
            Ptr<NetDevice> d = m_channel->GetDevice(i);
            if (d != this)
            {
                return Mac48Address::ConvertFrom(d->GetAddress());
            }
        }
    }
    return Mac48Address::GetBroadcast();
}

uint64_t
PfcNetDevice::GetQueueBytes(uint8_t priority) const
{
    return m_queueBytes.at(priority);
}

bool
PfcNetDevice::IsPaused(uint8_t priority) const
{
    return m_paused.at(priority);
}

uint64_t
PfcNetDevice::GetPausesSent(uint8_t priority) const
{
    return m_pausesSent.at(priority);
}

uint64_t
PfcNetDevice::GetResumesSent(uint8_t priority) const
{
    return m_resumesSent.at(priority);
}

uint64_t
PfcNetDevice::GetPausesReceived(uint8_t priority) const
{
    return m_pausesRx.at(priority);
}

Time
PfcNetDevice::GetPausedTime(uint8_t priority) const
{
    Time t = m_pausedTime.at(priority);
    return m_paused[priority] ? t + (Simulator::Now() - m_pauseStart[priority]) : t;
}

uint64_t
PfcNetDevice::GetDrops() const
{
    return m_drops;
}

uint64_t
PfcNetDevice::GetEcnMarks() const
{
    return m_ecnMarks;
}

void
PfcNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
PfcNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
PfcNetDevice::GetChannel() const
{
    return m_channel;
}

void
PfcNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
PfcNetDevice::GetAddress() const
{
    return m_address;
}

bool
PfcNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
PfcNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
PfcNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

void
PfcNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
PfcNetDevice::IsBroadcast() const
{
    return true;
}

Address
PfcNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
PfcNetDevice::IsMulticast() const
{
    return true;
}

Address
PfcNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
PfcNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
PfcNetDevice::IsPointToPoint() const
{
    return true;
}

bool
PfcNetDevice::IsBridge() const
{
    return false;
}

Ptr<Node>
PfcNetDevice::GetNode() const
{
    return m_node;
}

void
PfcNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
PfcNetDevice::NeedsArp() const
{
    return false;
}

void
PfcNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
PfcNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
PfcNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
