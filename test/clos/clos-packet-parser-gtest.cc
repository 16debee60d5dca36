/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Header parsing used by the routing (5-tuple) and the tracker (5-tuple, sizes, pure ACKs).
// Tests: clos-packet-parser
#include "ns3/clos-packet-parser.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/ppp-header.h"
#include "ns3/roce-header.h"
#include "ns3/tcp-header.h"
#include "ns3/udp-header.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A TCP/IPv4 packet with `payload` bytes, optionally behind a PPP header.
Ptr<Packet>
MakeTcp(uint32_t payload, bool ppp, uint16_t fragmentOffset = 0)
{
    Ptr<Packet> p = Create<Packet>(payload);
    TcpHeader tcp;
    tcp.SetSourcePort(49153);
    tcp.SetDestinationPort(5001);
    p->AddHeader(tcp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.1.2"));
    ip.SetDestination(Ipv4Address("10.3.0.4"));
    ip.SetProtocol(6);
    ip.SetPayloadSize(p->GetSize());
    ip.SetFragmentOffset(fragmentOffset);
    p->AddHeader(ip);
    if (ppp)
    {
        PppHeader h;
        h.SetProtocol(0x0021);
        p->AddHeader(h);
    }
    return p;
}

/// A RoCEv2 packet (BTH with `opcode`, `payload` bytes) in UDP to `dstPort`, behind PPP.
Ptr<Packet>
MakeRoce(uint8_t opcode, uint32_t payload, uint16_t dstPort)
{
    Ptr<Packet> p = Create<Packet>(payload);
    RoceBth bth;
    bth.opcode = opcode;
    p->AddHeader(bth);
    UdpHeader udp;
    udp.SetSourcePort(0xC123);
    udp.SetDestinationPort(dstPort);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.1.2"));
    ip.SetDestination(Ipv4Address("10.3.0.4"));
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    p->AddHeader(ip);
    PppHeader h;
    h.SetProtocol(0x0021);
    p->AddHeader(h);
    return p;
}

} // namespace

// RoCEv2 ACKs/NAKs and CNPs carry no message bytes (the tracker skips them like TCP's pure
// ACKs); data packets do. The control: the same ACK bytes to another UDP port are not RoCE.
TEST(ClosPacketParser, FlagsRoceControlPackets)
{
    ClosParsedPacket parsed;
    for (uint8_t opcode : {RoceBth::RC_ACKNOWLEDGE, RoceBth::CNP})
    {
        ASSERT_TRUE(
            ClosParsePacket(MakeRoce(opcode, opcode == RoceBth::CNP ? 16 : 4, ROCE_UDP_PORT),
                            parsed));
        EXPECT_TRUE(parsed.roceControl) << int(opcode);
        EXPECT_FALSE(parsed.tcpNoPayload);
        EXPECT_EQ(parsed.tuple.protocol, 17);
        EXPECT_EQ(parsed.tuple.srcPort, 0xC123);
        EXPECT_EQ(parsed.tuple.dstPort, ROCE_UDP_PORT);
    }
    for (uint8_t opcode : {RoceBth::RC_WRITE_FIRST,
                           RoceBth::RC_WRITE_MIDDLE,
                           RoceBth::RC_WRITE_LAST,
                           RoceBth::RC_WRITE_ONLY})
    {
        ASSERT_TRUE(ClosParsePacket(MakeRoce(opcode, 1024, ROCE_UDP_PORT), parsed));
        EXPECT_FALSE(parsed.roceControl) << int(opcode);
        EXPECT_EQ(parsed.ipBytes, 20u + 8u + 12u + 1024u);
    }
    ASSERT_TRUE(ClosParsePacket(MakeRoce(RoceBth::RC_ACKNOWLEDGE, 4, 5001), parsed));
    EXPECT_FALSE(parsed.roceControl);
    // The TCP parse clears it.
    ASSERT_TRUE(ClosParsePacket(MakeTcp(0, true), parsed));
    EXPECT_FALSE(parsed.roceControl);
}

TEST(ClosPacketParser, ReadsTcpBehindPppAndBare)
{
    for (bool ppp : {true, false})
    {
        ClosParsedPacket parsed;
        ASSERT_TRUE(ClosParsePacket(MakeTcp(1000, ppp), parsed));
        EXPECT_EQ(parsed.tuple.srcAddress, Ipv4Address("10.0.1.2").Get());
        EXPECT_EQ(parsed.tuple.dstAddress, Ipv4Address("10.3.0.4").Get());
        EXPECT_EQ(parsed.tuple.srcPort, 49153);
        EXPECT_EQ(parsed.tuple.dstPort, 5001);
        EXPECT_EQ(parsed.tuple.protocol, 6);
        EXPECT_EQ(parsed.ipBytes, 20u + 20u + 1000u);
        EXPECT_FALSE(parsed.tcpNoPayload);
    }
}

TEST(ClosPacketParser, FlagsTcpWithoutPayload)
{
    ClosParsedPacket parsed;
    ASSERT_TRUE(ClosParsePacket(MakeTcp(0, true), parsed));
    EXPECT_TRUE(parsed.tcpNoPayload);
    EXPECT_EQ(parsed.ipBytes, 40u);
}

TEST(ClosPacketParser, LaterFragmentsHaveNoPorts)
{
    ClosParsedPacket parsed;
    ASSERT_TRUE(ClosParsePacket(MakeTcp(100, true, 1480), parsed));
    EXPECT_EQ(parsed.tuple.srcPort, 0);
    EXPECT_EQ(parsed.tuple.dstPort, 0);
}

TEST(ClosPacketParser, RefusesWhatIsNotIpv4)
{
    ClosParsedPacket parsed;
    EXPECT_FALSE(ClosParsePacket(Create<Packet>(64), parsed)); // zero bytes: version 0
    EXPECT_FALSE(ClosParsePacket(Create<Packet>(3), parsed));
}

TEST(ClosPacketParser, ExtractsTheTupleBehindARemovedHeader)
{
    Ptr<Packet> p = MakeTcp(10, false);
    Ipv4Header ip;
    p->RemoveHeader(ip);
    ClusterFiveTuple t = ClosExtractFiveTuple(ip, p);
    EXPECT_EQ(t.srcPort, 49153);
    EXPECT_EQ(t.dstPort, 5001);
    EXPECT_EQ(t.srcAddress, Ipv4Address("10.0.1.2").Get());
    ClusterFiveTuple noPayload = ClosExtractFiveTuple(ip, nullptr);
    EXPECT_EQ(noPayload.srcPort, 0);
}
