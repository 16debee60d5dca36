/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The collective engine on the packet-level fabric: timing against the alpha-beta model,
// exact bytes per rank, completion of every algorithm, bad input.
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/pointer.h"
#include "ns3/ppp-header.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/vclos-collective-app.h"
#include "ns3/vclos-collective-helper.h"
#include "ns3/vclos-collective-tracker.h"
#include "ns3/vclos-fabric-helper.h"
#include "ns3/vclos-link-load-tracker.h"
#include "ns3/vclos-run-status.h"

#include <map>
#include <numeric>
#include <optional>

using namespace ns3;

namespace
{

/// A fabric of the given server size, with every GPU pinned by its index in its leaf.
Ptr<VclosFabric>
PinnedFabric(uint32_t gpusPerServer)
{
    Ptr<VclosFabricHelper> helper = CreateObject<VclosFabricHelper>();
    helper->SetAttribute("GpusPerServer", UintegerValue(gpusPerServer));
    helper->SetAttribute("ServersPerLeaf", UintegerValue(8 / gpusPerServer));
    Ptr<VclosFabric> fabric = helper->Install();
    for (uint32_t g = 0; g < fabric->GetGpuCount(); ++g)
    {
        fabric->PinSourceToSpine(g, fabric->GetIndexInLeaf(g) % fabric->GetSpineCount());
    }
    return fabric;
}

/// What a job run measured.
struct JobRun
{
    std::vector<VclosCollectiveTracker::Iteration> iterations; //!< per iteration
    bool complete = false;                                     //!< all ranks ended all
    std::vector<uint64_t> sent;                                //!< bytes per rank
    std::vector<uint32_t> rankGpus;                            //!< GPU per rank
};

JobRun
RunJob(Ptr<VclosFabric> fabric,
       const std::vector<uint32_t>& gpus,
       VclosCollectiveAlgorithm algorithm,
       uint64_t messageBytes,
       uint32_t iterations,
       bool unpipelined = false)
{
    Ptr<VclosCollectiveHelper> helper = CreateObject<VclosCollectiveHelper>();
    if (unpipelined)
    {
        helper->SetAttribute("ChunkBytes", UintegerValue(messageBytes));
    }
    helper->SetAttribute("Algorithm", EnumValue(algorithm));
    helper->SetAttribute("MessageBytes", UintegerValue(messageBytes));
    helper->SetAttribute("Iterations", UintegerValue(iterations));
    ApplicationContainer apps = helper->Install(fabric, gpus);
    Ptr<VclosCollectiveTracker> tracker = CreateObject<VclosCollectiveTracker>();
    tracker->Track("job", apps);
    Simulator::Run();
    JobRun run;
    run.iterations = tracker->GetIterations(0);
    run.complete = tracker->IsComplete(0) && run.iterations.size() == iterations;
    for (uint32_t r = 0; r < apps.GetN(); ++r)
    {
        run.sent.push_back(DynamicCast<VclosCollectiveApp>(apps.Get(r))->GetBytesSent());
    }
    run.rankGpus = helper->GetRankGpus();
    Simulator::Destroy();
    return run;
}

} // namespace

/**
 * Uncontended ring all-reduce against the alpha-beta model, on a ring whose edges all cross
 * the fabric. B = NIC rate x TCP payload per frame (8948 of 9002 bytes); alpha = the one-way
 * store-and-forward latency of the path (propagation plus one frame per link); S = M/N, the
 * bytes of a step; C = min(chunk, S). A step's first chunk can leave once the previous
 * step's first chunk has arrived, so steps follow each other every max(S/B, C/B + alpha)
 * (S/B + alpha unpipelined), and the last one ends S/B + alpha after it begins:
 *   T = (2(N-1) - 1) * max(S/B, C/B + alpha) + S/B + alpha.
 * Pipelined with small chunks this is 2(N-1)/N * M/B + alpha; unpipelined,
 * 2(N-1) * (M/(N B) + alpha).
 */
class VclosRingAlphaBetaTestCase : public TestCase
{
  public:
    /// \param ranks N \param messageBytes M \param pipelined 512 KiB chunks, or one per step
    VclosRingAlphaBetaTestCase(uint32_t ranks, uint64_t messageBytes, bool pipelined)
        : TestCase("ring all-reduce within 5% of alpha-beta, N=" + std::to_string(ranks) + " M=" +
                   std::to_string(messageBytes) + (pipelined ? ", pipelined" : ", unpipelined")),
          m_ranks(ranks),
          m_messageBytes(messageBytes),
          m_pipelined(pipelined)
    {
    }

