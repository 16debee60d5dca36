/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lean-link-net-device.h"

#include "lean-link-channel.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/ppp-header.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/suite-check.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeanLinkNetDevice");

NS_OBJECT_ENSURE_REGISTERED(LeanLinkNetDevice);

namespace
{

/// PPP protocol number of an Ethernet protocol number (IPv4, IPv6), as PointToPointNetDevice.
uint16_t
EtherToPpp(uint16_t protocol)
{
    switch (protocol)
    {
    case 0x0800:
        return 0x0021;
    case 0x86DD:
        return 0x0057;
    default:
        NS_ASSERT_MSG(false, "PPP Protocol number not defined!");
    }
    return 0;
}

/// Ethernet protocol number of a PPP protocol number, as PointToPointNetDevice.
uint16_t
PppToEther(uint16_t protocol)
{
    switch (protocol)
    {
    case 0x0021:
        return 0x0800;
    case 0x0057:
        return 0x86DD;
    default:
        NS_ASSERT_MSG(false, "PPP Protocol number not defined!");
    }
    return 0;
}

/**
 * Fire a packet trace source only when a sink is connected: TracedCallback::operator() takes
 * its argument by value, so an unconnected source still costs a Ptr<const Packet> built and
 * destroyed per frame. With no sink the call does nothing else, so skipping it is exact.
 */
inline void
Fire(const TracedCallback<Ptr<const Packet>>& trace, const Ptr<Packet>& packet)
{
    if (!trace.IsEmpty())
    {
        trace(packet);
    }
}

constexpr uint32_t PPP_HEADER_BYTES = 2; //!< PppHeader's serialized size

} // namespace

