/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-qp.h"

#include "roce-nic.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceQp");
NS_OBJECT_ENSURE_REGISTERED(RoceQp);

namespace
{
/// IPv4 + UDP header bytes.
constexpr uint32_t IP_UDP_BYTES = 20 + 8;
/// Largest message: the RETH DMA length has 32 bits; larger posts are split.
constexpr uint64_t MAX_MESSAGE = uint64_t{1} << 31;
/// ECN codepoints in the IP TOS byte.
constexpr uint8_t ECN_MASK = 0x3;
constexpr uint8_t ECN_ECT0 = 0x2;
constexpr uint8_t ECN_CE = 0x3;
} // namespace

TypeId
RoceQp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceQp")
            .SetParent<Object>()
            .SetGroupName("Roce")
            .AddConstructor<RoceQp>()
            .AddTraceSource("DataTx",
                            "A requester put a data packet on the wire: PSN, payload bytes, "
                            "retransmission or not.",
                            MakeTraceSourceAccessor(&RoceQp::m_dataTxTrace),
                            "ns3::RoceQp::DataTxTracedCallback")
            .AddTraceSource("RetransmittedBytes",
                            "A requester sent a packet again (go-back-N): its payload bytes.",
                            MakeTraceSourceAccessor(&RoceQp::m_retxTrace),
                            "ns3::RoceQp::BytesTracedCallback")
            .AddTraceSource("Nak",
                            "A responder sent, or a requester received, a NAK (PSN sequence "
                            "error): the expected PSN it carries.",
                            MakeTraceSourceAccessor(&RoceQp::m_nakTrace),
                            "ns3::RoceQp::PsnTracedCallback")
            .AddTraceSource("CnpSent",
                            "A responder (notification point) sent a CNP.",
                            MakeTraceSourceAccessor(&RoceQp::m_cnpSentTrace),
                            "ns3::RoceQp::CnpTracedCallback")
            .AddTraceSource("CnpReceived",
                            "A requester received a CNP.",
                            MakeTraceSourceAccessor(&RoceQp::m_cnpRxTrace),
                            "ns3::RoceQp::CnpTracedCallback")
            .AddTraceSource("MessageComplete",
                            "A requester's message was fully acknowledged: its bytes.",
                            MakeTraceSourceAccessor(&RoceQp::m_messageTrace),
                            "ns3::RoceQp::MessageTracedCallback")
            .AddTraceSource("Timeout",
                            "A requester's retransmission timer expired: snd_una's PSN.",
                            MakeTraceSourceAccessor(&RoceQp::m_timeoutTrace),
                            "ns3::RoceQp::PsnTracedCallback");
    return tid;
}

RoceQp::RoceQp() = default;

RoceQp::~RoceQp() = default;

void
RoceQp::DoDispose()
{
    m_timer.Cancel();
    m_timerArmed = false;
    StopRateControl();
    m_rc = nullptr;
    m_nic = nullptr;
    m_msgs.clear();
    m_dataCallback = DataCallback();
    m_sendComplete = SendCompleteCallback();
    Object::DoDispose();
}

void
RoceQp::Setup(RoceNic* nic,
              Role role,
              uint32_t qpn,
              uint32_t remoteQpn,
              Ipv4Address local,
              Ipv4Address peer,
              uint64_t initialPsn)
{
    m_nic = nic;
    m_role = role;
    m_qpn = qpn;
    m_remoteQpn = remoteQpn;
    m_local = local;
    m_peer = peer;
    m_sport = RoceNic::SourcePort(qpn, remoteQpn);
    // Looked up once: Connect runs after the NIC's Start, which makes its host path.
    m_ipId = nic->IdentificationCounter(local, peer);
    m_mtu = nic->m_mtu;
    m_sndUna = m_sndNxt = m_sndMax = m_postedPsn = initialPsn;
    m_ePsn = initialPsn;
    if (role == Role::REQUESTER && !nic->m_rateControl.empty())
    {
        m_rc = nic->m_rcFactory.Create<RoceRateControl>();
    }
}

uint64_t
RoceQp::Unwrap(uint32_t wire, uint64_t reference)
{
    constexpr int64_t half = int64_t{1} << 23;
    constexpr int64_t full = int64_t{1} << 24;
    int64_t delta =
        static_cast<int64_t>((wire - static_cast<uint32_t>(reference)) & RoceBth::MASK24);
    if (delta >= half)
    {
        delta -= full;
    }
    return reference + delta;
}