  private:
    void DoRun() override
    {
        // One GPU per leaf: every ring edge is the same leaf-spine-leaf path, and no link
        // carries two flows (the ring's edges are a permutation).
        Ptr<VclosFabricHelper> fabricHelper = CreateObject<VclosFabricHelper>();
        fabricHelper->SetAttribute("Leaves", UintegerValue(m_ranks));
        fabricHelper->SetAttribute("Spines", UintegerValue(1));
        fabricHelper->SetAttribute("ServersPerLeaf", UintegerValue(1));
        fabricHelper->SetAttribute("GpusPerServer", UintegerValue(1));
        Ptr<VclosFabric> fabric = fabricHelper->Install();
        std::vector<uint32_t> gpus(m_ranks);
        std::iota(gpus.begin(), gpus.end(), 0);
        Time alpha = fabric->GetPathLatency(0, 1, 9002);
        const double bandwidth = 100e9 * 8948.0 / 9002.0;
        const double n = m_ranks;
        const double a = alpha.GetSeconds();
        const double step = m_messageBytes / n * 8 / bandwidth;                  // S/B
        const double chunk = std::min<double>(512 * 1024 * 8 / bandwidth, step); // C/B
        const double period = m_pipelined ? std::max(step, chunk + a) : step + a;
        const double model = (2 * (n - 1) - 1) * period + step + a;
        JobRun run = RunJob(fabric, gpus, VCLOS_RING, m_messageBytes, 1, !m_pipelined);
        NS_TEST_ASSERT_MSG_EQ(run.complete, true, "the all-reduce completes");
        double measured = (run.iterations[0].end - run.iterations[0].collectiveStart).GetSeconds();
        std::cout << GetName() << ": measured " << measured * 1e6 << " us, model " << model * 1e6
                  << " us" << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(measured / model, 1.0, 0.05, "within 5% of the model");
    }

    uint32_t m_ranks;        //!< N
    uint64_t m_messageBytes; //!< M
    bool m_pipelined;        //!< chunks smaller than a step
};

/// Every algorithm completes, each rank sending exactly what its schedule defines, over two
/// iterations, for N not a power of two and M not divisible by N.
class VclosCollectiveCompletesTestCase : public TestCase
{
  public:
    /// \param algorithm the algorithm
    explicit VclosCollectiveCompletesTestCase(VclosCollectiveAlgorithm algorithm)
        : TestCase("every rank sends its schedule's bytes and completes: " +
                   VclosCollectiveAlgorithmName(algorithm)),
          m_algorithm(algorithm)
    {
    }

  private:
    void DoRun() override
    {
        // Prime sizes, divisible by no N; all-to-all sends M to every peer, so less.
        const uint64_t m = m_algorithm == VCLOS_ALL_TO_ALL ? 100003 : 1000003;
        for (uint32_t n : {2u, 3u, 4u, 6u, 8u, 16u})
        {
            // Hierarchical ring: whole servers of 2 GPUs when N is even, else 1 per server.
            uint32_t perServer = (m_algorithm == VCLOS_HIERARCHICAL_RING && n % 2 == 0) ? 2 : 1;
            Ptr<VclosFabric> fabric = PinnedFabric(perServer);
            std::vector<uint32_t> gpus;
            for (uint32_t i = 0; i < n; ++i)
            {
                gpus.push_back(perServer == 2 ? i : 2 * i); // whole servers, or across leaves
            }
            auto schedule = VclosBuildCollectiveSchedule(m_algorithm, n, m, perServer);
            JobRun run = RunJob(fabric, gpus, m_algorithm, m, 2);
            NS_TEST_EXPECT_MSG_EQ(run.complete, true, "N=" << n << " completes both iterations");
            for (uint32_t r = 0; r < n; ++r)
            {
                uint64_t expected = 0;
                for (const auto& step : schedule[r])
                {
                    expected += step.sendBytes;
                }
                NS_TEST_EXPECT_MSG_EQ(run.sent[r], 2 * expected, "N=" << n << " rank " << r);
            }
        }
    }

    VclosCollectiveAlgorithm m_algorithm;
};

