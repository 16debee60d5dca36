/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lean-link-helper.h"

#include "ns3/lean-link-channel.h"
#include "ns3/lean-link-net-device.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/queue.h"
#ifdef LEAN_LINK_MPI
#include "ns3/lean-link-remote-channel.h"
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeanLinkHelper");

LeanLinkHelper::LeanLinkHelper()
{
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_deviceFactory.SetTypeId("ns3::LeanLinkNetDevice");
    m_channelFactory.SetTypeId("ns3::LeanLinkChannel");
}

void
LeanLinkHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
LeanLinkHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
LeanLinkHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    NS_LOG_FUNCTION(this << a << b);
    // The order of PointToPointHelper::Install: device, address, node, queue; a then b;
    // flow control; then the channel.
    Ptr<LeanLinkNetDevice> devices[2];
    Ptr<Queue<Packet>> queues[2];
    Ptr<Node> nodes[2] = {a, b};
    for (int i = 0; i < 2; ++i)
    {
        devices[i] = m_deviceFactory.Create<LeanLinkNetDevice>();
        devices[i]->SetAddress(Mac48Address::Allocate());
        nodes[i]->AddDevice(devices[i]);
        queues[i] = m_queueFactory.Create<Queue<Packet>>();
        devices[i]->SetQueue(queues[i]);
    }
    for (int i = 0; i < 2; ++i)
    {
        Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
        ndqi->GetTxQueue(0)->ConnectQueueTraces(queues[i]);
        devices[i]->AggregateObject(ndqi);
    }
    Ptr<LeanLinkChannel> channel;
    if (a->GetSystemId() != b->GetSystemId())
    {
        // The ends run in two processes of a distributed run (doc/lean-link/lean-link.rst,
        // "Distributed runs").
#ifdef LEAN_LINK_MPI
        ObjectFactory remote = m_channelFactory; // the same attributes (Delay)
        remote.SetTypeId(LeanLinkRemoteChannel::GetTypeId());
        channel = remote.Create<LeanLinkChannel>();
        for (const auto& device : devices)
        {
            LeanLinkRemoteChannel::ReceiveFromOtherProcesses(device);
        }
#else
        NS_FATAL_ERROR("LeanLinkHelper: nodes " << a->GetId() << " and " << b->GetId()
                                                << " are on different systems, which needs "
                                                   "ns-3's mpi module");
#endif
    }
    else
    {
        channel = m_channelFactory.Create<LeanLinkChannel>();
    }
    NetDeviceContainer container;
    for (int i = 0; i < 2; ++i)
    {
        devices[i]->Attach(channel);
        container.Add(devices[i]);
    }
    return container;
}

void
LeanLinkHelper::EnablePcapInternal(std::string prefix,
                                   Ptr<NetDevice> nd,
                                   bool promiscuous,
                                   bool explicitFilename)
{
    Ptr<LeanLinkNetDevice> device = DynamicCast<LeanLinkNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("LeanLinkHelper::EnablePcapInternal: not a LeanLinkNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    const std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file = pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_PPP);
    // PromiscSniffer whatever promiscuous says, as PointToPointHelper.
    pcapHelper.HookDefaultSink<LeanLinkNetDevice>(device, "PromiscSniffer", file);
}

} // namespace ns3
