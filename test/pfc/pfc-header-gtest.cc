/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// PfcHeader against a PFC frame's MAC control payload written out by hand from IEEE 802.1Qbb
// (frame format of IEEE 802.3 Annex 31D): opcode 0x0101, the priority-enable vector (one bit
// per priority in its low byte), eight 2-byte pause times for priorities 0 to 7, zero padding
// to the 46-byte minimum.
// Both ways: the header writes those bytes, and reads them back. Negative control: a PAUSE
// frame of 802.3x (opcode 0x0001) reads as another opcode, which the receiver refuses.
// Tests: pfc-header
#include "ns3/packet.h"
#include "ns3/pfc-header.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/// Priority 3 paused for 0xffff quanta, priority 5 for 16 quanta, by hand.
std::vector<uint8_t>
HandFrame()
{
    std::vector<uint8_t> b{
        0x01, 0x01,             // opcode: priority-based flow control
        0x00, 0x28,             // class-enable vector: e[3] and e[5] (0b0010'1000)
        0x00, 0x00, 0x00, 0x00, // time[0], time[1]
        0x00, 0x00, 0xff, 0xff, // time[2], time[3] = 65535
        0x00, 0x00, 0x00, 0x10, // time[4], time[5] = 16
        0x00, 0x00, 0x00, 0x00, // time[6], time[7]
    };
    b.resize(46, 0x00); // 26 bytes of pad
    return b;
}

std::vector<uint8_t>
Bytes(const Ptr<Packet>& p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

} // namespace

TEST(PfcHeader, WritesTheBytesOf8021Qbb)
{
    PfcHeader h;
    h.SetPause(3, 0xffff);
    h.SetPause(5, 16);
    EXPECT_EQ(h.GetSerializedSize(), 46u);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    EXPECT_EQ(Bytes(p), HandFrame());
}

TEST(PfcHeader, ReadsTheBytesOf8021Qbb)
{
    const std::vector<uint8_t> b = HandFrame();
    Ptr<Packet> p = Create<Packet>(b.data(), b.size());
    PfcHeader h;
    EXPECT_EQ(p->RemoveHeader(h), 46u);
    EXPECT_EQ(p->GetSize(), 0u);
    EXPECT_EQ(h.GetOpcode(), PfcHeader::OPCODE);
    EXPECT_EQ(h.GetClassEnable(), 0x28);
    const uint16_t expected[8] = {0, 0, 0, 0xffff, 0, 16, 0, 0};
    for (uint8_t prio = 0; prio < 8; ++prio)
    {
        EXPECT_EQ(h.GetQuanta(prio), expected[prio]) << "priority " << int(prio);
    }
}

TEST(PfcHeader, ResumeIsAnEnabledClassWithZeroTime)
{
    // XON for priority 0: e[0] set, time[0] = 0 (the pause ends at once).
    PfcHeader h;
    h.SetPause(0, 0);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    const std::vector<uint8_t> b = Bytes(p);
    ASSERT_EQ(b.size(), 46u);
    EXPECT_EQ(b[2], 0x00);
    EXPECT_EQ(b[3], 0x01);
    EXPECT_EQ(b[4], 0x00);
    EXPECT_EQ(b[5], 0x00);
}

TEST(PfcHeader, APauseFrameOf8023xIsNotPfc)
{
    // 802.3x PAUSE: opcode 0x0001, then one 2-byte pause time (here 0x0100).
    std::vector<uint8_t> b{0x00, 0x01, 0x01, 0x00};
    b.resize(46, 0x00);
    Ptr<Packet> p = Create<Packet>(b.data(), b.size());
    PfcHeader h;
    p->RemoveHeader(h);
    EXPECT_EQ(h.GetOpcode(), 0x0001);
    EXPECT_NE(h.GetOpcode(), PfcHeader::OPCODE);
}
