/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fabric structure: node and link counts, addressing, reachability and hop counts.
// Tests: clos-fabric, clos-fabric-helper
#include "ns3/clos-fabric-helper.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <map>

using namespace ns3;

namespace
{

/// \return a fabric helper with the given shape
Ptr<ClosFabricHelper>
MakeHelper(uint32_t leaves, uint32_t spines, uint32_t servers, uint32_t gpus)
{
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("Leaves", UintegerValue(leaves));
    helper->SetAttribute("Spines", UintegerValue(spines));
    helper->SetAttribute("ServersPerLeaf", UintegerValue(servers));
    helper->SetAttribute("GpusPerServer", UintegerValue(gpus));
    return helper;
}

/**
 * Every GPU sends one UDP datagram to every other GPU; the receiver records the TTL, so
 * hop counts are checked along with reachability.
 */
class ReachabilityProbe
{
  public:
    /// \param fabric the fabric to probe
    explicit ReachabilityProbe(Ptr<ClosFabric> fabric)
        : m_fabric(fabric)
    {
        uint32_t n = fabric->GetGpuCount();
        for (uint32_t g = 0; g < n; ++g)
        {
            Ptr<Socket> s =
                Socket::CreateSocket(fabric->GetGpus().Get(g), UdpSocketFactory::GetTypeId());
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
            s->SetIpRecvTtl(true);
            s->SetRecvCallback(MakeCallback(&ReachabilityProbe::Receive, this));
            m_sockets.push_back(s);
            m_gpuOfNode[fabric->GetGpus().Get(g)->GetId()] = g;
        }
        for (uint32_t src = 0; src < n; ++src)
        {
            for (uint32_t dst = 0; dst < n; ++dst)
            {
                if (src != dst)
                {
                    Simulator::Schedule(MicroSeconds(src), [this, src, dst]() {
                        Ptr<Packet> p = Create<Packet>(100);
                        m_sockets[src]->SendTo(p,
                                               0,
                                               InetSocketAddress(m_fabric->GetGpuAddress(dst), 9));
                    });
                }
            }
        }
    }

    /// (src, dst) -> received TTL
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_ttl;

  private:
    void Receive(Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> p = socket->RecvFrom(from))
        {
            SocketIpTtlTag tag;
            uint32_t ttl = p->RemovePacketTag(tag) ? tag.GetTtl() : 0;
            int32_t src = m_fabric->GetGpuId(InetSocketAddress::ConvertFrom(from).GetIpv4());
            uint32_t dst = m_gpuOfNode.at(socket->GetNode()->GetId());
            m_ttl[{static_cast<uint32_t>(src), dst}] = ttl;
        }
    }

    Ptr<ClosFabric> m_fabric;                 //!< probed fabric
    std::vector<Ptr<Socket>> m_sockets;       //!< one per GPU
    std::map<uint32_t, uint32_t> m_gpuOfNode; //!< node id -> GPU id
};

} // namespace