void
RoceQp::Send(uint64_t bytes)
{
    NS_ABORT_MSG_IF(m_role != Role::REQUESTER || !m_nic,
                    "RoceQp::Send: QP " << m_qpn << " is not a live requester");
    while (bytes > 0)
    {
        const uint64_t chunk = std::min(bytes, MAX_MESSAGE);
        const uint64_t packets = (chunk + m_mtu - 1) / m_mtu;
        m_msgs.push_back(Message{m_postedPsn, m_bytesPosted, chunk, packets});
        m_postedPsn += packets;
        m_bytesPosted += chunk;
        bytes -= chunk;
    }
    if (m_error || m_sndUna == m_postedPsn)
    {
        return;
    }
    if (m_rc && !m_rcRunning)
    {
        m_rcRunning = true;
        m_rc->Start(m_nic->m_lineRate);
    }
    m_nic->NotifyReady();
}

void
RoceQp::SetDataCallback(DataCallback cb)
{
    m_dataCallback = cb;
}

void
RoceQp::SetSendCompleteCallback(SendCompleteCallback cb)
{
    m_sendComplete = cb;
}

bool
RoceQp::HasDataToSend() const
{
    return !m_error && m_sndNxt < m_postedPsn;
}

Time
RoceQp::GetNextAllowed() const
{
    return m_nextAllowed;
}

void
RoceQp::SeekTxMessage()
{
    m_txMsg = 0;
    while (m_txMsg < m_msgs.size() &&
           m_sndNxt >= m_msgs[m_txMsg].startPsn + m_msgs[m_txMsg].packets)
    {
        ++m_txMsg;
    }
}

uint32_t
RoceQp::TransmitNext()
{
    while (m_sndNxt >= m_msgs[m_txMsg].startPsn + m_msgs[m_txMsg].packets)
    {
        ++m_txMsg;
    }
    const Message& message = m_msgs[m_txMsg];
    const uint64_t index = m_sndNxt - message.startPsn;
    const auto payload =
        static_cast<uint32_t>(std::min<uint64_t>(m_mtu, message.bytes - index * m_mtu));
    const bool first = index == 0;
    const bool last = index + 1 == message.packets;

    RoceBth bth;
    bth.opcode = first ? (last ? RoceBth::RC_WRITE_ONLY : RoceBth::RC_WRITE_FIRST)
                       : (last ? RoceBth::RC_WRITE_LAST : RoceBth::RC_WRITE_MIDDLE);
    bth.padCnt = (4 - payload % 4) % 4;
    bth.destQp = m_remoteQpn;
    bth.ackReq = last;
    bth.psn = static_cast<uint32_t>(m_sndNxt & RoceBth::MASK24);

    Ptr<Packet> packet = Create<Packet>(payload + bth.padCnt);
    if (first)
    {
        RoceReth reth;
        reth.virtualAddress = message.startByte;
        reth.dmaLength = static_cast<uint32_t>(message.bytes);
        packet->AddHeader(reth);
    }
    packet->AddHeader(bth);
    const uint32_t wire = packet->GetSize() + IP_UDP_BYTES + m_nic->m_wireOverhead;

    const bool retransmission = m_sndNxt < m_sndMax;
    m_dataTxTrace(bth.psn, payload, retransmission);
    if (retransmission)
    {
        m_retxBytes += payload;
        m_retxTrace(payload);
    }
    const uint8_t tos = (m_nic->m_dataDscp << 2) | (m_nic->m_ecnCapable ? ECN_ECT0 : 0);
    m_nic->SendPacket(packet, m_local, m_peer, m_sport, tos, m_ipId);
    ++m_sndNxt;
    m_sndMax = std::max(m_sndMax, m_sndNxt);

    DataRate rate = m_nic->m_lineRate;
    if (m_rc)
    {
        m_rc->NotifyBytesSent(payload);
        rate = std::min(rate, m_rc->GetRate());
    }
    m_nextAllowed = Simulator::Now() + m_pacingTxTime.Get(rate, wire);
    if (!m_timerArmed)
    {
        ArmTimer();
    }
    return wire;
}

