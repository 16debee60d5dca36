/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lean-link-channel.h"

#include "lean-link-net-device.h"

#include "ns3/abort.h"
#include "ns3/event-impl.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeanLinkChannel");

NS_OBJECT_ENSURE_REGISTERED(LeanLinkChannel);

namespace
{

/**
 * The receive of one frame at the peer: what MakeEvent(&LeanLinkNetDevice::Receive, peer,
 * packet) builds, holding the frame once (MakeEvent passes the Ptr by value through two
 * calls before storing it, and calls Receive with a copy).
 */
class LeanLinkReceiveEvent : public EventImpl
{
  public:
    /**
     * \param device the receiving device
     * \param packet the frame
     */
    LeanLinkReceiveEvent(LeanLinkNetDevice* device, const Ptr<Packet>& packet)
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
    LeanLinkNetDevice* m_device; //!< the receiver (the channel holds it)
    Ptr<Packet> m_packet;        //!< the frame
};

} // namespace

TypeId
LeanLinkChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LeanLinkChannel")
            .SetParent<Channel>()
            .SetGroupName("LeanLink")
            .AddConstructor<LeanLinkChannel>()
            .AddAttribute("Delay",
                          "Propagation delay through the channel (as "
                          "ns3::PointToPointChannel::Delay).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&LeanLinkChannel::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("TxRxPointToPoint",
                            "A frame carried: packet, source, destination, serialization time, "
                            "time of the last bit's arrival (relative to now).",
                            MakeTraceSourceAccessor(&LeanLinkChannel::m_txrxTrace),
                            "ns3::PointToPointChannel::TxRxAnimationCallback");
    return tid;
}

LeanLinkChannel::LeanLinkChannel()
    : LeanLinkChannel(false)
{
}

LeanLinkChannel::LeanLinkChannel(bool crossesProcesses)
    : m_attached(0),
      m_crossesProcesses(crossesProcesses)
{
    NS_LOG_FUNCTION(this << crossesProcesses);
}

void
LeanLinkChannel::DoDispose()
{
    m_devices[0] = nullptr;
    m_devices[1] = nullptr;
    Channel::DoDispose();
}

void
LeanLinkChannel::Attach(Ptr<LeanLinkNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_attached >= 2, "LeanLinkChannel: a cable has two ends");
    m_devices[m_attached++] = device;
}

LeanLinkNetDevice*
LeanLinkChannel::GetPeer(const LeanLinkNetDevice* device) const
{
    if (m_attached < 2)
    {
        return nullptr;
    }
    return m_devices[0] == device ? PeekPointer(m_devices[1]) : PeekPointer(m_devices[0]);
}

bool
LeanLinkChannel::TransmitStart(const Ptr<Packet>& packet,
                               const LeanLinkNetDevice* source,
                               Time txTime,
                               Time wait)
{
    LeanLinkNetDevice* peer = GetPeer(source);
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
        // if someone else still holds it when it arrives (LeanLinkNetDevice::Receive). The
        // event is MakeEvent's, at the same time with the same context.
        Simulator::ScheduleWithContext(peer->GetNode()->GetId(),
                                       wait + txTime + m_delay,
                                       new LeanLinkReceiveEvent(peer, packet));
    }
    if (!m_txrxTrace.IsEmpty())
    {
        m_txrxTrace(packet,
                    Ptr<NetDevice>(const_cast<LeanLinkNetDevice*>(source)),
                    peer,
                    txTime,
                    txTime + m_delay);
    }
    return true;
}

void
LeanLinkChannel::DeliverToOtherProcess(LeanLinkNetDevice* peer,
                                       const Ptr<Packet>& packet,
                                       Time delay)
{
    NS_FATAL_ERROR("LeanLinkChannel: a channel within one process has no other process");
}

bool
LeanLinkChannel::IsTraced() const
{
    return !m_txrxTrace.IsEmpty();
}

std::size_t
LeanLinkChannel::GetNDevices() const
{
    return m_attached;
}

Ptr<NetDevice>
LeanLinkChannel::GetDevice(std::size_t i) const
{
    return i < m_attached ? m_devices[i] : nullptr;
}

Time
LeanLinkChannel::GetDelay() const
{
    return m_delay;
}

} // namespace ns3