/// Node and link counts, topology queries, addresses.
class ClosFabricStructureTestCase : public TestCase
{
  public:
    ClosFabricStructureTestCase()
        : TestCase("node and link counts, GPU placement and addresses")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> f = MakeHelper(4, 8, 2, 4)->Install();
        NS_TEST_ASSERT_MSG_EQ(f->GetGpuCount(), 32, "GPUs");
        NS_TEST_ASSERT_MSG_EQ(f->GetGpus().GetN(), 32, "GPU nodes");
        NS_TEST_ASSERT_MSG_EQ(f->GetLeaves().GetN(), 4, "leaf nodes");
        NS_TEST_ASSERT_MSG_EQ(f->GetSpines().GetN(), 8, "spine nodes");
        NS_TEST_ASSERT_MSG_EQ(f->GetServerSwitches().GetN(), 8, "server switches");
        // 32 NIC links, 32 leaf-spine links, 32 intra-server links, both directions.
        NS_TEST_ASSERT_MSG_EQ(f->GetLinks().size(), 192, "directed links");
        NS_TEST_EXPECT_MSG_EQ_TOL(f->GetOversubscription(), 1.0, 1e-12, "1:1");
        for (uint32_t leaf = 0; leaf < 4; ++leaf)
        {
            NS_TEST_EXPECT_MSG_EQ(f->GetLeaves().Get(leaf)->GetNDevices(),
                                  17,
                                  "leaf ports (16 and the loopback)");
            const auto& up = f->GetLeafUplinks(leaf);
            NS_TEST_ASSERT_MSG_EQ(up.size(), 8, "one uplink per spine");
            for (uint32_t spine = 0; spine < 8; ++spine)
            {
                const ClusterLink& l = f->GetLinks()[up[spine]];
                NS_TEST_EXPECT_MSG_EQ(l.kind, ClusterLink::LEAF_TO_SPINE, "uplink kind");
                NS_TEST_EXPECT_MSG_EQ(l.from, leaf, "uplink from");
                NS_TEST_EXPECT_MSG_EQ(l.to, spine, "uplink to");
                NS_TEST_EXPECT_MSG_EQ(f->GetLinkOfDevice(l.device),
                                      static_cast<int32_t>(up[spine]),
                                      "device -> link");
            }
        }
        for (uint32_t g = 0; g < 32; ++g)
        {
            NS_TEST_EXPECT_MSG_EQ(f->GetLeafOfGpu(g), g / 8, "leaf of GPU");
            NS_TEST_EXPECT_MSG_EQ(f->GetServerOfGpu(g), g / 4, "server of GPU");
            NS_TEST_EXPECT_MSG_EQ(f->GetLocalIndex(g), g % 4, "local index");
            NS_TEST_EXPECT_MSG_EQ(f->GetGpuAt(g / 8, g % 8), g, "GPU at position");
            Ipv4Address a = f->GetGpuAddress(g);
            std::ostringstream expected;
            expected << "10." << g / 8 << "." << (g / 4) % 2 << "." << g % 4 + 1;
            NS_TEST_EXPECT_MSG_EQ(a, Ipv4Address(expected.str().c_str()), "NIC address");
            NS_TEST_EXPECT_MSG_EQ(f->GetGpuId(a), static_cast<int32_t>(g), "address -> GPU");
            NS_TEST_EXPECT_MSG_EQ(f->GetGpuId(f->GetGpuIntraServerAddress(g)),
                                  static_cast<int32_t>(g),
                                  "NVLink address -> GPU");
            Ptr<Ipv4> ipv4 = f->GetGpus().Get(g)->GetObject<Ipv4>();
            NS_TEST_EXPECT_MSG_EQ(ipv4->GetAddress(1, 0).GetLocal(), a, "NIC interface address");
            NS_TEST_EXPECT_MSG_EQ(f->GetGpuIntraServerAddress(g),
                                  Ipv4Address(a.Get() + 64),
                                  "intra-server address: host byte + 64");
        }
        NS_TEST_EXPECT_MSG_EQ(f->GetGpuId(Ipv4Address("10.9.0.1")), -1, "no such leaf");
        NS_TEST_EXPECT_MSG_EQ(f->GetGpuId(Ipv4Address("192.168.0.1")), -1, "not a GPU");
        bool threw = false;
        try
        {
            f->GetLeafOfGpu(32);
        }
        catch (const std::out_of_range&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "GPU outside the fabric is refused");

        Ptr<ClosFabric> over = MakeHelper(2, 4, 2, 4)->Install();
        NS_TEST_EXPECT_MSG_EQ_TOL(over->GetOversubscription(), 2.0, 1e-12, "2:1 with 4 spines");
        Simulator::Destroy();
    }
};

