/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-vxlan-header.h"

#include "oncache-check.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheVxlanHeader");

NS_OBJECT_ENSURE_REGISTERED(OncacheVxlanHeader);

TypeId
OncacheVxlanHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OncacheVxlanHeader")
                            .SetParent<Header>()
                            .SetGroupName("Oncache")
                            .AddConstructor<OncacheVxlanHeader>();
    return tid;
}

OncacheVxlanHeader::OncacheVxlanHeader()
    : m_flags(FLAG_VNI_VALID),
      m_vni(1)
{
}

void
OncacheVxlanHeader::SetVni(uint32_t vni)
{
    ONCACHE_REQUIRE(vni < (1U << 24), std::out_of_range, "Vni must fit in 24 bits, got " << vni);
    m_vni = vni;
}

uint32_t
OncacheVxlanHeader::GetVni() const
{
    return m_vni;
}

uint8_t
OncacheVxlanHeader::GetFlags() const
{
    return m_flags;
}

bool
OncacheVxlanHeader::IsValid() const
{
    return (m_flags & FLAG_VNI_VALID) != 0;
}

TypeId
OncacheVxlanHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
OncacheVxlanHeader::GetSerializedSize() const
{
    return SIZE;
}

void
OncacheVxlanHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_flags);
    start.WriteU8(0);
    start.WriteU8(0);
    start.WriteU8(0);
    start.WriteU8(static_cast<uint8_t>(m_vni >> 16));
    start.WriteU8(static_cast<uint8_t>(m_vni >> 8));
    start.WriteU8(static_cast<uint8_t>(m_vni));
    start.WriteU8(0);
}

uint32_t
OncacheVxlanHeader::Deserialize(Buffer::Iterator start)
{
    m_flags = start.ReadU8();
    start.Next(3);
    uint32_t vni = start.ReadU8();
    vni = (vni << 8) | start.ReadU8();
    vni = (vni << 8) | start.ReadU8();
    m_vni = vni;
    start.Next(1);
    return SIZE;
}

void
OncacheVxlanHeader::Print(std::ostream& os) const
{
    os << "VXLAN flags=0x" << std::hex << static_cast<uint32_t>(m_flags) << std::dec
       << " vni=" << m_vni;
}

} // namespace ns3
