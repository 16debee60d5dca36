/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The RoCEv2 transport headers (IBTA Vol. 1, 9.2 BTH, 9.3.3 RETH, 9.3.5 AETH, and the CNP of
// RoCEv2 annex A17) against bytes written out by hand from the layouts: each header writes
// them and reads them back. Negative controls: a DestQP or PSN wider than 24 bits is cut to
// 24, reserved bits set on the wire are ignored, a NAK syndrome reads as a NAK and an ACK's
// does not, and a CNP whose padding is not zero is flagged.
// Tests: roce-header
#include "ns3/packet.h"
#include "ns3/roce-header.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

std::vector<uint8_t>
Bytes(const Ptr<Packet>& p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

template <typename H>
std::vector<uint8_t>
Write(const H& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    return Bytes(p);
}

template <typename H>
H
Read(const std::vector<uint8_t>& b, uint32_t size)
{
    Ptr<Packet> p = Create<Packet>(b.data(), b.size());
    H h;
    EXPECT_EQ(p->RemoveHeader(h), size);
    return h;
}

/// A BTH of an RDMA WRITE FIRST, by hand (12 bytes).
const std::vector<uint8_t> HAND_BTH{
    0x06, // OpCode: RC RDMA WRITE First
    0xa0, // SE=1, M=0, PadCnt=2 (0b10 << 4), TVer=0
    0xff,
    0xff, // P_Key: default partition
    0x40, // F=0, B=1, 6 reserved bits
    0x12,
    0x34,
    0x56, // DestQP
    0x80, // A=1, 7 reserved bits
    0xab,
    0xcd,
    0xef, // PSN
};

RoceBth
HandBthFields()
{
    RoceBth h;
    h.opcode = RoceBth::RC_WRITE_FIRST;
    h.solicited = true;
    h.padCnt = 2;
    h.pKey = 0xffff;
    h.becn = true;
    h.destQp = 0x123456;
    h.ackReq = true;
    h.psn = 0xabcdef;
    return h;
}

} // namespace

TEST(RoceBth, WritesTheIbtaLayout)
{
    EXPECT_EQ(RoceBth().GetSerializedSize(), 12u);
    EXPECT_EQ(Write(HandBthFields()), HAND_BTH);
}

TEST(RoceBth, ReadsTheIbtaLayout)
{
    const RoceBth h = Read<RoceBth>(HAND_BTH, 12);
    EXPECT_EQ(h.opcode, RoceBth::RC_WRITE_FIRST);
    EXPECT_TRUE(h.HasReth());
    EXPECT_TRUE(h.solicited);
    EXPECT_FALSE(h.migReq);
    EXPECT_EQ(h.padCnt, 2);
    EXPECT_EQ(h.tver, 0);
    EXPECT_EQ(h.pKey, 0xffff);
    EXPECT_FALSE(h.fecn);
    EXPECT_TRUE(h.becn);
    EXPECT_EQ(h.destQp, 0x123456u);
    EXPECT_TRUE(h.ackReq);
    EXPECT_EQ(h.psn, 0xabcdefu);
}

TEST(RoceBth, CutsToTwentyFourBitsAndIgnoresReservedBits)
{
    RoceBth wide;
    wide.opcode = RoceBth::RC_ACKNOWLEDGE;
    wide.destQp = 0x1000001; // 25 bits
    wide.psn = 0xffffffff;
    const std::vector<uint8_t> b = Write(wide);
    const std::vector<uint8_t>
        expected{0x11, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0xff, 0xff, 0xff};
    EXPECT_EQ(b, expected);
    EXPECT_FALSE(wide.HasReth());
    // Reserved bits set: F/B byte 0x3f, A byte 0x7f; they read as F=B=0, A=0.
    std::vector<uint8_t> reserved = HAND_BTH;
    reserved[4] = 0x3f;
    reserved[8] = 0x7f;
    const RoceBth h = Read<RoceBth>(reserved, 12);
    EXPECT_FALSE(h.fecn);
    EXPECT_FALSE(h.becn);
    EXPECT_FALSE(h.ackReq);
    EXPECT_EQ(h.destQp, 0x123456u);
}

TEST(RoceReth, WritesAndReadsVaRkeyLength)
{
    RoceReth r;
    r.virtualAddress = 0x0102030405060708;
    r.rKey = 0x0a0b0c0d;
    r.dmaLength = 4096;
    const std::vector<uint8_t> expected{0x01,
                                        0x02,
                                        0x03,
                                        0x04,
                                        0x05,
                                        0x06,
                                        0x07,
                                        0x08,
                                        0x0a,
                                        0x0b,
                                        0x0c,
                                        0x0d,
                                        0x00,
                                        0x00,
                                        0x10,
                                        0x00};
    EXPECT_EQ(r.GetSerializedSize(), 16u);
    EXPECT_EQ(Write(r), expected);
    const RoceReth back = Read<RoceReth>(expected, 16);
    EXPECT_EQ(back.virtualAddress, 0x0102030405060708u);
    EXPECT_EQ(back.rKey, 0x0a0b0c0du);
    EXPECT_EQ(back.dmaLength, 4096u);
}

TEST(RoceAeth, SyndromeAndMsn)
{
    RoceAeth nak;
    nak.syndrome = RoceAeth::SYNDROME_NAK_SEQ;
    nak.msn = 0x000102;
    const std::vector<uint8_t> expected{0x60, 0x00, 0x01, 0x02};
    EXPECT_EQ(nak.GetSerializedSize(), 4u);
    EXPECT_EQ(Write(nak), expected);
    const RoceAeth back = Read<RoceAeth>(expected, 4);
    EXPECT_EQ(back.syndrome, 0x60);
    EXPECT_EQ(back.msn, 0x102u);
    EXPECT_TRUE(back.IsNak());
    // An ACK with unlimited credits (0x1f) and an RNR NAK (001 xxxxx) are not sequence NAKs.
    const RoceAeth ack = Read<RoceAeth>({0x1f, 0xff, 0xff, 0xff}, 4);
    EXPECT_FALSE(ack.IsNak());
    EXPECT_EQ(ack.msn, 0xffffffu);
    EXPECT_FALSE(Read<RoceAeth>({0x20, 0x00, 0x00, 0x00}, 4).IsNak());
}

TEST(RoceCnpPadding, SixteenZeroBytes)
{
    RoceCnpPadding pad;
    EXPECT_EQ(pad.GetSerializedSize(), 16u);
    EXPECT_EQ(Write(pad), std::vector<uint8_t>(16, 0x00));
    EXPECT_TRUE(Read<RoceCnpPadding>(std::vector<uint8_t>(16, 0x00), 16).allZero);
    std::vector<uint8_t> dirty(16, 0x00);
    dirty[15] = 0x01;
    EXPECT_FALSE(Read<RoceCnpPadding>(dirty, 16).allZero);
}
