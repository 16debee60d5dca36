/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceBth);
NS_OBJECT_ENSURE_REGISTERED(RoceReth);
NS_OBJECT_ENSURE_REGISTERED(RoceAeth);
NS_OBJECT_ENSURE_REGISTERED(RoceCnpPadding);

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

RoceBth::RoceBth() = default;

TypeId
RoceBth::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceBth").SetParent<Header>().SetGroupName("Roce").AddConstructor<RoceBth>();
    return tid;
}

TypeId
RoceBth::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceBth::GetSerializedSize() const
{
    return 12;
}

void
RoceBth::Serialize(Buffer::Iterator start) const
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
RoceBth::Deserialize(Buffer::Iterator start)
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
RoceBth::Print(std::ostream& os) const
{
    os << "opcode=0x" << std::hex << unsigned{opcode} << std::dec << " qp=" << destQp
       << " psn=" << psn << " a=" << ackReq << " pad=" << unsigned{padCnt} << " becn=" << becn;
}

TypeId
RoceReth::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceReth").SetParent<Header>().SetGroupName("Roce").AddConstructor<RoceReth>();
    return tid;
}

TypeId
RoceReth::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceReth::GetSerializedSize() const
{
    return 16;
}

void
RoceReth::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU64(virtualAddress);
    i.WriteHtonU32(rKey);
    i.WriteHtonU32(dmaLength);
}

uint32_t
RoceReth::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    virtualAddress = i.ReadNtohU64();
    rKey = i.ReadNtohU32();
    dmaLength = i.ReadNtohU32();
    return 16;
}

void
RoceReth::Print(std::ostream& os) const
{
    os << "va=" << virtualAddress << " rkey=" << rKey << " len=" << dmaLength;
}

TypeId
RoceAeth::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceAeth").SetParent<Header>().SetGroupName("Roce").AddConstructor<RoceAeth>();
    return tid;
}

TypeId
RoceAeth::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceAeth::GetSerializedSize() const
{
    return 4;
}

void
RoceAeth::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(syndrome);
    Write24(i, msn & RoceBth::MASK24);
}

uint32_t
RoceAeth::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    syndrome = i.ReadU8();
    msn = Read24(i);
    return 4;
}

void
RoceAeth::Print(std::ostream& os) const
{
    os << (IsNak() ? "NAK" : "ACK") << " syndrome=0x" << std::hex << unsigned{syndrome} << std::dec
       << " msn=" << msn;
}

TypeId
RoceCnpPadding::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceCnpPadding")
                            .SetParent<Header>()
                            .SetGroupName("Roce")
                            .AddConstructor<RoceCnpPadding>();
    return tid;
}

TypeId
RoceCnpPadding::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceCnpPadding::GetSerializedSize() const
{
    return SIZE;
}

void
RoceCnpPadding::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(0, SIZE);
}

uint32_t
RoceCnpPadding::Deserialize(Buffer::Iterator start)
{
    allZero = true;
    for (uint32_t k = 0; k < SIZE; ++k)
    {
        allZero = allZero && start.ReadU8() == 0;
    }
    return SIZE;
}

void
RoceCnpPadding::Print(std::ostream& os) const
{
    os << "cnp-padding zero=" << allZero;
}

} // namespace ns3