TypeId
LeanLinkNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LeanLinkNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("LeanLink")
            .AddConstructor<LeanLinkNetDevice>()
            .AddAttribute(
                "Mtu",
                "The MAC-level Maximum Transmission Unit",
                UintegerValue(1500),
                MakeUintegerAccessor(&LeanLinkNetDevice::SetMtu, &LeanLinkNetDevice::GetMtu),
                MakeUintegerChecker<uint16_t>())
            .AddAttribute("Address",
                          "The MAC address of this device.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&LeanLinkNetDevice::SetMacAddress,
                                                   &LeanLinkNetDevice::GetMacAddress),
                          MakeMac48AddressChecker())
            .AddAttribute("DataRate",
                          "The line rate",
                          DataRateValue(DataRate("32768b/s")),
                          MakeDataRateAccessor(&LeanLinkNetDevice::m_bps),
                          MakeDataRateChecker())
            .AddAttribute("ReceiveErrorModel",
                          "The receiver error model used to simulate packet loss",
                          PointerValue(),
                          MakePointerAccessor(&LeanLinkNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddAttribute("InterframeGap",
                          "The time to wait between packet (frame) transmissions",
                          TimeValue(Seconds(0.0)),
                          MakeTimeAccessor(&LeanLinkNetDevice::m_tInterframeGap),
                          MakeTimeChecker())
            .AddAttribute("TxQueue",
                          "A queue to use as the transmit queue in the device.",
                          PointerValue(),
                          MakePointerAccessor(&LeanLinkNetDevice::m_queue),
                          MakePointerChecker<Queue<Packet>>())
            .AddAttribute("Egress",
                          "How frames wait for the wire. Queue: in TxQueue, as "
                          "PointToPointNetDevice. Clock: each frame gets its start time when it "
                          "arrives and only its arrival at the peer is scheduled (no queue, no "
                          "event at the sender; EgressMaxSize and Ecn* are the port's queue). "
                          "Set at construction.",
                          TypeId::ATTR_CONSTRUCT | TypeId::ATTR_GET,
                          EnumValue(QUEUE),
                          MakeEnumAccessor(&LeanLinkNetDevice::m_egress),
                          MakeEnumChecker(QUEUE, "Queue", CLOCK, "Clock"))
            .AddAttribute("EgressMaxSize",
                          "Egress=Clock: frames waiting for the wire (not yet started) beyond "
                          "this are dropped (MacTxDrop).",
                          QueueSizeValue(QueueSize("1MB")),
                          MakeQueueSizeAccessor(&LeanLinkNetDevice::SetEgressMaxSize,
                                                &LeanLinkNetDevice::GetEgressMaxSize),
                          MakeQueueSizeChecker())
            .AddAttribute("EcnEnabled",
                          "Egress=Clock: mark IPv4 frames CE on arrival by the curve below.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&LeanLinkNetDevice::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnKmin",
                          "Egress=Clock: queue length (EgressMaxSize's unit) at and below "
                          "which nothing is marked.",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&LeanLinkNetDevice::m_ecnKmin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnKmax",
                          "Egress=Clock: queue length above which every packet is marked "
                          "(Kmin = Kmax: DCTCP's step, mark above K; at least EcnKmin).",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&LeanLinkNetDevice::m_ecnKmax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnPmax",
                          "Egress=Clock: marking probability at EcnKmax, 0 to 1.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&LeanLinkNetDevice::m_ecnPmax),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("EcnRequiresEct",
                          "Egress=Clock: mark only ECT packets (false: any packet, as HPCC).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&LeanLinkNetDevice::m_ecnRequiresEct),
                          MakeBooleanChecker())
            .AddTraceSource("EcnMark",
                            "Egress=Clock: a packet marked CE (the IPv4 packet).",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_ecnMarkTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTx",
                            "A packet has arrived for transmission by this device",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A packet has been dropped by the device before transmission",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacPromiscRx",
                            "A packet has been received by this device and is being passed to "
                            "the promiscuous receive callback",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_macPromiscRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A packet has been received by this device and is being forwarded "
                            "up the local protocol stack",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A packet has begun transmitting over the channel",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "A packet has been completely transmitted over the channel (at the "
                            "end of the interframe gap, as PointToPointNetDevice). A connected "
                            "sink costs one event per frame.",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxDrop",
                            "A packet has been dropped by the device during transmission",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_phyTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A packet has been completely received by the device",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A packet has been dropped by the device during reception",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Non-promiscuous packet sniffer attached to the device",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Promiscuous packet sniffer attached to the device",
                            MakeTraceSourceAccessor(&LeanLinkNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

LeanLinkNetDevice::LeanLinkNetDevice()
    : m_ifIndex(0),
      m_linkUp(false),
      m_mtu(1500),
      m_egress(QUEUE),
      m_ecnEnabled(false),
      m_ecnKmin(0),
      m_ecnKmax(0),
      m_ecnPmax(1.0),
      m_ecnRequiresEct(true),
      m_rngStream(-1),
      m_ecnMarks(0)
{
    NS_LOG_FUNCTION(this);
}

LeanLinkNetDevice::~LeanLinkNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
LeanLinkNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_completion);
    m_node = nullptr;
    m_channel = nullptr;
    m_receiveErrorModel = nullptr;
    m_currentPkt = nullptr;
    m_queue = nullptr;
    m_rng = nullptr;
    m_clock.Clear();
    NetDevice::DoDispose();
}

void
LeanLinkNetDevice::SetDataRate(DataRate bps)
{
    m_bps = bps;
}

DataRate
LeanLinkNetDevice::GetDataRate() const
{
    return m_bps;
}

void
LeanLinkNetDevice::SetInterframeGap(Time t)
{
    m_tInterframeGap = t;
}

bool
LeanLinkNetDevice::Attach(Ptr<LeanLinkChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    SUITE_REQUIRE(m_ecnKmin <= m_ecnKmax,
                  std::invalid_argument,
                  "LeanLinkNetDevice: EcnKmin=" << m_ecnKmin << " exceeds EcnKmax=" << m_ecnKmax);
    m_channel = channel;
    m_channel->Attach(this);
    // Up once attached, as PointToPointNetDevice.
    m_linkUp = true;
    m_linkChangeCallbacks();
    return true;
}

void
LeanLinkNetDevice::SetQueue(Ptr<Queue<Packet>> queue)
{
    m_queue = queue;
}

Ptr<Queue<Packet>>
LeanLinkNetDevice::GetQueue() const
{
    return m_queue;
}

void
LeanLinkNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> em)
{
    m_receiveErrorModel = em;
}

Time
LeanLinkNetDevice::GetBusyUntil() const
{
    return m_busyUntil;
}

LeanLinkNetDevice::Egress
LeanLinkNetDevice::GetEgress() const
{
    return m_egress;
}

const LeanLinkEgressClock&
LeanLinkNetDevice::GetEgressClock() const
{
    return m_clock;
}

void
LeanLinkNetDevice::SetEgressMaxSize(QueueSize maxSize)
{
    m_clock.SetMaxSize(maxSize);
}

QueueSize
LeanLinkNetDevice::GetEgressMaxSize() const
{
    return m_clock.GetMaxSize();
}

uint64_t
LeanLinkNetDevice::GetEcnMarks() const
{
    return m_ecnMarks;
}

int64_t
LeanLinkNetDevice::AssignStreams(int64_t stream)
{
    // Kept for the first draw: a random variable costs a stream's set-up (a matrix power of
    // MRG32k3a), and the fabric's step curves (EcnKmin = EcnKmax) never draw.
    m_rngStream = stream;
    if (m_rng)
    {
        m_rng->SetStream(stream);
    }
    return 1;
}

bool
LeanLinkNetDevice::IsBusy() const
{
    return Simulator::Now() < m_busyUntil || m_completion.IsRunning();
}

void
LeanLinkNetDevice::ScheduleCompletion()
{
    if (!m_completion.IsRunning())
    {
        m_completion =
            Simulator::Schedule(m_busyUntil - Simulator::Now(), &LeanLinkNetDevice::Complete, this);
    }
}

bool
LeanLinkNetDevice::TransmitStart(const Ptr<Packet>& packet)
{
    NS_LOG_FUNCTION(this << packet);
    Fire(m_phyTxBeginTrace, packet);
    const Time txTime = m_txTime.Get(m_bps, packet->GetSize());
    m_busyUntil = Simulator::Now() + txTime + m_tInterframeGap;
    if (!m_phyTxEndTrace.IsEmpty())
    {
        // PhyTxEnd has a listener: an event at every frame's end, as PointToPointNetDevice.
        m_currentPkt = packet;
        ScheduleCompletion();
    }
    const bool result = m_channel->TransmitStart(packet, this, txTime);
    if (!result)
    {
        Fire(m_phyTxDropTrace, packet);
    }
    return result;
}

void
LeanLinkNetDevice::Complete()
{
    NS_LOG_FUNCTION(this);
    m_completion = EventId();
    if (m_currentPkt)
    {
        m_phyTxEndTrace(m_currentPkt);
        m_currentPkt = nullptr;
    }
    Ptr<Packet> packet = m_queue->Dequeue();
    if (!packet)
    {
        return;
    }
    Fire(m_snifferTrace, packet);
    Fire(m_promiscSnifferTrace, packet);
    TransmitStart(packet);
    if (!m_queue->IsEmpty())
    {
        ScheduleCompletion(); // frames still wait: start the next one when this one ends
    }
}

inline void
LeanLinkNetDevice::AddFraming(const Ptr<Packet>& packet, uint16_t protocolNumber)
{
    PppHeader ppp;
    ppp.SetProtocol(EtherToPpp(protocolNumber));
    packet->AddHeader(ppp);
    Fire(m_macTxTrace, packet);
}

bool
LeanLinkNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    if (!IsLinkUp())
    {
        Fire(m_macTxDropTrace, packet);
        return false;
    }
    if (m_egress == CLOCK)
    {
        return SendClocked(packet, protocolNumber);
    }
    AddFraming(packet, protocolNumber);
    // Through the queue even when idle, as PointToPointNetDevice: its traces and the
    // NetDeviceQueueInterface see every frame.
    if (!m_queue->Enqueue(packet))
    {
        Fire(m_macTxDropTrace, packet);
        return false;
    }
    if (!IsBusy())
    {
        packet = m_queue->Dequeue();
        Fire(m_snifferTrace, packet);
        Fire(m_promiscSnifferTrace, packet);
        return TransmitStart(packet);
    }
    ScheduleCompletion(); // it waits behind the frame on the wire
    return true;
}

bool
LeanLinkNetDevice::SendClocked(const Ptr<Packet>& packet, uint16_t protocolNumber)
{
    const Time now = Simulator::Now();
    m_clock.Release(now); // frames that have started are on the wire, not in the queue
    const bool fits = m_clock.Fits(packet->GetSize() + PPP_HEADER_BYTES);
    if (fits && m_ecnEnabled && protocolNumber == 0x0800)
    {
        const DcqcnEcnCurve curve{m_ecnKmin, m_ecnKmax, m_ecnPmax, m_ecnRequiresEct};
        if (!m_rng && m_ecnKmin < m_ecnKmax)
        {
            m_rng = CreateObject<UniformRandomVariable>();
            m_rng->SetStream(m_rngStream);
        }
        if (LeanLinkMaybeMarkCe(packet, m_clock.GetLength(), curve, PeekPointer(m_rng)))
        {
            ++m_ecnMarks;
            Fire(m_ecnMarkTrace, packet);
        }
    }
    AddFraming(packet, protocolNumber);
    if (!fits)
    {
        Fire(m_macTxDropTrace, packet);
        return false;
    }
    const uint32_t bytes = packet->GetSize();
    const Time txTime = m_txTime.Get(m_bps, bytes);
    const Time start = std::max(now, m_busyUntil);
    m_busyUntil = start + txTime + m_tInterframeGap;
    m_clock.Admit(start, bytes);
    if (IsStartTraced())
    {
        Simulator::Schedule(start - now, &LeanLinkNetDevice::StartClocked, this, packet, txTime);
        return true;
    }
    const bool result = m_channel->TransmitStart(packet, this, txTime, start - now);
    if (!result)
    {
        Fire(m_phyTxDropTrace, packet);
    }
    return result;
}

bool
LeanLinkNetDevice::IsStartTraced() const
{
    return !m_snifferTrace.IsEmpty() || !m_promiscSnifferTrace.IsEmpty() ||
           !m_phyTxBeginTrace.IsEmpty() || !m_phyTxEndTrace.IsEmpty() || m_channel->IsTraced();
}

void
LeanLinkNetDevice::StartClocked(const Ptr<Packet>& packet, Time txTime)
{
    Fire(m_snifferTrace, packet);
    Fire(m_promiscSnifferTrace, packet);
    Fire(m_phyTxBeginTrace, packet);
    if (!m_phyTxEndTrace.IsEmpty())
    {
        Simulator::Schedule(txTime + m_tInterframeGap,
                            &LeanLinkNetDevice::EndClocked,
                            this,
                            packet);
    }
    if (!m_channel->TransmitStart(packet, this, txTime, Time(0)))
    {
        Fire(m_phyTxDropTrace, packet);
    }
}

void
LeanLinkNetDevice::EndClocked(const Ptr<Packet>& packet)
{
    m_phyTxEndTrace(packet);
}

void
LeanLinkNetDevice::Receive(const Ptr<Packet>& packet)
{
    NS_LOG_FUNCTION(this << packet);
    // The channel did not copy the frame: copy it now if anyone else still holds it (the
    // receive event's is the only reference to an unshared frame).
    if (packet->GetReferenceCount() > 1)
    {
        Deliver(packet->Copy());
        return;
    }
    Deliver(packet);
}

void
LeanLinkNetDevice::Deliver(const Ptr<Packet>& packet)
{
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(packet))
    {
        Fire(m_phyRxDropTrace, packet);
        return;
    }
    Fire(m_snifferTrace, packet);
    Fire(m_promiscSnifferTrace, packet);
    Fire(m_phyRxEndTrace, packet);
    // MacRx / MacPromiscRx sinks get the whole frame: copy only when there is one.
    const bool promisc = !m_promiscCallback.IsNull();
    Ptr<Packet> original;
    if (!m_macRxTrace.IsEmpty() || (promisc && !m_macPromiscRxTrace.IsEmpty()))
    {
        original = packet->Copy();
    }
    PppHeader ppp;
    packet->RemoveHeader(ppp);
    const uint16_t protocol = PppToEther(ppp.GetProtocol());
    const Address& remote = GetRemote();
    if (promisc)
    {
        if (original)
        {
            m_macPromiscRxTrace(original);
        }
        m_promiscCallback(this, packet, protocol, remote, GetAddress(), NetDevice::PACKET_HOST);
    }
    if (original)
    {
        m_macRxTrace(original);
    }
    m_rxCallback(this, packet, protocol, remote);
}

