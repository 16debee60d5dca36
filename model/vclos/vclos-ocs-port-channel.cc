/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-ocs-port-channel.h"

#include "vclos-ocs.h"

#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VclosOcsPortChannel");

NS_OBJECT_ENSURE_REGISTERED(VclosOcsPortChannel);

TypeId
VclosOcsPortChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VclosOcsPortChannel")
                            .SetParent<PointToPointChannel>()
                            .SetGroupName("Vclos")
                            .AddConstructor<VclosOcsPortChannel>();
    return tid;
}

VclosOcsPortChannel::VclosOcsPortChannel()
    : m_port(0)
{
    NS_LOG_FUNCTION(this);
}

VclosOcsPortChannel::~VclosOcsPortChannel()
{
    NS_LOG_FUNCTION(this);
}

void
VclosOcsPortChannel::SetOcs(const Ptr<VclosOcs>& ocs, uint32_t port)
{
    NS_LOG_FUNCTION(this << ocs << port);
    m_ocs = ocs;
    m_port = port;
}

uint32_t
VclosOcsPortChannel::GetPort() const
{
    return m_port;
}

Ptr<PointToPointNetDevice>
VclosOcsPortChannel::GetAttachedDevice() const
{
    if (PointToPointChannel::GetNDevices() == 0)
    {
        return nullptr;
    }
    return GetPointToPointDevice(0);
}

bool
VclosOcsPortChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    if (m_ocs)
    {
        m_ocs->Ingress(m_port, p, txTime);
    }
    return true;
}

std::size_t
VclosOcsPortChannel::GetNDevices() const
{
    if (!GetAttachedDevice())
    {
        return 0;
    }
    return m_ocs && m_ocs->GetRemotePort(m_port) != VclosOcs::NO_PORT ? 2 : 1;
}

Ptr<NetDevice>
VclosOcsPortChannel::GetDevice(std::size_t i) const
{
    if (i == 0)
    {
        return GetAttachedDevice();
    }
    if (i == 1 && m_ocs)
    {
        uint32_t peer = m_ocs->GetRemotePort(m_port);
        if (peer != VclosOcs::NO_PORT)
        {
            return m_ocs->GetDevice(peer);
        }
    }
    return nullptr;
}

void
VclosOcsPortChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ocs = nullptr;
    PointToPointChannel::DoDispose();
}

} // namespace ns3
