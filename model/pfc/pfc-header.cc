/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Pfc")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
PfcHeader::Print(std::ostream& os) const
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
PfcHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
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
PfcHeader::Deserialize(Buffer::Iterator start)
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
PfcHeader::SetPause(uint8_t priority, uint16_t quanta)
{
    m_classEnable |= static_cast<uint16_t>(1u << priority);
    m_quanta[priority] = quanta;
}

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

uint16_t
PfcHeader::GetClassEnable() const
{
    return m_classEnable;
}

uint16_t
PfcHeader::GetQuanta(uint8_t priority) const
{
    return m_quanta[priority];
}

} // namespace ns3
