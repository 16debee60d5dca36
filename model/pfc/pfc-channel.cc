/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-channel.h"

#include "pfc-net-device.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcChannel");

NS_OBJECT_ENSURE_REGISTERED(PfcChannel);

TypeId
PfcChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcChannel")
            .SetParent<Channel>()
            .SetGroupName("Pfc")
            .AddConstructor<PfcChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the cable (one way).",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&PfcChannel::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("TxRxVclosPfc",
                            "A frame carried: packet, source, destination, serialization time, "
                            "propagation delay.",
                            MakeTraceSourceAccessor(&PfcChannel::m_txrxTrace),
                            "ns3::PointToPointChannel::TxRxAnimationCallback");
    return tid;
}

PfcChannel::PfcChannel()
    : m_attached(0)
{
    NS_LOG_FUNCTION(this);
}

void
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_attached >= 2, "PfcChannel: a cable has two ends");
    m_devices[m_attached++] = device;
}

bool
PfcChannel::TransmitStart(Ptr<const Packet> packet, Ptr<PfcNetDevice> source, Time txTime)
{
    if (m_attached < 2)
    {
        return false;
    }
    Ptr<PfcNetDevice> peer = m_devices[0] == source ? m_devices[1] : m_devices[0];
    Simulator::ScheduleWithContext(peer->GetNode()->GetId(),
                                   txTime + m_delay,
                                   &PfcNetDevice::Receive,
                                   peer,
                                   packet->Copy());
    m_txrxTrace(packet, source, peer, txTime, txTime + m_delay);
    return true;
}

std::size_t
PfcChannel::GetNDevices() const
{
    return m_attached;
}

Ptr<NetDevice>
PfcChannel::GetDevice(std::size_t i) const
{
    return i < m_attached ? m_devices[i] : nullptr;
}

Time
PfcChannel::GetDelay() const
{
    return m_delay;
}

} // namespace ns3