void
RoceQp::ArmTimer()
{
    if (!m_nic || !m_nic->m_ackTimeout.IsStrictlyPositive())
    {
        return;
    }
    // Lazy timer: re-arming (every ACK that makes progress) only moves the deadline. The
    // pending event, if any, is not later than the new deadline (deadlines only move
    // forward while AckTimeout stays); when it fires early, OnTimeout schedules it again for
    // the deadline. So each QP has at most one timer event in the simulator instead of one
    // (cancelled, but kept by the scheduler until its time) per ACK.
    m_timerArmed = true;
    m_timerDeadline = Simulator::Now() + m_nic->m_ackTimeout;
    if (m_timer.IsRunning() && Time(m_timer.GetTs()) > m_timerDeadline)
    {
        m_timer.Cancel(); // AckTimeout was shortened meanwhile
    }
    if (!m_timer.IsRunning())
    {
        m_timer = Simulator::Schedule(m_nic->m_ackTimeout, &RoceQp::OnTimeout, this);
    }
}

void
RoceQp::DisarmTimer()
{
    m_timerArmed = false; // a pending event finds it disarmed and does nothing
}

void
RoceQp::OnTimeout()
{
    if (!m_timerArmed)
    {
        return;
    }
    const Time now = Simulator::Now();
    if (now < m_timerDeadline)
    {
        m_timer = Simulator::Schedule(m_timerDeadline - now, &RoceQp::OnTimeout, this);
        return;
    }
    m_timerArmed = false;
    if (m_sndUna >= m_sndMax || m_error)
    {
        return;
    }
    ++m_timeouts;
    m_timeoutTrace(static_cast<uint32_t>(m_sndUna & RoceBth::MASK24));
    if (++m_retries > m_nic->m_retryCount)
    {
        NS_LOG_WARN("QP " << m_qpn << " to " << m_peer << ": retry count exceeded, error state");
        m_error = true;
        StopRateControl();
        return;
    }
    NS_LOG_INFO("QP " << m_qpn << " timeout, back to PSN " << (m_sndUna & RoceBth::MASK24));
    m_sndNxt = m_sndUna;
    SeekTxMessage();
    m_nic->NotifyReady();
}

uint64_t
RoceQp::BytesBefore(uint64_t psn) const
{
    for (const Message& message : m_msgs)
    {
        if (psn <= message.startPsn)
        {
            return message.startByte;
        }
        if (psn < message.startPsn + message.packets)
        {
            return message.startByte + (psn - message.startPsn) * m_mtu;
        }
    }
    return m_bytesPosted;
}

void
RoceQp::Advance(uint64_t una)
{
    const uint64_t acked = BytesBefore(una) - BytesBefore(m_sndUna);
    m_sndUna = una;
    m_bytesAcked += acked;
    m_retries = 0;
    std::size_t popped = 0;
    while (!m_msgs.empty() && m_msgs.front().startPsn + m_msgs.front().packets <= una)
    {
        const uint64_t bytes = m_msgs.front().bytes;
        m_msgs.pop_front();
        ++popped;
        m_messageTrace(bytes);
    }
    if (m_sndNxt < m_sndUna || m_txMsg < popped)
    {
        m_sndNxt = std::max(m_sndNxt, m_sndUna);
        SeekTxMessage();
    }
    else
    {
        m_txMsg -= popped; // the cursor's message is still there
    }
    DisarmTimer();
    if (m_sndUna < m_sndMax)
    {
        ArmTimer();
    }
    if (m_sndUna == m_postedPsn)
    {
        StopRateControl();
    }
    if (!m_sendComplete.IsNull())
    {
        m_sendComplete(this, acked);
    }
}

void
RoceQp::ReceiveAck(Ptr<Packet> packet, const RoceBth& bth)
{
    RoceAeth aeth;
    if (packet->GetSize() < aeth.GetSerializedSize() || m_error)
    {
        return;
    }
    packet->RemoveHeader(aeth);
    const uint64_t psn = Unwrap(bth.psn, m_sndUna);
    if (aeth.IsNak())
    {
        if (aeth.syndrome != RoceAeth::SYNDROME_NAK_SEQ || psn < m_sndUna || psn > m_sndMax)
        {
            return;
        }
        ++m_naks;
        m_nakTrace(bth.psn);
        if (psn > m_sndUna)
        {
            Advance(psn);
        }
        if (m_nic && m_sndNxt != psn) // Advance may have called the application back
        {
            m_sndNxt = psn;
            SeekTxMessage();
            m_nic->NotifyReady();
        }
        return;
    }
    const uint64_t una = psn + 1;
    if (una > m_sndUna && una <= m_sndMax)
    {
        Advance(una);
    }
}

void
RoceQp::ReceiveCnp()
{
    ++m_cnps;
    m_cnpRxTrace();
    if (m_rc && m_rcRunning)
    {
        m_rc->NotifyCnp();
    }
}

