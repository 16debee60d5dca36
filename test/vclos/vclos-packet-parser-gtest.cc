/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Header parsing used by the routing (5-tuple) and the tracker (5-tuple, sizes, pure ACKs).
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/ppp-header.h"
#include "ns3/tcp-header.h"
#include "ns3/udp-header.h"
#include "ns3/vclos-packet-parser.h"

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

} // namespace

TEST(VclosPacketParser, ReadsTcpBehindPppAndBare)
{
    for (bool ppp : {true, false})
    {
        VclosParsedPacket parsed;
        ASSERT_TRUE(VclosParsePacket(MakeTcp(1000, ppp), parsed));
        EXPECT_EQ(parsed.tuple.srcAddress, Ipv4Address("10.0.1.2").Get());
        EXPECT_EQ(parsed.tuple.dstAddress, Ipv4Address("10.3.0.4").Get());
        EXPECT_EQ(parsed.tuple.srcPort, 49153);
        EXPECT_EQ(parsed.tuple.dstPort, 5001);
        EXPECT_EQ(parsed.tuple.protocol, 6);
        EXPECT_EQ(parsed.ipBytes, 20u + 20u + 1000u);
        EXPECT_FALSE(parsed.tcpNoPayload);
    }
}

TEST(VclosPacketParser, FlagsTcpWithoutPayload)
{
    VclosParsedPacket parsed;
    ASSERT_TRUE(VclosParsePacket(MakeTcp(0, true), parsed));
    EXPECT_TRUE(parsed.tcpNoPayload);
    EXPECT_EQ(parsed.ipBytes, 40u);
}

TEST(VclosPacketParser, LaterFragmentsHaveNoPorts)
{
    VclosParsedPacket parsed;
    ASSERT_TRUE(VclosParsePacket(MakeTcp(100, true, 1480), parsed));
    EXPECT_EQ(parsed.tuple.srcPort, 0);
    EXPECT_EQ(parsed.tuple.dstPort, 0);
}

TEST(VclosPacketParser, RefusesWhatIsNotIpv4)
{
    VclosParsedPacket parsed;
    EXPECT_FALSE(VclosParsePacket(Create<Packet>(64), parsed)); // zero bytes: version 0
    EXPECT_FALSE(VclosParsePacket(Create<Packet>(3), parsed));
}

TEST(VclosPacketParser, ExtractsTheTupleBehindARemovedHeader)
{
    Ptr<Packet> p = MakeTcp(10, false);
    Ipv4Header ip;
    p->RemoveHeader(ip);
    VclosFiveTuple t = VclosExtractFiveTuple(ip, p);
    EXPECT_EQ(t.srcPort, 49153);
    EXPECT_EQ(t.dstPort, 5001);
    EXPECT_EQ(t.srcAddress, Ipv4Address("10.0.1.2").Get());
    VclosFiveTuple noPayload = VclosExtractFiveTuple(ip, nullptr);
    EXPECT_EQ(noPayload.srcPort, 0);
}
