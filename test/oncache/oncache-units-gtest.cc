/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Simulator-free tests: LRU cache, VXLAN header and overhead, flow keys, conntrack, policy, modes.
// Tests: oncache-lru-cache, oncache-vxlan-header, oncache-flow-key, oncache-conntrack
// Tests: oncache-host-datapath, oncache-policy, oncache-mode, oncache-limits, oncache-cost-model
// Tests: oncache-fast-path
#include "ns3/double.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/oncache-conntrack.h"
#include "ns3/oncache-cost-model.h"
#include "ns3/oncache-fast-path.h"
#include "ns3/oncache-flow-key.h"
#include "ns3/oncache-host-cpu.h"
#include "ns3/oncache-host-datapath.h"
#include "ns3/oncache-kv-client.h"
#include "ns3/oncache-limits.h"
#include "ns3/oncache-lru-cache.h"
#include "ns3/oncache-mode.h"
#include "ns3/oncache-policy.h"
#include "ns3/oncache-vxlan-header.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-option-sack.h"
#include "ns3/tcp-option-ts.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

OncacheFlowKey
Flow(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint8_t proto = 6)
{
    OncacheFlowKey k;
    k.srcAddress = src;
    k.dstAddress = dst;
    k.srcPort = sport;
    k.dstPort = dport;
    k.protocol = proto;
    return k;
}

