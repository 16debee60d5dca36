/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-pfc-channel.h"

#include "vclos-pfc-net-device.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VclosPfcChannel");

NS_OBJECT_ENSURE_REGISTERED(VclosPfcChannel);

TypeId
VclosPfcChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VclosPfcChannel")
            .SetParent<Channel>()
            .SetGroupName("Vclos")
            .AddConstructor<VclosPfcChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the cable (one way).",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&VclosPfcChannel::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("TxRxVclosPfc",
                            "A frame carried: packet, source, destination, serialization time, "
                            "propagation delay.",
                            MakeTraceSourceAccessor(&VclosPfcChannel::m_txrxTrace),
                            "ns3::PointToPointChannel::TxRxAnimationCallback");
    return tid;
}

VclosPfcChannel::VclosPfcChannel()
    : m_attached(0)
{
    NS_LOG_FUNCTION(this);
}

void
VclosPfcChannel::Attach(Ptr<VclosPfcNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_attached >= 2, "VclosPfcChannel: a cable has two ends");
    m_devices[m_attached++] = device;
}

bool
VclosPfcChannel::TransmitStart(Ptr<const Packet> packet, Ptr<VclosPfcNetDevice> source, Time txTime)
{
    if (m_attached < 2)
    {
        return false;
    }
    Ptr<VclosPfcNetDevice> peer = m_devices[0] == source ? m_devices[1] : m_devices[0];
    Simulator::ScheduleWithContext(peer->GetNode()->GetId(),
                                   txTime + m_delay,
                                   &VclosPfcNetDevice::Receive,
                                   peer,
                                   packet->Copy());
    m_txrxTrace(packet, source, peer, txTime, txTime + m_delay);
    return true;
}

std::size_t
VclosPfcChannel::GetNDevices() const
{
    return m_attached;
}

Ptr<NetDevice>
VclosPfcChannel::GetDevice(std::size_t i) const
{
    return i < m_attached ? m_devices[i] : nullptr;
}

Time
VclosPfcChannel::GetDelay() const
{
    return m_delay;
}

} // namespace ns3
