/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ocs-port-channel.h"

#include "ocs-switch.h"

#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OcsPortChannel");

NS_OBJECT_ENSURE_REGISTERED(OcsPortChannel);

TypeId
OcsPortChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OcsPortChannel")
                            .SetParent<PointToPointChannel>()
                            .SetGroupName("Ocs")
                            .AddConstructor<OcsPortChannel>();
    return tid;
}

OcsPortChannel::OcsPortChannel()
    : m_port(0)
{
    NS_LOG_FUNCTION(this);
}

OcsPortChannel::~OcsPortChannel()
{
    NS_LOG_FUNCTION(this);
}

void
OcsPortChannel::SetOcs(const Ptr<OcsSwitch>& ocs, uint32_t port)
{
    NS_LOG_FUNCTION(this << ocs << port);
    m_ocs = ocs;
    m_port = port;
}

uint32_t
OcsPortChannel::GetPort() const
{
    return m_port;
}

Ptr<PointToPointNetDevice>
OcsPortChannel::GetAttachedDevice() const
{
    if (PointToPointChannel::GetNDevices() == 0)
    {
        return nullptr;
    }
    return GetPointToPointDevice(0);
}

bool
OcsPortChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    if (m_ocs)
    {
        m_ocs->Ingress(m_port, p, txTime);
    }
    return true;
}

std::size_t
OcsPortChannel::GetNDevices() const
{
    if (!GetAttachedDevice())
    {
        return 0;
    }
    return m_ocs && m_ocs->GetRemotePort(m_port) != OcsSwitch::NO_PORT ? 2 : 1;
}

Ptr<NetDevice>
OcsPortChannel::GetDevice(std::size_t i) const
{
    if (i == 0)
    {
        return GetAttachedDevice();
    }
    if (i == 1 && m_ocs)
    {
        uint32_t peer = m_ocs->GetRemotePort(m_port);
        if (peer != OcsSwitch::NO_PORT)
        {
            return m_ocs->GetDevice(peer);
        }
    }
    return nullptr;
}

void
OcsPortChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ocs = nullptr;
    PointToPointChannel::DoDispose();
}

} // namespace ns3
