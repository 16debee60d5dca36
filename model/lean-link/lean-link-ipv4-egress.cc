/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lean-link-ipv4-egress.h"

#include "lean-link-ipv4-queue-disc-item.h"
#include "lean-link-net-device.h"

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/queue-disc.h"
#include "ns3/socket.h"
#include "ns3/traffic-control-layer.h"

#include <typeinfo>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeanLinkIpv4Egress");

LeanLinkIpv4Egress::LeanLinkIpv4Egress() = default;

LeanLinkIpv4Egress::LeanLinkIpv4Egress(Ptr<TrafficControlLayer> tc, Ptr<NetDevice> device)
    : m_tc(tc),
      m_device(device),
      m_broadcast(device->GetBroadcast())
{
    NS_LOG_FUNCTION(this << tc << device);
    if (typeid(*tc) != typeid(TrafficControlLayer))
    {
        return; // a subclass may send otherwise
    }
    Ptr<QueueDisc> root = tc->GetRootQueueDiscOnDevice(device);
    Ptr<LeanLinkNetDevice> lean = DynamicCast<LeanLinkNetDevice>(device);
    if (!root && lean && lean->GetEgress() == LeanLinkNetDevice::CLOCK)
    {
        m_direct = true;
        return;
    }
    Ptr<NetDeviceQueueInterface> txInterface = device->GetObject<NetDeviceQueueInterface>();
    if (root && txInterface && txInterface->GetNTxQueues() == 1 &&
        root->GetWakeMode() == QueueDisc::WAKE_ROOT)
    {
        m_queueDisc = root;
        m_txInterface = txInterface;
    }
}

void
LeanLinkIpv4Egress::Send(Ptr<Packet> packet, const Ipv4Header& header) const
{
    if (m_direct)
    {
        // TrafficControlLayer::Send, a single-queue device without a queue disc.
        packet->AddHeader(header);
        SocketPriorityTag priorityTag;
        packet->RemovePacketTag(priorityTag);
        m_device->Send(packet, m_broadcast, Ipv4L3Protocol::PROT_NUMBER);
        return;
    }
    Ptr<QueueDiscItem> item =
        Create<LeanLinkIpv4QueueDiscItem>(packet, m_broadcast, Ipv4L3Protocol::PROT_NUMBER, header);
    if (IsShort())
    {
        // TrafficControlLayer::Send, device with a root queue disc and one transmission queue.
        item->SetTxQueueIndex(0);
        m_queueDisc->Enqueue(item);
        m_queueDisc->Run();
        return;
    }
    m_tc->Send(m_device, item);
}

bool
LeanLinkIpv4Egress::IsShort() const
{
    return m_queueDisc && m_queueDisc->GetNetDeviceQueueInterface() == m_txInterface;
}

bool
LeanLinkIpv4Egress::IsDirect() const
{
    return m_direct;
}

const Ptr<NetDevice>&
LeanLinkIpv4Egress::GetDevice() const
{
    return m_device;
}

void
LeanLinkIpv4Egress::Clear()
{
    m_tc = nullptr;
    m_device = nullptr;
    m_queueDisc = nullptr;
    m_txInterface = nullptr;
}

} // namespace ns3
