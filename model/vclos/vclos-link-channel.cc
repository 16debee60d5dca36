/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-link-channel.h"

#include "vclos-link-net-device.h"

#include "ns3/abort.h"
#include "ns3/event-impl.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VclosLinkChannel");

NS_OBJECT_ENSURE_REGISTERED(VclosLinkChannel);

namespace
{

/**
 * The receive of one frame at the peer: what MakeEvent(&VclosLinkNetDevice::Receive, peer,
 * packet) builds, holding the frame once (MakeEvent passes the Ptr by value through two
 * calls before storing it, and calls Receive with a copy).
 */
class VclosLinkReceiveEvent : public EventImpl
{
  public:
    /**
     * \param device the receiving device
     * \param packet the frame
     */
    VclosLinkReceiveEvent(VclosLinkNetDevice* device, const Ptr<Packet>& packet)
        : m_device(device),
          m_packet(packet)
    {
    }

  protected:
    void Notify() override
    {
        m_device->Receive(m_packet);
    }

  private:
    VclosLinkNetDevice* m_device; //!< the receiver (the channel holds it)
    Ptr<Packet> m_packet;         //!< the frame
};

} // namespace

TypeId
VclosLinkChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VclosLinkChannel")
            .SetParent<Channel>()
            .SetGroupName("Vclos")
            .AddConstructor<VclosLinkChannel>()
            .AddAttribute("Delay",
                          "Propagation delay through the channel (as "
                          "ns3::PointToPointChannel::Delay).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&VclosLinkChannel::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("TxRxPointToPoint",
                            "A frame carried: packet, source, destination, serialization time, "
                            "time of the last bit's arrival (relative to now).",
                            MakeTraceSourceAccessor(&VclosLinkChannel::m_txrxTrace),
                            "ns3::PointToPointChannel::TxRxAnimationCallback");
    return tid;
}

VclosLinkChannel::VclosLinkChannel()
    : VclosLinkChannel(false)
{
}

VclosLinkChannel::VclosLinkChannel(bool crossesProcesses)
    : m_attached(0),
      m_crossesProcesses(crossesProcesses)
{
    NS_LOG_FUNCTION(this << crossesProcesses);
}

void
VclosLinkChannel::DoDispose()
{
    m_devices[0] = nullptr;
    m_devices[1] = nullptr;
    Channel::DoDispose();
}

void
VclosLinkChannel::Attach(Ptr<VclosLinkNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_attached >= 2, "VclosLinkChannel: a cable has two ends");
    m_devices[m_attached++] = device;
}

VclosLinkNetDevice*
VclosLinkChannel::GetPeer(const VclosLinkNetDevice* device) const
{
    if (m_attached < 2)
    {
        return nullptr;
    }
    return m_devices[0] == device ? PeekPointer(m_devices[1]) : PeekPointer(m_devices[0]);
}

bool
VclosLinkChannel::TransmitStart(const Ptr<Packet>& packet,
                                const VclosLinkNetDevice* source,
                                Time txTime,
                                Time wait)
{
    VclosLinkNetDevice* peer = GetPeer(source);
    if (!peer)
    {
        return false;
    }
    if (m_crossesProcesses)
    {
        DeliverToOtherProcess(peer, packet, wait + txTime + m_delay);
    }
    else
    {
        // No copy here (PointToPointChannel copies every frame): the receiver copies it only
        // if someone else still holds it when it arrives (VclosLinkNetDevice::Receive). The
        // event is MakeEvent's, at the same time with the same context.
        Simulator::ScheduleWithContext(peer->GetNode()->GetId(),
                                       wait + txTime + m_delay,
                                       new VclosLinkReceiveEvent(peer, packet));
    }
    if (!m_txrxTrace.IsEmpty())
    {
        m_txrxTrace(packet,
                    Ptr<NetDevice>(const_cast<VclosLinkNetDevice*>(source)),
                    peer,
                    txTime,
                    txTime + m_delay);
    }
    return true;
}

void
VclosLinkChannel::DeliverToOtherProcess(VclosLinkNetDevice* peer,
                                        const Ptr<Packet>& packet,
                                        Time delay)
{
    NS_FATAL_ERROR("VclosLinkChannel: a channel within one process has no other process");
}

bool
VclosLinkChannel::IsTraced() const
{
    return !m_txrxTrace.IsEmpty();
}

std::size_t
VclosLinkChannel::GetNDevices() const
{
    return m_attached;
}

Ptr<NetDevice>
VclosLinkChannel::GetDevice(std::size_t i) const
{
    return i < m_attached ? m_devices[i] : nullptr;
}

Time
VclosLinkChannel::GetDelay() const
{
    return m_delay;
}

} // namespace ns3