const Address&
LeanLinkNetDevice::GetRemote() const
{
    // PointToPointNetDevice builds the peer's Address for every frame (about 100
    // instructions): the peer keeps its own built whenever its MAC address is set.
    const LeanLinkNetDevice* peer = m_channel->GetPeer(this);
    if (!peer)
    {
        static const Address none;
        return none;
    }
    return peer->m_addressAsAddress;
}

void
LeanLinkNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
LeanLinkNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
LeanLinkNetDevice::GetChannel() const
{
    return m_channel;
}

void
LeanLinkNetDevice::SetAddress(Address address)
{
    SetMacAddress(Mac48Address::ConvertFrom(address));
}

void
LeanLinkNetDevice::SetMacAddress(Mac48Address address)
{
    m_address = address;
    m_addressAsAddress = address; // every write of m_address comes here
}

Mac48Address
LeanLinkNetDevice::GetMacAddress() const
{
    return m_address;
}

Address
LeanLinkNetDevice::GetAddress() const
{
    // Node::NonPromiscReceiveFromDevice asks for it per frame: a copy, not a conversion.
    return m_addressAsAddress;
}

bool
LeanLinkNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
LeanLinkNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
LeanLinkNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

void
LeanLinkNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
LeanLinkNetDevice::IsBroadcast() const
{
    return true;
}

