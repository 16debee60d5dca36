/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-pfc-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(VclosPfcHeader);

TypeId
VclosPfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VclosPfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Vclos")
                            .AddConstructor<VclosPfcHeader>();
    return tid;
}

TypeId
VclosPfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
VclosPfcHeader::Print(std::ostream& os) const
{
    os << "PFC opcode=0x" << std::hex << m_opcode << " cev=0x" << m_classEnable << std::dec;
    for (uint32_t p = 0; p < PRIORITIES; ++p)
    {
        if (m_classEnable & (1u << p))
        {
            os << " p" << p << "=" << m_quanta[p];
        }
    }
}

uint32_t
VclosPfcHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
VclosPfcHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_opcode);
    start.WriteHtonU16(m_classEnable);
    for (uint16_t q : m_quanta)
    {
        start.WriteHtonU16(q);
    }
    start.WriteU8(0, SERIALIZED_SIZE - 4 - 2 * PRIORITIES);
}

uint32_t
VclosPfcHeader::Deserialize(Buffer::Iterator start)
{
    m_opcode = start.ReadNtohU16();
    m_classEnable = start.ReadNtohU16();
    for (uint16_t& q : m_quanta)
    {
        q = start.ReadNtohU16();
    }
    start.Next(SERIALIZED_SIZE - 4 - 2 * PRIORITIES);
    return SERIALIZED_SIZE;
}

void
VclosPfcHeader::SetPause(uint8_t priority, uint16_t quanta)
{
    m_classEnable |= static_cast<uint16_t>(1u << priority);
    m_quanta[priority] = quanta;
}

uint16_t
VclosPfcHeader::GetOpcode() const
{
    return m_opcode;
}

uint16_t
VclosPfcHeader::GetClassEnable() const
{
    return m_classEnable;
}

uint16_t
VclosPfcHeader::GetQuanta(uint8_t priority) const
{
    return m_quanta[priority];
}

} // namespace ns3