/// Run a callable expected to throw E; return its message.
template <typename E, typename F>
std::string
ThrownMessage(F f)
{
    try
    {
        f();
    }
    catch (const E& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(OncacheLruCache, EvictsTheLeastRecentlyUsedEntry)
{
    OncacheLruCache<int, int> cache(2);
    cache.Insert(1, 10);
    cache.Insert(2, 20);
    ASSERT_NE(cache.Lookup(1), nullptr); // 1 is now the most recent
    cache.Insert(3, 30);                 // evicts 2
    EXPECT_EQ(cache.Lookup(2), nullptr);
    ASSERT_NE(cache.Lookup(1), nullptr);
    EXPECT_EQ(*cache.Lookup(1), 10);
    EXPECT_EQ(*cache.Lookup(3), 30);
    EXPECT_EQ(cache.Size(), 2u);
    EXPECT_EQ(cache.Evictions(), 1u);
}

TEST(OncacheLruCache, PeekDoesNotRefresh)
{
    OncacheLruCache<int, int> cache(2);
    cache.Insert(1, 10);
    cache.Insert(2, 20);
    ASSERT_NE(cache.Peek(1), nullptr);
    cache.Insert(3, 30); // 1 was not refreshed: it goes
    EXPECT_EQ(cache.Peek(1), nullptr);
    EXPECT_NE(cache.Peek(2), nullptr);
}

TEST(OncacheLruCache, NoExistKeepsTheOldValue)
{
    OncacheLruCache<int, int> cache(4);
    EXPECT_TRUE(cache.Insert(1, 10, true));
    EXPECT_FALSE(cache.Insert(1, 11, true));
    EXPECT_EQ(*cache.Lookup(1), 10);
    EXPECT_TRUE(cache.Insert(1, 12));
    EXPECT_EQ(*cache.Lookup(1), 12);
}

TEST(OncacheLruCache, EraseAndEraseIf)
{
    OncacheLruCache<int, int> cache(8);
    for (int i = 0; i < 6; ++i)
    {
        cache.Insert(i, i * 10);
    }
    EXPECT_TRUE(cache.Erase(0));
    EXPECT_FALSE(cache.Erase(0));
    EXPECT_EQ(cache.EraseIf([](int k, int) { return k % 2 == 1; }), 3u);
    EXPECT_EQ(cache.Size(), 2u);
    EXPECT_NE(cache.Peek(2), nullptr);
    EXPECT_NE(cache.Peek(4), nullptr);
    cache.Insert(9, 90); // the index must still be consistent after the erasures
    EXPECT_EQ(cache.Size(), 3u);
}

TEST(OncacheLruCache, ZeroCapacityIsRejectedWithTheAttributeName)
{
    std::string message = ThrownMessage<std::invalid_argument>(
        [] { OncacheLruCache<int, int> cache(0, "FilterCacheSize"); });
    EXPECT_NE(message.find("FilterCacheSize"), std::string::npos) << message;
}

TEST(OncacheVxlanHeader, SerializesToEightBytesWithFlagsAndVni)
{
    OncacheVxlanHeader header;
    header.SetVni(0xABCDEF);
    Ptr<Packet> packet = Create<Packet>(0);
    packet->AddHeader(header);
    ASSERT_EQ(packet->GetSize(), 8u);
    uint8_t bytes[8];
    packet->CopyData(bytes, 8);
    EXPECT_EQ(bytes[0], 0x08);
    EXPECT_EQ(bytes[1] | bytes[2] | bytes[3] | bytes[7], 0);
    EXPECT_EQ(bytes[4], 0xAB);
    EXPECT_EQ(bytes[5], 0xCD);
    EXPECT_EQ(bytes[6], 0xEF);
    OncacheVxlanHeader parsed;
    packet->RemoveHeader(parsed);
    EXPECT_TRUE(parsed.IsValid());
    EXPECT_EQ(parsed.GetVni(), 0xABCDEFu);
    EXPECT_THROW(header.SetVni(1u << 24), std::out_of_range);
}

TEST(OncacheVxlanHeader, OuterHeadersMakeFiftyBytes)
{
    EthernetHeader outerEthernet(false);
    Ipv4Header ip;
    UdpHeader udp;
    OncacheVxlanHeader vxlan;
    EXPECT_EQ(outerEthernet.GetSerializedSize(), 14u);
    EXPECT_EQ(ip.GetSerializedSize(), 20u);
    EXPECT_EQ(udp.GetSerializedSize(), 8u);
    EXPECT_EQ(vxlan.GetSerializedSize(), 8u);
    // On the MTU budget the outer Ethernet header is replaced by the inner one.
    EXPECT_EQ(ip.GetSerializedSize() + udp.GetSerializedSize() + vxlan.GetSerializedSize() +
                  EthernetHeader(false).GetSerializedSize(),
              OncacheVxlanHeader::OVERHEAD);
}

TEST(OncacheFlowKey, ReverseAndCanonical)
{
    OncacheFlowKey a = Flow(1, 2, 100, 200);
    OncacheFlowKey b = a.Reversed();
    EXPECT_EQ(b, Flow(2, 1, 200, 100));
    EXPECT_EQ(a.Canonical(), b.Canonical());
    EXPECT_EQ(b.Reversed(), a);
    EXPECT_NE(a.Hash(), b.Hash());
}

TEST(OncacheFlowKey, ParsesAFirstFragmentWithATruncatedTcpHeader)
{
    // At a 68-byte pod MTU a TCP ACK with timestamps and 3 SACK blocks (a 56-byte header) is
    // fragmented: the first fragment carries only 48 bytes of it. Build those bytes alone.
    TcpHeader tcp;
    tcp.SetSourcePort(40000);
    tcp.SetDestinationPort(5001);
    tcp.SetFlags(TcpHeader::ACK);
    tcp.AppendOption(CreateObject<TcpOptionTS>());
    Ptr<TcpOptionSack> sack = CreateObject<TcpOptionSack>();
    for (uint32_t i = 1; i <= 3; ++i)
    {
        sack->AddSackBlock({SequenceNumber32(1000 * i), SequenceNumber32(1000 * i + 100)});
    }
    tcp.AppendOption(sack);
    ASSERT_EQ(tcp.GetSerializedSize(), 56u);
    Ptr<Packet> whole = Create<Packet>();
    whole->AddHeader(tcp);
    std::vector<uint8_t> bytes(48);
    whole->CopyData(bytes.data(), 48);
    Ptr<Packet> fragment = Create<Packet>(bytes.data(), 48);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.244.0.2"));
    ip.SetDestination(Ipv4Address("10.244.1.2"));
    ip.SetProtocol(6);
    ip.SetPayloadSize(48);
    ip.SetMoreFragments();
    fragment->AddHeader(ip);
    Ipv4Header parsed;
    uint32_t payload = 1;
    OncacheFlowKey key = OncacheParseFlow(fragment, parsed, &payload);
    EXPECT_EQ(key,
              Flow(Ipv4Address("10.244.0.2").Get(), Ipv4Address("10.244.1.2").Get(), 40000, 5001));
    EXPECT_EQ(payload, 0u);
}

TEST(OncacheConntrack, NewThenEstablishedOnTheReply)
{
    Ptr<OncacheConntrack> ct = CreateObject<OncacheConntrack>();
    OncacheFlowKey syn = Flow(1, 2, 100, 200);
    EXPECT_EQ(ct->Track(syn), OncacheConntrack::NEW);
    EXPECT_EQ(ct->Track(syn), OncacheConntrack::NEW); // a retransmitted SYN
    EXPECT_EQ(ct->Track(syn.Reversed()), OncacheConntrack::ESTABLISHED);
    EXPECT_EQ(ct->Track(syn), OncacheConntrack::ESTABLISHED);
    EXPECT_EQ(ct->GetSize(), 1u);
    ct->Forget(syn.Reversed());
    EXPECT_FALSE(ct->IsTracked(syn));
}

TEST(OncacheConntrack, EntriesExpireAfterTheirTimeout)
{
    Ptr<OncacheConntrack> ct = CreateObject<OncacheConntrack>();
    ct->SetAttribute("NewTimeout", TimeValue(MilliSeconds(10)));
    ct->SetAttribute("TcpEstablishedTimeout", TimeValue(MilliSeconds(100)));
    OncacheFlowKey syn = Flow(1, 2, 100, 200);
    std::vector<OncacheConntrack::State> states;
    auto track = [&](OncacheFlowKey f) { states.push_back(ct->Track(f)); };
    Simulator::Schedule(MilliSeconds(0), [&track, f = syn]() { track(f); });
    Simulator::Schedule(MilliSeconds(20),
                        [&track, f = syn.Reversed()]() { track(f); }); // too late: the SYN expired
    Simulator::Schedule(MilliSeconds(21),
                        [&track, f = syn]() { track(f); }); // a reply to that: established
    Simulator::Schedule(MilliSeconds(90),
                        [&track, f = syn]() { track(f); }); // within 100 ms: established
    Simulator::Schedule(MilliSeconds(250),
                        [&track, f = syn]() { track(f); }); // idle 160 ms: expired, new
    Simulator::Run();
    Simulator::Destroy();
    std::vector<OncacheConntrack::State> expected = {OncacheConntrack::NEW,
                                                     OncacheConntrack::NEW,
                                                     OncacheConntrack::ESTABLISHED,
                                                     OncacheConntrack::ESTABLISHED,
                                                     OncacheConntrack::NEW};
    EXPECT_EQ(states, expected);
    EXPECT_EQ(ct->GetExpirations(), 2u);
}

TEST(OncacheHostDatapath, AppWorkOutsideAClusterRunsAtOnce)
{
    Ptr<Node> node = CreateObject<Node>();
    bool done = false;
    OncacheHostDatapath::RunOnAppCore(node, MicroSeconds(3), [&done]() { done = true; });
    EXPECT_TRUE(done); // not a pod: no core to queue on
    done = false;
    OncacheHostDatapath::RunOnAppCore(node, Time(0), [&done]() { done = true; });
    EXPECT_TRUE(done);
    Simulator::Destroy();
}

TEST(OncachePolicy, FirstMatchWinsAndDefaultApplies)
{
    Ptr<OncachePolicy> policy = CreateObject<OncachePolicy>();
    OncacheFlowKey flow =
        Flow(Ipv4Address("10.244.0.2").Get(), Ipv4Address("10.244.1.2").Get(), 40000, 5001);
    EXPECT_TRUE(policy->IsAllowed(flow));
    OncachePolicyRule deny;
    deny.dstAddress = Ipv4Address("10.244.1.0");
    deny.dstMask = Ipv4Mask("255.255.255.0");
    deny.dstPort = 5001;
    deny.allow = false;
    policy->InsertRule(deny, 0);
    EXPECT_FALSE(policy->IsAllowed(flow));
    EXPECT_TRUE(policy->IsAllowed(flow.Reversed()));
    EXPECT_TRUE(deny.MatchesEitherWay(flow.Reversed()));
    OncachePolicyRule allow;
    allow.srcAddress = Ipv4Address("10.244.0.2");
    allow.srcMask = Ipv4Mask("255.255.255.255");
    policy->InsertRule(allow, 0);
    EXPECT_TRUE(policy->IsAllowed(flow));
    EXPECT_THROW(policy->InsertRule(allow, 5), std::out_of_range);
}

TEST(OncacheMode, ParsesNamesAndRejectsUnknownOnes)
{
    for (auto mode : {ONCACHE_MODE_BARE_METAL,
                      ONCACHE_MODE_OVERLAY,
                      ONCACHE_MODE_ONCACHE,
                      ONCACHE_MODE_ONCACHE_RPEER})
    {
        EXPECT_EQ(OncacheModeFromString(OncacheModeToString(mode)), mode);
    }
    std::string message =
        ThrownMessage<std::invalid_argument>([] { OncacheModeFromString("Cilium"); });
    EXPECT_NE(message.find("Mode"), std::string::npos) << message;
    EXPECT_NE(message.find("Cilium"), std::string::npos) << message;
}

TEST(OncacheLimits, DerivedFromTheHeaders)
{
    // RFC 791: 68 bytes; VXLAN adds outer IPv4 20 + UDP 8 + VXLAN 8 + inner Ethernet 14.
    EXPECT_EQ(OncacheMinUnderlayMtu(ONCACHE_MODE_BARE_METAL), 68u);
    EXPECT_EQ(OncacheMinUnderlayMtu(ONCACHE_MODE_OVERLAY), 118u);
    EXPECT_EQ(OncacheMinUnderlayMtu(ONCACHE_MODE_ONCACHE), 118u);
    // 65535 - IPv4 20 - UDP 8.
    EXPECT_EQ(OncacheMaxUdpPayload(), 65507u);
    EXPECT_EQ(OncacheTcpSendBuffer(), 131072u); // ns-3's default SndBufSize
    EXPECT_EQ(OncacheMinLinkRate(1538).GetBitRate(), 12304u);
}

TEST(OncacheLimits, OneSendRefusesWhatTheSocketRefuses)
{
    const TypeId udp = TypeId::LookupByName("ns3::UdpSocketFactory");
    const TypeId tcp = TypeId::LookupByName("ns3::TcpSocketFactory");
    EXPECT_NO_THROW(OncacheRequireOneSend("RequestSize", 65507, udp));
    EXPECT_NE(ThrownMessage<std::invalid_argument>([&] {
                  OncacheRequireOneSend("RequestSize", 65508, udp);
              }).find("RequestSize"),
              std::string::npos);
    EXPECT_NO_THROW(OncacheRequireOneSend("ResponseSize", 131072, tcp));
    EXPECT_NE(ThrownMessage<std::invalid_argument>([&] {
                  OncacheRequireOneSend("ResponseSize", 131073, tcp);
              }).find("ResponseSize"),
              std::string::npos);
    EXPECT_NE(ThrownMessage<std::invalid_argument>([] {
                  OncacheRequireOneSend("RequestSize", 1, TypeId::LookupByName("ns3::Node"));
              }).find("Protocol"),
              std::string::npos);
}

TEST(OncacheLimits, CostsAndDelaysHaveUpperBounds)
{
    // Above these, sums of costs and event times overflowed ns-3's 64-bit nanoseconds.
    Ptr<OncacheCostModel> costs = CreateObject<OncacheCostModel>();
    EXPECT_TRUE(costs->SetAttributeFailSafe("AppTx", TimeValue(Seconds(1))));
    EXPECT_FALSE(costs->SetAttributeFailSafe("AppTx", TimeValue(Seconds(2))));
    EXPECT_FALSE(costs->SetAttributeFailSafe("RxCopyNsPerByte", DoubleValue(1e300)));
    EXPECT_TRUE(costs->SetAttributeFailSafe("OverlaySegment", TimeValue(Seconds(1))));
    EXPECT_FALSE(costs->SetAttributeFailSafe("OverlaySegment", TimeValue(Seconds(2))));
    EXPECT_FALSE(costs->SetAttributeFailSafe("Wakeup", TimeValue(Seconds(2))));
    Ptr<OncacheHostDatapath> datapath = CreateObject<OncacheHostDatapath>();
    EXPECT_FALSE(datapath->SetAttributeFailSafe("LinkDelay", TimeValue(Seconds(2))));
    EXPECT_TRUE(datapath->SetAttributeFailSafe("WireMtu", UintegerValue(68)));
    EXPECT_FALSE(datapath->SetAttributeFailSafe("WireMtu", UintegerValue(67)));
    Ptr<OncacheKvClient> kv = CreateObject<OncacheKvClient>();
    EXPECT_FALSE(kv->SetAttributeFailSafe("ResponseOverhead", UintegerValue(UINT32_MAX)));
    Ptr<OncacheHostCpu> cpu = CreateObject<OncacheHostCpu>();
    EXPECT_FALSE(cpu->SetAttributeFailSafe("Cores", UintegerValue(8193)));
}

namespace
{
/// RFC 1071 sum over an IPv4 header: 0 when its checksum is right.
uint16_t
Ipv4HeaderSum(const std::vector<uint8_t>& b, std::size_t off)
{
    uint32_t sum = 0;
    for (std::size_t i = 0; i < 20; i += 2)
    {
        sum += static_cast<uint32_t>(b[off + i] << 8 | b[off + i + 1]);
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}
} // namespace

// A pod's own DSCP bits never count as marks: the egress fast path overwrites both
// mark bits, so after a miss only the miss mark is set (EF 0xb8 leaves as 0xb4, not 0xbc).
TEST(OncacheFastPath, PodDscpBitsAreOverwrittenByTheMarks)
{
    for (uint8_t tos : {uint8_t(0xb8), uint8_t(0x28), uint8_t(0x0c)})
    {
        ns3::OncacheFastPath fastPath;
        ns3::OncacheFastPath::Frame frame;
        // Ethernet (IPv4), IPv4 198.19.1.10 -> 198.19.2.10 TCP with tos, ports 1000 -> 80.
        frame.bytes = {2,    0,    0,   0,  0,   1,  2, 0,    0,    0,    0, 2, 0x08,
                       0x00, 0x45, tos, 0,  24,  0,  0, 0x40, 0,    64,   6, 0, 0,
                       198,  19,   1,   10, 198, 19, 2, 10,   0x03, 0xe8, 0, 80};
        uint16_t sum = Ipv4HeaderSum(frame.bytes, 14);
        frame.bytes[24] = sum >> 8;
        frame.bytes[25] = sum & 0xff;
        frame.length = static_cast<uint32_t>(frame.bytes.size());
        ns3::OncacheFastPath::Result r = fastPath.Egress(frame, 0, 0);
        EXPECT_EQ(r.verdict, ns3::OncacheFastPath::VERDICT_MISS);
        EXPECT_FALSE(r.redirect);
        EXPECT_EQ(frame.bytes[15], (tos & 0xf0) | 0x04) << int(tos);
        EXPECT_EQ(Ipv4HeaderSum(frame.bytes, 14), 0) << "checksum updated";
    }
}
