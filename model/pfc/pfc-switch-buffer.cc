/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-switch-buffer.h"

#include "pfc-header.h"
#include "pfc-net-device.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/suite-check.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcSwitchBuffer");

NS_OBJECT_ENSURE_REGISTERED(PfcSwitchBuffer);

namespace
{
/// Bytes a frame of an IP packet of `mtu` bytes takes on the wire: Ethernet header 14, FCS 4,
/// preamble and SFD 8, inter-frame gap 12.
uint64_t
WireFrame(uint32_t mtu)
{
    return uint64_t{mtu} + 14 + 4 + 8 + 12;
}

constexpr uint64_t PFC_WIRE_BYTES = 64 + 8 + 12; //!< a PFC frame with preamble and gap
} // namespace

TypeId
PfcSwitchBuffer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcSwitchBuffer")
            .SetParent<Object>()
            .SetGroupName("Pfc")
            .AddConstructor<PfcSwitchBuffer>()
            .AddAttribute("BufferSize",
                          "Shared buffer of the switch in bytes (the HPCC simulator's switch "
                          "buffer: 32 MiB in HPCC's "
                          "100G set-up and SimAI's default).",
                          UintegerValue(32u << 20),
                          MakeUintegerAccessor(&PfcSwitchBuffer::m_bufferSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("PfcEnabled",
                          "Lossless: send PFC pauses and use the headroom. Off: lossy, frames "
                          "beyond the shared threshold are dropped at admission.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfcSwitchBuffer::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("ThresholdMode",
                          "XOFF threshold: Dynamic (Alpha times the free shared buffer, HPCC "
                          "SwitchMmu) or Static (StaticXoff / StaticXon per priority group).",
                          EnumValue(DYNAMIC),
                          MakeEnumAccessor(&PfcSwitchBuffer::m_mode),
                          MakeEnumChecker(DYNAMIC, "Dynamic", STATIC, "Static"))
            .AddAttribute("Alpha",
                          "Dynamic threshold factor, 2^-shift in HPCC (1/8 at NIC-speed ports, "
                          "1/2 at 4x ports); (0, 64].",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&PfcSwitchBuffer::m_alpha),
                          MakeDoubleChecker<double>(1e-9, 64))
            .AddAttribute("StaticXoff",
                          "Static mode: shared bytes of a priority group at which it is paused.",
                          UintegerValue(uint64_t{256} * 1024),
                          MakeUintegerAccessor(&PfcSwitchBuffer::m_staticXoff),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("StaticXon",
                          "Static mode: shared bytes at or below which a paused group resumes "
                          "(at most StaticXoff).",
                          UintegerValue(uint64_t{128} * 1024),
                          MakeUintegerAccessor(&PfcSwitchBuffer::m_staticXon),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("ReserveBytes",
                          "Guaranteed bytes per priority group (HPCC: 4 KiB).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&PfcSwitchBuffer::m_reserve),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("ResumeOffset",
                          "Dynamic mode: XON when shared use + this <= threshold (HPCC: 3 KiB).",
                          UintegerValue(3072),
                          MakeUintegerAccessor(&PfcSwitchBuffer::m_resumeOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Headroom",
                          "Headroom per port in bytes; 0: 2 x rate x delay + 3 MTU frames + a "
                          "PFC frame, each port from its own rate and cable (IEEE 802.1Qbb).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfcSwitchBuffer::m_headroomBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PauseQuanta",
                          "Pause time an XOFF frame asks for, in quanta of 512 bit times, 1 "
                          "to 65535.",
                          UintegerValue(0xFFFF),
                          MakeUintegerAccessor(&PfcSwitchBuffer::m_pauseQuanta),
                          MakeUintegerChecker<uint32_t>(1, 0xFFFF))
            .AddAttribute("PauseRefresh",
                          "Period of XOFF refreshes while a group stays paused (0: half the "
                          "pause time at the port's rate).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PfcSwitchBuffer::m_pauseRefresh),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Drop",
                            "A frame dropped at admission: frame, ingress port, priority.",
                            MakeTraceSourceAccessor(&PfcSwitchBuffer::m_dropTrace),
                            "ns3::PfcSwitchBuffer::DropTracedCallback")
            .AddTraceSource("PfcState",
                            "A priority group paused (true) or resumed (false): port, priority.",
                            MakeTraceSourceAccessor(&PfcSwitchBuffer::m_pfcStateTrace),
                            "ns3::PfcSwitchBuffer::PfcStateTracedCallback");
    return tid;
}

PfcSwitchBuffer::PfcSwitchBuffer()
    : m_totalHeadroom(0),
      m_shared(0),
      m_usedBytes(0),
      m_currentIngress(NO_PORT),
      m_drops(0),
      m_pausesSent(0),
      m_maxHeadroomUsed(0)
{
    NS_LOG_FUNCTION(this);
}

void
PfcSwitchBuffer::DoDispose()
{
    for (Pg& pg : m_pgs)
    {
        pg.refresh.Cancel();
    }
    m_ports.clear();
    Object::DoDispose();
}

uint32_t
PfcSwitchBuffer::AddPort(Ptr<PfcNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    const uint32_t port = static_cast<uint32_t>(m_ports.size());
    uint64_t headroom = m_headroomBytes;
    if (headroom == 0)
    {
        const double bdp =
            2.0 * device->GetDataRate().GetBitRate() * device->GetChannelDelay().GetSeconds() / 8.0;
        headroom = static_cast<uint64_t>(std::ceil(bdp)) + 3 * WireFrame(device->GetMtu()) +
                   PFC_WIRE_BYTES;
    }
    m_ports.push_back(device);
    m_portHeadroom.push_back(headroom);
    m_totalHeadroom += headroom;
    m_pgs.resize(m_pgs.size() + PRIORITIES);
    device->SetSwitchBuffer(this, port);
    Validate();
    return port;
}

void
PfcSwitchBuffer::Validate() const
{
    SUITE_REQUIRE(m_mode != STATIC || m_staticXon <= m_staticXoff,
                  std::invalid_argument,
                  "PfcSwitchBuffer: StaticXon=" << m_staticXon
                                                << " exceeds StaticXoff=" << m_staticXoff);
    const uint64_t reserves = m_ports.size() * m_reserve;
    SUITE_REQUIRE(m_bufferSize > m_totalHeadroom + reserves,
                  std::invalid_argument,
                  "PfcSwitchBuffer: BufferSize="
                      << m_bufferSize << " bytes is not larger than the headroom ("
                      << m_totalHeadroom << ") plus reserves (" << reserves << ") of its "
                      << m_ports.size() << " ports");
}

uint64_t
PfcSwitchBuffer::Shared(const Pg& pg) const
{
    return pg.used > m_reserve ? pg.used - m_reserve : 0;
}

uint64_t
PfcSwitchBuffer::GetThreshold(uint32_t port) const
{
    if (m_mode == STATIC)
    {
        return m_staticXoff;
    }
    const uint64_t fixed = m_totalHeadroom + m_ports.size() * m_reserve + m_shared;
    const uint64_t free = m_bufferSize > fixed ? m_bufferSize - fixed : 0;
    return static_cast<uint64_t>(m_alpha * static_cast<double>(free));
}

bool
PfcSwitchBuffer::Admit(Ptr<const Packet> packet, uint32_t port, uint8_t priority, uint32_t bytes)
{
    Pg& pg = m_pgs[port * PRIORITIES + priority];
    bool admitted = m_usedBytes + bytes <= m_bufferSize;
    if (admitted)
    {
        const uint64_t after = pg.used + bytes;
        if (after <= m_reserve)
        {
            pg.used = after;
        }
        else if (after - m_reserve > GetThreshold(port))
        {
            admitted = m_pfcEnabled && pg.headroom + bytes <= m_portHeadroom[port];
            if (admitted)
            {
                pg.headroom += bytes;
                m_maxHeadroomUsed = std::max(m_maxHeadroomUsed, pg.headroom);
            }
        }
        else
        {
            m_shared += std::min<uint64_t>(bytes, after - m_reserve);
            pg.used = after;
        }
    }
    if (!admitted)
    {
        ++m_drops;
        m_dropTrace(packet, port, priority);
        return false;
    }
    m_usedBytes += bytes;
    if (m_pfcEnabled && !pg.paused && (pg.headroom > 0 || Shared(pg) >= GetThreshold(port)))
    {
        SendPfc(port, priority, true);
    }
    return true;
}

void
PfcSwitchBuffer::Release(uint32_t port, uint8_t priority, uint32_t bytes)
{
    Pg& pg = m_pgs[port * PRIORITIES + priority];
    const uint64_t fromHeadroom = std::min<uint64_t>(pg.headroom, bytes);
    pg.headroom -= fromHeadroom;
    const uint64_t rest = bytes - fromHeadroom;
    m_shared -= std::min(Shared(pg), rest);
    pg.used -= std::min(pg.used, rest);
    m_usedBytes -= bytes;
    if (pg.paused && pg.headroom == 0)
    {
        const uint64_t shared = Shared(pg);
        const bool resume = m_mode == STATIC
                                ? shared <= m_staticXon
                                : shared == 0 || shared + m_resumeOffset <= GetThreshold(port);
        if (resume)
        {
            SendPfc(port, priority, false);
        }
    }
}

void
PfcSwitchBuffer::SendPfc(uint32_t port, uint8_t priority, bool pause)
{
    Pg& pg = m_pgs[port * PRIORITIES + priority];
    pg.paused = pause;
    pg.refresh.Cancel();
    NS_LOG_LOGIC("port " << port << " priority " << +priority << (pause ? " XOFF" : " XON"));
    m_pfcStateTrace(port, priority, pause);
    if (pause)
    {
        Refresh(port, priority);
    }
    else
    {
        m_ports[port]->SendPfc(priority, 0);
    }
}

void
PfcSwitchBuffer::Refresh(uint32_t port, uint8_t priority)
{
    Pg& pg = m_pgs[port * PRIORITIES + priority];
    if (!pg.paused)
    {
        return;
    }
    ++m_pausesSent;
    Ptr<PfcNetDevice> device = m_ports[port];
    device->SendPfc(priority, static_cast<uint16_t>(m_pauseQuanta));
    Time period = m_pauseRefresh;
    if (period.IsZero())
    {
        period = device->GetDataRate().CalculateBytesTxTime(uint64_t{m_pauseQuanta} *
                                                            PfcHeader::BITS_PER_QUANTUM / 8) /
                 2;
    }
    pg.refresh = Simulator::Schedule(period, &PfcSwitchBuffer::Refresh, this, port, priority);
}

uint32_t
PfcSwitchBuffer::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

uint64_t
PfcSwitchBuffer::GetHeadroom(uint32_t port) const
{
    return m_portHeadroom.at(port);
}

uint64_t
PfcSwitchBuffer::GetIngressBytes(uint32_t port, uint8_t priority) const
{
    const Pg& pg = m_pgs.at(port * PRIORITIES + priority);
    return pg.used + pg.headroom;
}

uint64_t
PfcSwitchBuffer::GetUsedBytes() const
{
    return m_usedBytes;
}

uint64_t
PfcSwitchBuffer::GetDrops() const
{
    return m_drops;
}

uint64_t
PfcSwitchBuffer::GetMaxHeadroomUsed() const
{
    return m_maxHeadroomUsed;
}

uint64_t
PfcSwitchBuffer::GetPausesSent() const
{
    return m_pausesSent;
}

} // namespace ns3