/// Every GPU reaches every other, over the expected number of IP hops.
class ClosFabricReachabilityTestCase : public TestCase
{
  public:
    /// \param leaves leaves \param spines spines \param servers servers per leaf \param gpus GPUs
    /// per server
    ClosFabricReachabilityTestCase(uint32_t leaves,
                                   uint32_t spines,
                                   uint32_t servers,
                                   uint32_t gpus)
        : TestCase("every GPU pair reachable with expected hops, " + std::to_string(leaves) +
                   " leaves x " + std::to_string(spines) + " spines, " + std::to_string(servers) +
                   " servers x " + std::to_string(gpus) + " GPUs"),
          m_leaves(leaves),
          m_spines(spines),
          m_servers(servers),
          m_gpus(gpus)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> f = MakeHelper(m_leaves, m_spines, m_servers, m_gpus)->Install();
        ReachabilityProbe probe(f);
        Simulator::Run();
        uint32_t n = f->GetGpuCount();
        NS_TEST_ASSERT_MSG_EQ(probe.m_ttl.size(), n * (n - 1), "every pair delivered");
        for (const auto& [pair, ttl] : probe.m_ttl)
        {
            auto [src, dst] = pair;
            uint32_t routers = 3; // leaf, spine, leaf
            if (f->GetLeafOfGpu(src) == f->GetLeafOfGpu(dst))
            {
                routers = 1; // the leaf, or the server's switch
            }
            NS_TEST_EXPECT_MSG_EQ(ttl, 64 - routers, "hops " << src << "->" << dst);
        }
        Simulator::Destroy();
    }

    uint32_t m_leaves;
    uint32_t m_spines;
    uint32_t m_servers;
    uint32_t m_gpus;
};

/// A 1,024-GPU fabric builds and routes (the build time is printed, not asserted).
class ClosFabricScaleTestCase : public TestCase
{
  public:
    ClosFabricScaleTestCase()
        : TestCase("1024-GPU fabric builds, routes across it, and reports its build time")
    {
    }

  private:
    void DoRun() override
    {
        auto start = std::chrono::steady_clock::now();
        Ptr<ClosFabric> f = MakeHelper(32, 32, 8, 4)->Install();
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << "1024-GPU fabric built in " << seconds << " s" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(f->GetGpuCount(), 1024, "GPUs");
        NS_TEST_ASSERT_MSG_EQ(f->GetLinks().size(), 2 * (1024 + 32 * 32 + 1024), "links");
        // First and last GPUs, across the whole fabric, both ways.
        Ptr<Socket> rx =
            Socket::CreateSocket(f->GetGpus().Get(1023), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        uint32_t received = 0;
        rx->SetRecvCallback(Callback<void, Ptr<Socket>>([&received](Ptr<Socket> s) {
            while (s->Recv())
            {
                ++received;
            }
        }));
        Ptr<Socket> tx = Socket::CreateSocket(f->GetGpus().Get(0), UdpSocketFactory::GetTypeId());
        Simulator::Schedule(MicroSeconds(1), [tx, f]() {
            tx->SendTo(Create<Packet>(64), 0, InetSocketAddress(f->GetGpuAddress(1023), 9));
        });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(received, 1, "GPU 0 reaches GPU 1023");
        Simulator::Destroy();
    }
};

/// \ingroup clos-tests
class ClosFabricTestSuite : public TestSuite
{
  public:
    ClosFabricTestSuite()
        : TestSuite("clos-fabric", UNIT)
    {
        AddTestCase(new ClosFabricStructureTestCase, TestCase::QUICK);
        AddTestCase(new ClosFabricReachabilityTestCase(4, 8, 2, 4), TestCase::QUICK);
        AddTestCase(new ClosFabricReachabilityTestCase(3, 2, 3, 1), TestCase::QUICK);
        AddTestCase(new ClosFabricScaleTestCase, TestCase::QUICK);
    }
};

static ClosFabricTestSuite g_vclosFabricTestSuite; //!< the suite