void
RoceQp::ReceiveData(Ptr<Packet> packet, const RoceBth& bth, uint8_t tos)
{
    const Time now = Simulator::Now();
    if ((tos & ECN_MASK) == ECN_CE && (!m_cnpSentOnce || now - m_lastCnp >= m_nic->m_cnpInterval))
    {
        SendCnp();
    }
    const uint64_t psn = Unwrap(bth.psn, m_ePsn);
    if (psn == m_ePsn)
    {
        if (bth.HasReth())
        {
            RoceReth reth;
            packet->RemoveHeader(reth);
        }
        const uint32_t payload = packet->GetSize() - bth.padCnt;
        ++m_ePsn;
        m_nakSent = false;
        m_delivered += payload;
        if (bth.opcode == RoceBth::RC_WRITE_LAST || bth.opcode == RoceBth::RC_WRITE_ONLY)
        {
            ++m_msn;
        }
        if (bth.ackReq || ++m_sinceAck >= m_nic->m_ackInterval)
        {
            m_sinceAck = 0;
            SendAck(RoceAeth::SYNDROME_ACK, m_ePsn - 1);
        }
        if (!m_dataCallback.IsNull())
        {
            m_dataCallback(this, payload);
        }
    }
    else if (psn > m_ePsn)
    {
        if (!m_nakSent ||
            (m_nic->m_nakMode == RoceNic::NAK_INTERVAL && now - m_lastNak >= m_nic->m_nakInterval))
        {
            m_nakSent = true;
            m_lastNak = now;
            ++m_naks;
            m_nakTrace(static_cast<uint32_t>(m_ePsn & RoceBth::MASK24));
            SendAck(RoceAeth::SYNDROME_NAK_SEQ, m_ePsn);
        }
    }
    else
    {
        SendAck(RoceAeth::SYNDROME_ACK, m_ePsn - 1); // duplicate: re-ACK
    }
}

void
RoceQp::SendAck(uint8_t syndrome, uint64_t psn)
{
    Ptr<Packet> packet = Create<Packet>();
    RoceAeth aeth;
    aeth.syndrome = syndrome;
    aeth.msn = m_msn & RoceBth::MASK24;
    packet->AddHeader(aeth);
    RoceBth bth;
    bth.opcode = RoceBth::RC_ACKNOWLEDGE;
    bth.destQp = m_remoteQpn;
    bth.psn = static_cast<uint32_t>(psn & RoceBth::MASK24);
    packet->AddHeader(bth);
    m_nic->SendControl(packet, m_local, m_peer, m_sport, m_ipId);
}

void
RoceQp::SendCnp()
{
    Ptr<Packet> packet = Create<Packet>();
    packet->AddHeader(RoceCnpPadding());
    RoceBth bth;
    bth.opcode = RoceBth::CNP;
    bth.becn = true;
    bth.destQp = m_remoteQpn;
    packet->AddHeader(bth);
    m_nic->SendControl(packet, m_local, m_peer, m_sport, m_ipId);
    m_lastCnp = Simulator::Now();
    m_cnpSentOnce = true;
    ++m_cnps;
    m_cnpSentTrace();
}

void
RoceQp::StopRateControl()
{
    if (m_rc && m_rcRunning)
    {
        m_rcRunning = false;
        m_rc->Stop();
    }
}

RoceQp::Role
RoceQp::GetRole() const
{
    return m_role;
}

uint32_t
RoceQp::GetQpn() const
{
    return m_qpn;
}

uint32_t
RoceQp::GetRemoteQpn() const
{
    return m_remoteQpn;
}

Ipv4Address
RoceQp::GetPeer() const
{
    return m_peer;
}

uint16_t
RoceQp::GetSourcePort() const
{
    return m_sport;
}

Ptr<RoceRateControl>
RoceQp::GetRateControl() const
{
    return m_rc;
}

bool
RoceQp::IsInError() const
{
    return m_error;
}

uint64_t
RoceQp::GetBytesPosted() const
{
    return m_bytesPosted;
}

uint64_t
RoceQp::GetBytesAcked() const
{
    return m_bytesAcked;
}

uint64_t
RoceQp::GetBytesDelivered() const
{
    return m_delivered;
}

uint64_t
RoceQp::GetRetransmittedBytes() const
{
    return m_retxBytes;
}

uint64_t
RoceQp::GetNaks() const
{
    return m_naks;
}

uint64_t
RoceQp::GetCnps() const
{
    return m_cnps;
}

uint64_t
RoceQp::GetTimeouts() const
{
    return m_timeouts;
}

} // namespace ns3