/// Balanced routing (GPU at index a in its leaf goes up through spine a) puts at most one
/// flow on any fabric link in every step of ring, hierarchical ring and halving-doubling
/// over the whole fabric; steps are separated with the (labelled) barrier-per-step mode and
/// the tracker's IdleGap set below the barrier's gap.
class VclosBalancedStepsTestCase : public TestCase
{
  public:
    /// \param algorithm the algorithm
    explicit VclosBalancedStepsTestCase(VclosCollectiveAlgorithm algorithm)
        : TestCase("balanced routing: at most one flow per fabric link in every step, " +
                   VclosCollectiveAlgorithmName(algorithm)),
          m_algorithm(algorithm)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<VclosFabric> fabric = PinnedFabric(4);
        Ptr<VclosLinkLoadTracker> links = CreateObject<VclosLinkLoadTracker>();
        links->SetAttribute("IdleGap", TimeValue(MicroSeconds(3)));
        links->Install(fabric);
        Ptr<VclosCollectiveHelper> helper = CreateObject<VclosCollectiveHelper>();
        helper->SetAttribute("Algorithm", EnumValue(m_algorithm));
        helper->SetAttribute("MessageBytes", UintegerValue(4 << 20));
        helper->SetAttribute("StepBarrier", BooleanValue(true));
        // Two iterations without compute: a rank enters the second while the first's last
        // barrier release is still on its way, which must not release the second's steps.
        helper->SetAttribute("Iterations", UintegerValue(2));
        helper->SetAttribute("ComputeTime", TimeValue(Time(0)));
        std::vector<uint32_t> gpus(fabric->GetGpuCount());
        std::iota(gpus.begin(), gpus.end(), 0);
        Ptr<VclosCollectiveTracker> tracker = CreateObject<VclosCollectiveTracker>();
        tracker->Track("job", helper->Install(fabric, gpus));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(tracker->IsComplete(0), true, "the collective completes");
        uint32_t fabricLinksUsed = 0;
        for (uint32_t id = 0; id < fabric->GetLinks().size(); ++id)
        {
            VclosLink::Kind kind = fabric->GetLinks()[id].kind;
            if (kind == VclosLink::LEAF_TO_SPINE || kind == VclosLink::SPINE_TO_LEAF)
            {
                uint32_t most = links->GetLinkLoad(id).maxConcurrentFlows;
                fabricLinksUsed += most > 0 ? 1 : 0;
                NS_TEST_EXPECT_MSG_LT_OR_EQ(most, 1, fabric->GetLinks()[id].name);
            }
        }
        NS_TEST_EXPECT_MSG_GT(fabricLinksUsed, 0, "the job crosses the fabric");
        Simulator::Destroy();
    }

    VclosCollectiveAlgorithm m_algorithm; //!< the algorithm
};

/// Rank order, iterations with compute, and what bad input gets.
class VclosCollectiveHelperTestCase : public TestCase
{
  public:
    VclosCollectiveHelperTestCase()
        : TestCase("rank order, compute phases, and refusal of bad jobs")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<VclosFabric> fabric = PinnedFabric(4);
        Ptr<VclosCollectiveHelper> helper = CreateObject<VclosCollectiveHelper>();
        helper->SetAttribute("MessageBytes", UintegerValue(100000));
        helper->SetAttribute("Iterations", UintegerValue(3));
        helper->SetAttribute("ComputeTime", TimeValue(MicroSeconds(200)));
        ApplicationContainer apps = helper->Install(fabric, {17, 3, 9, 2});
        std::vector<uint32_t> expectedOrder = {2, 3, 9, 17};
        NS_TEST_EXPECT_MSG_EQ((helper->GetRankGpus() == expectedOrder), true, "topology order");
        Ptr<VclosCollectiveTracker> tracker = CreateObject<VclosCollectiveTracker>();
        tracker->Track("job", apps);

        auto refuses = [&](const std::vector<uint32_t>& gpus, const std::string& what) {
            try
            {
                helper->Install(fabric, gpus);
            }
            catch (const std::exception& e)
            {
                return std::string(e.what()).find(what) != std::string::npos;
            }
            return false;
        };
        NS_TEST_EXPECT_MSG_EQ(refuses({5}, "at least 2 GPUs"), true, "N = 1");
        NS_TEST_EXPECT_MSG_EQ(refuses({1, 40}, "outside the fabric"), true, "GPU 40");
        NS_TEST_EXPECT_MSG_EQ(refuses({1, 1}, "twice"), true, "duplicate GPU");
        helper->SetAttribute("MessageBytes", UintegerValue(0));
        NS_TEST_EXPECT_MSG_EQ(refuses({1, 2}, "MessageBytes"), true, "M = 0");

        Simulator::Run();
        const auto& its = tracker->GetIterations(0);
        NS_TEST_ASSERT_MSG_EQ(its.size(), 3, "three iterations");
        NS_TEST_EXPECT_MSG_EQ(tracker->IsComplete(0), true, "all ranks ended them");
        for (std::size_t i = 0; i < its.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((its[i].collectiveStart - its[i].start),
                                  MicroSeconds(200),
                                  "compute, then the collective");
            if (i > 0)
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(its[i].start,
                                            its[i - 1].collectiveStart,
                                            "iterations follow each other");
            }
        }
        Simulator::Destroy();
    }
};

