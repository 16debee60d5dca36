/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-roce-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(VclosRoceBth);
NS_OBJECT_ENSURE_REGISTERED(VclosRoceReth);
NS_OBJECT_ENSURE_REGISTERED(VclosRoceAeth);
NS_OBJECT_ENSURE_REGISTERED(VclosRoceCnpPadding);

namespace
{

void
Write24(Buffer::Iterator& i, uint32_t value)
{
    i.WriteU8((value >> 16) & 0xFF);
    i.WriteU8((value >> 8) & 0xFF);
    i.WriteU8(value & 0xFF);
}

uint32_t
Read24(Buffer::Iterator& i)
{
    uint32_t value = i.ReadU8();
    value = (value << 8) | i.ReadU8();
    return (value << 8) | i.ReadU8();
}

} // namespace

VclosRoceBth::VclosRoceBth() = default;

TypeId
VclosRoceBth::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VclosRoceBth")
                            .SetParent<Header>()
                            .SetGroupName("Vclos")
                            .AddConstructor<VclosRoceBth>();
    return tid;
}

TypeId
VclosRoceBth::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
VclosRoceBth::GetSerializedSize() const
{
    return 12;
}

void
VclosRoceBth::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(opcode);
    i.WriteU8((solicited ? 0x80 : 0) | (migReq ? 0x40 : 0) | ((padCnt & 0x3) << 4) | (tver & 0xF));
    i.WriteHtonU16(pKey);
    i.WriteU8((fecn ? 0x80 : 0) | (becn ? 0x40 : 0));
    Write24(i, destQp & MASK24);
    i.WriteU8(ackReq ? 0x80 : 0);
    Write24(i, psn & MASK24);
}

uint32_t
VclosRoceBth::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    opcode = i.ReadU8();
    uint8_t flags = i.ReadU8();
    solicited = flags & 0x80;
    migReq = flags & 0x40;
    padCnt = (flags >> 4) & 0x3;
    tver = flags & 0xF;
    pKey = i.ReadNtohU16();
    uint8_t fb = i.ReadU8();
    fecn = fb & 0x80;
    becn = fb & 0x40;
    destQp = Read24(i);
    ackReq = i.ReadU8() & 0x80;
    psn = Read24(i);
    return 12;
}

void
VclosRoceBth::Print(std::ostream& os) const
{
    os << "opcode=0x" << std::hex << unsigned{opcode} << std::dec << " qp=" << destQp
       << " psn=" << psn << " a=" << ackReq << " pad=" << unsigned{padCnt} << " becn=" << becn;
}

TypeId
VclosRoceReth::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VclosRoceReth")
                            .SetParent<Header>()
                            .SetGroupName("Vclos")
                            .AddConstructor<VclosRoceReth>();
    return tid;
}

TypeId
VclosRoceReth::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
VclosRoceReth::GetSerializedSize() const
{
    return 16;
}

void
VclosRoceReth::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU64(virtualAddress);
    i.WriteHtonU32(rKey);
    i.WriteHtonU32(dmaLength);
}

uint32_t
VclosRoceReth::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    virtualAddress = i.ReadNtohU64();
    rKey = i.ReadNtohU32();
    dmaLength = i.ReadNtohU32();
    return 16;
}

void
VclosRoceReth::Print(std::ostream& os) const
{
    os << "va=" << virtualAddress << " rkey=" << rKey << " len=" << dmaLength;
}

TypeId
VclosRoceAeth::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VclosRoceAeth")
                            .SetParent<Header>()
                            .SetGroupName("Vclos")
                            .AddConstructor<VclosRoceAeth>();
    return tid;
}

TypeId
VclosRoceAeth::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
VclosRoceAeth::GetSerializedSize() const
{
    return 4;
}

void
VclosRoceAeth::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(syndrome);
    Write24(i, msn & VclosRoceBth::MASK24);
}

uint32_t
VclosRoceAeth::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    syndrome = i.ReadU8();
    msn = Read24(i);
    return 4;
}

void
VclosRoceAeth::Print(std::ostream& os) const
{
    os << (IsNak() ? "NAK" : "ACK") << " syndrome=0x" << std::hex << unsigned{syndrome} << std::dec
       << " msn=" << msn;
}

TypeId
VclosRoceCnpPadding::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VclosRoceCnpPadding")
                            .SetParent<Header>()
                            .SetGroupName("Vclos")
                            .AddConstructor<VclosRoceCnpPadding>();
    return tid;
}

TypeId
VclosRoceCnpPadding::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
VclosRoceCnpPadding::GetSerializedSize() const
{
    return SIZE;
}

void
VclosRoceCnpPadding::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(0, SIZE);
}

uint32_t
VclosRoceCnpPadding::Deserialize(Buffer::Iterator start)
{
    allZero = true;
    for (uint32_t k = 0; k < SIZE; ++k)
    {
        allZero = allZero && start.ReadU8() == 0;
    }
    return SIZE;
}

void
VclosRoceCnpPadding::Print(std::ostream& os) const
{
    os << "cnp-padding zero=" << allZero;
}

} // namespace ns3