Address
LeanLinkNetDevice::GetBroadcast() const
{
    // Built once: parsing the string costs 2% of the all-reduce benchmark's instructions,
    // since the switch forwarder and the RDMA host path ask for it per packet.
    static const Address broadcast = Mac48Address::GetBroadcast();
    return broadcast;
}

bool
LeanLinkNetDevice::IsMulticast() const
{
    return true;
}

Address
LeanLinkNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    static const Address multicast = Mac48Address("01:00:5e:00:00:00");
    return multicast;
}

Address
LeanLinkNetDevice::GetMulticast(Ipv6Address addr) const
{
    static const Address multicast = Mac48Address("33:33:00:00:00:00");
    return multicast;
}

bool
LeanLinkNetDevice::IsPointToPoint() const
{
    return true;
}

bool
LeanLinkNetDevice::IsBridge() const
{
    return false;
}

bool
LeanLinkNetDevice::SendFrom(Ptr<Packet> packet,
                            const Address& source,
                            const Address& dest,
                            uint16_t protocolNumber)
{
    return false;
}

Ptr<Node>
LeanLinkNetDevice::GetNode() const
{
    return m_node;
}

void
LeanLinkNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
LeanLinkNetDevice::NeedsArp() const
{
    return false;
}

void
LeanLinkNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
LeanLinkNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
LeanLinkNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