/**
 * A hierarchical ring on unequal servers (4 + 2 GPUs, 3 + 1 GPUs) runs the flat ring: every
 * rank sends 2(N-1) steps of M/N bytes, and the job completes. Equal servers keep the
 * hierarchical ring. (It threw when installed, inside Simulator::Run under the scheduler.)
 */
class VclosHierarchicalFallbackTestCase : public TestCase
{
  public:
    VclosHierarchicalFallbackTestCase()
        : TestCase("hierarchical ring on unequal servers runs the flat ring")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::vector<uint32_t> gpus;    //!< the job (4 GPUs per server)
            VclosCollectiveAlgorithm runs; //!< what it must run
        };

        for (const Case& c : {Case{{0, 1, 2, 3, 4, 5}, VCLOS_RING},
                              Case{{0, 1, 2, 4}, VCLOS_RING},
                              Case{{0, 1, 4, 5}, VCLOS_HIERARCHICAL_RING}})
        {
            Ptr<VclosFabric> fabric = PinnedFabric(4);
            const auto n = static_cast<uint32_t>(c.gpus.size());
            const uint64_t m = 100000 * n;
            Ptr<VclosCollectiveHelper> helper = CreateObject<VclosCollectiveHelper>();
            helper->SetAttribute("Algorithm", EnumValue(VCLOS_HIERARCHICAL_RING));
            helper->SetAttribute("MessageBytes", UintegerValue(m));
            ApplicationContainer apps;
            try
            {
                apps = helper->Install(fabric, c.gpus);
            }
            catch (const std::exception& e)
            {
                NS_TEST_EXPECT_MSG_EQ(true, false, "N=" << n << " refused: " << e.what());
                Simulator::Destroy();
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(helper->GetInstalledAlgorithm(), c.runs, "N=" << n);
            Ptr<VclosCollectiveTracker> tracker = CreateObject<VclosCollectiveTracker>();
            tracker->Track("job", apps);
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(tracker->IsComplete(0), true, "N=" << n << " completes");
            if (c.runs == VCLOS_RING)
            {
                for (uint32_t r = 0; r < n; ++r)
                {
                    NS_TEST_EXPECT_MSG_EQ(
                        DynamicCast<VclosCollectiveApp>(apps.Get(r))->GetBytesSent(),
                        2 * (n - 1) * (m / n),
                        "N=" << n << " rank " << r << " sends the flat ring's bytes");
                }
            }
            Simulator::Destroy();
        }
    }
};

/**
 * A connection that cannot be made (the peer listens on another port) stops the run, once
 * its SYNs go unanswered, with one line naming the rank and the peer; nothing throws out of
 * Simulator::Run (it did).
 */
class VclosConnectionFailureTestCase : public TestCase
{
  public:
    VclosConnectionFailureTestCase()
        : TestCase("a refused connection stops the run with its cause")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<VclosFabric> fabric = PinnedFabric(4);
        auto schedule = VclosBuildCollectiveSchedule(VCLOS_RING, 2, 1000, 2);
        std::vector<Ipv4Address> addresses = {fabric->GetGpuAddress(0), fabric->GetGpuAddress(8)};
        std::map<uint32_t, uint32_t> rankOf = {{addresses[0].Get(), 0}, {addresses[1].Get(), 1}};
        for (uint32_t r = 0; r < 2; ++r)
        {
            Ptr<VclosCollectiveApp> app = CreateObject<VclosCollectiveApp>();
            app->SetAttribute("Port", UintegerValue(7000 + r)); // the peer listens elsewhere
            app->Configure(r, schedule[r], addresses, rankOf);
            fabric->GetGpus().Get(r == 0 ? 0 : 8)->AddApplication(app);
        }
        bool threw = false;
        try
        {
            Simulator::Run();
        }
        catch (const std::exception&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, false, "no exception out of Simulator::Run");
        std::optional<std::string> failure = VclosTakeRunFailure();
        NS_TEST_ASSERT_MSG_EQ(failure.has_value(), true, "the run failed");
        NS_TEST_EXPECT_MSG_NE(failure->find("the connection to rank"),
                              std::string::npos,
                              "names the connection: " << *failure);
        NS_TEST_EXPECT_MSG_EQ(failure->find('\n'), std::string::npos, "one line");
        // ns-3 resends the SYN ConnCount (6) times, 1 + 2 + ... + 32 minimum RTOs apart.
        NS_TEST_EXPECT_MSG_LT(Simulator::Now(), MilliSeconds(100), "gave up after 63 ms");
        Simulator::Destroy();
    }
};

