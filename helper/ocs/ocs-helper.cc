/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ocs-helper.h"

#include "ns3/callback.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OcsHelper");

OcsHelper::OcsHelper()
{
    m_deviceFactory.SetTypeId("ns3::PointToPointNetDevice");
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_ocsFactory.SetTypeId("ns3::OcsSwitch");
}

void
OcsHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
OcsHelper::SetQueueAttribute(const std::string& name, const AttributeValue& value)
{
    m_queueFactory.Set(name, value);
}

void
OcsHelper::SetOcsAttribute(const std::string& name, const AttributeValue& value)
{
    m_ocsFactory.Set(name, value);
}

Ptr<OcsSwitch>
OcsHelper::Install(const NodeContainer& nodes) const
{
    NS_LOG_FUNCTION(this << nodes.GetN());
    Ptr<OcsSwitch> ocs = m_ocsFactory.Create<OcsSwitch>();
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<PointToPointNetDevice> device = m_deviceFactory.Create<PointToPointNetDevice>();
        device->SetAddress(Mac48Address::Allocate());
        nodes.Get(i)->AddDevice(device);
        Ptr<Queue<Packet>> queue = m_queueFactory.Create<Queue<Packet>>();
        device->SetQueue(queue);
        Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
        ndqi->GetTxQueue(0)->ConnectQueueTraces(queue);
        device->AggregateObject(ndqi);
        ocs->AddPort(device);
    }
    return ocs;
}

NetDeviceContainer
OcsHelper::GetDevices(Ptr<OcsSwitch> ocs)
{
    NetDeviceContainer devices;
    for (uint32_t port = 0; port < ocs->GetNPorts(); ++port)
    {
        devices.Add(ocs->GetDevice(port));
    }
    return devices;
}

void
OcsHelper::SetInterface(const OcsSwitch* ocs, uint32_t port, bool up)
{
    Ptr<PointToPointNetDevice> device = ocs->GetDevice(port);
    if (!device)
    {
        return;
    }
    Ptr<Ipv4> ipv4 = device->GetNode()->GetObject<Ipv4>();
    if (!ipv4)
    {
        return;
    }
    int32_t interface = ipv4->GetInterfaceForDevice(device);
    if (interface < 0 || ipv4->IsUp(interface) == up)
    {
        return;
    }
    NS_LOG_INFO("node " << device->GetNode()->GetId() << " interface "
                        << interface << (up ? " up" : " down") << " (OCS port " << port << ")");
    if (up)
    {
        ipv4->SetUp(interface);
    }
    else
    {
        ipv4->SetDown(interface);
    }
}

void
OcsHelper::OnCircuit(const OcsSwitch* ocs, bool up, uint32_t a, uint32_t b)
{
    SetInterface(ocs, a, up);
    SetInterface(ocs, b, up);
}

void
OcsHelper::FollowCircuits(Ptr<OcsSwitch> ocs)
{
    NS_LOG_FUNCTION(ocs);
    const OcsSwitch* raw = PeekPointer(ocs); // the traces belong to it: it outlives them
    for (uint32_t port = 0; port < ocs->GetNPorts(); ++port)
    {
        SetInterface(raw, port, ocs->GetPortState(port) == OcsSwitch::PORT_UP);
    }
    ocs->TraceConnectWithoutContext("CircuitUp", MakeBoundCallback(&OnCircuit, raw, true));
    ocs->TraceConnectWithoutContext("CircuitDown", MakeBoundCallback(&OnCircuit, raw, false));
}

} // namespace ns3