/// Drops the first TCP SYN (without ACK) a device receives.
class DropFirstSyn : public ErrorModel
{
  public:
    uint32_t dropped = 0; //!< SYNs dropped

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        Ptr<Packet> copy = p->Copy();
        PppHeader ppp;
        Ipv4Header ip;
        TcpHeader tcp;
        copy->RemoveHeader(ppp);
        copy->RemoveHeader(ip);
        if (dropped > 0 || ip.GetProtocol() != TcpL4Protocol::PROT_NUMBER)
        {
            return false;
        }
        copy->PeekHeader(tcp);
        bool syn = (tcp.GetFlags() & TcpHeader::SYN) && !(tcp.GetFlags() & TcpHeader::ACK);
        dropped += syn ? 1 : 0;
        return syn;
    }

    void DoReset() override
    {
    }
};

/**
 * A job whose first SYN is lost still finishes at millisecond scale: the SYN is resent after
 * the fabric's minimum RTO (1 ms), not ns-3's 3 s ConnTimeout.
 */
class VclosLostSynTestCase : public TestCase
{
  public:
    VclosLostSynTestCase()
        : TestCase("a lost SYN costs about one minimum RTO, not 3 s")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<VclosFabric> fabric = PinnedFabric(4);
        Ptr<Node> receiver = fabric->GetGpus().Get(8);
        Ptr<Ipv4> ipv4 = receiver->GetObject<Ipv4>();
        Ptr<NetDevice> nic =
            ipv4->GetNetDevice(ipv4->GetInterfaceForAddress(fabric->GetGpuAddress(8)));
        Ptr<DropFirstSyn> drop = CreateObject<DropFirstSyn>();
        nic->SetAttribute("ReceiveErrorModel", PointerValue(drop));
        Ptr<VclosCollectiveHelper> helper = CreateObject<VclosCollectiveHelper>();
        helper->SetAttribute("MessageBytes", UintegerValue(10000));
        ApplicationContainer apps = helper->Install(fabric, {0, 8});
        Ptr<VclosCollectiveTracker> tracker = CreateObject<VclosCollectiveTracker>();
        tracker->Track("job", apps);
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(drop->dropped, 1, "one SYN was lost");
        NS_TEST_ASSERT_MSG_EQ(tracker->IsComplete(0), true, "the job completes");
        Time end = tracker->GetIterations(0).back().end;
        NS_TEST_EXPECT_MSG_GT(end, MilliSeconds(1), "the SYN was resent after the minimum RTO");
        NS_TEST_EXPECT_MSG_LT(end, MilliSeconds(3), "and not after seconds");
        Simulator::Destroy();
    }
};

/// \ingroup vclos-tests
class VclosCollectiveTestSuite : public TestSuite
{
  public:
    VclosCollectiveTestSuite()
        : TestSuite("vclos-collective", SYSTEM)
    {
        for (bool pipelined : {true, false})
        {
            AddTestCase(new VclosRingAlphaBetaTestCase(4, 4 << 20, pipelined), TestCase::QUICK);
            AddTestCase(new VclosRingAlphaBetaTestCase(8, 16 << 20, pipelined), TestCase::QUICK);
            AddTestCase(new VclosRingAlphaBetaTestCase(16, 8 << 20, pipelined), TestCase::QUICK);
        }
        for (auto algorithm :
             {VCLOS_RING, VCLOS_HIERARCHICAL_RING, VCLOS_HALVING_DOUBLING, VCLOS_ALL_TO_ALL})
        {
            AddTestCase(new VclosCollectiveCompletesTestCase(algorithm), TestCase::QUICK);
        }
        for (auto algorithm : {VCLOS_RING, VCLOS_HIERARCHICAL_RING, VCLOS_HALVING_DOUBLING})
        {
            AddTestCase(new VclosBalancedStepsTestCase(algorithm), TestCase::QUICK);
        }
        AddTestCase(new VclosCollectiveHelperTestCase, TestCase::QUICK);
        AddTestCase(new VclosHierarchicalFallbackTestCase, TestCase::QUICK);
        AddTestCase(new VclosConnectionFailureTestCase, TestCase::QUICK);
        AddTestCase(new VclosLostSynTestCase, TestCase::QUICK);
    }
};

static VclosCollectiveTestSuite g_vclosCollectiveTestSuite; //!< the suite
