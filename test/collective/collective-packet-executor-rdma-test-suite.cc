/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The scheduler's jobs over RoCEv2 queue pairs (CollectivePacketExecutor Transport=rdma): every
// job finishes with the TCP run's byte counts (and the ring family's 2(N-1)M per iteration),
// per-flow ECMP, source pins and the link-load tracker work unchanged on QPs, and the same
// seed gives the same run. See doc/roce/roce.rst, "RDMA in scenarios and the scheduler".
// Tests: collective-packet-executor
#include "suite/suite-test-run.h"

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-link-load-tracker.h"
#include "ns3/cluster-job-scheduler.h"
#include "ns3/cluster-scheduler-tracker.h"
#include "ns3/collective-packet-executor.h"
#include "ns3/enum.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"
#include "ns3/suite-run-status.h"
#include "ns3/test.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t MESSAGE_BYTES = 400000; //!< divisible by every job size below
constexpr uint32_t ITERATIONS = 2;         //!< per job

/// Job sizes (default fabric: 4 leaves x 2 servers x 4 GPUs, 8 spines): 32 GPUs asked for at
/// once, so jobs run side by side and cross the spines.
const std::vector<uint32_t> SIZES = {16, 8, 4, 16, 8, 2};

/// What one scheduled run left.
struct Outcome
{
    uint32_t finished = 0;                                   //!< jobs finished
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> bytes; //!< job -> sent, received
    std::map<uint32_t, int64_t> finish;                      //!< job -> finish (ns)
    double spineConflicts = 0;                               //!< data flows, default tracker
    uint32_t flowsWithControl = 0; //!< flows with ACKs (TCP's, RoCE's ACKs/CNPs) counted too
    uint32_t dataFlows = 0;        //!< flows the tracker saw
    uint32_t flowsOfProtocol = 0;  //!< of them: TCP (tcp) / UDP (rdma)
    uint32_t qps = 0;              //!< QPs on all GPU NICs
    std::string digest;            //!< every flow, for repeat runs
    bool failed = false;           //!< the run stopped on a failure
};

/// Run the jobs under a policy over a transport, on a fresh default fabric.
Outcome
RunJobs(const std::string& policy, CollectivePacketExecutor::Transport transport)
{
    Ptr<ClosFabricHelper> fabricHelper = CreateObject<ClosFabricHelper>();
    Ptr<ClosFabric> fabric = fabricHelper->Install();
    fabricHelper->AssignStreams(fabric, 0);
    Ptr<CollectivePacketExecutor> executor = CreateObject<CollectivePacketExecutor>();
    executor->SetAttribute("Transport", EnumValue(transport));
    executor->SetFabric(fabric);
    Ptr<ClusterJobScheduler> scheduler = CreateObject<ClusterJobScheduler>();
    scheduler->Setup(Ptr<ClusterJobExecutor>(executor), policy);
    Outcome out;
    executor->TraceConnectWithoutContext(
        "JobBytes",
        Callback<void, uint32_t, uint64_t, uint64_t>(
            [&out](uint32_t job, uint64_t sent, uint64_t received) {
                out.bytes[job] = {sent, received};
            }));
    std::vector<ClusterJobRequest> jobs;
    for (uint32_t i = 0; i < SIZES.size(); ++i)
    {
        ClusterJobRequest r;
        r.id = i;
        r.gpus = SIZES[i];
        r.submit = MicroSeconds(5 * i);
        r.messageBytes = MESSAGE_BYTES;
        r.computeTime = MicroSeconds(10);
        r.iterations = ITERATIONS;
        r.algorithm = CLUSTER_RING; // hierarchical over each job's equal servers
        jobs.push_back(r);
    }
    Ptr<ClusterSchedulerTracker> tracker = CreateObject<ClusterSchedulerTracker>();
    tracker->Install(scheduler);
    Ptr<ClosLinkLoadTracker> links = CreateObject<ClosLinkLoadTracker>();
    links->Install(fabric);
    // The tracker's own control: the same run with ACKs (RoCE ACKs/CNPs) counted as flows.
    Ptr<ClosLinkLoadTracker> withControl = CreateObject<ClosLinkLoadTracker>();
    withControl->SetAttribute("IgnorePureAcks", BooleanValue(false));
    withControl->Install(fabric);
    scheduler->TraceConnectWithoutContext(
        "JobFinished",
        Callback<void, const ClusterJobRequest&>([&out, scheduler](const ClusterJobRequest& job) {
            out.finish[job.id] = Simulator::Now().GetNanoSeconds();
            if (scheduler->GetFinishedJobs() == SIZES.size())
            {
                Simulator::Stop(); // TCP's closing timers would run on
            }
        }));
    scheduler->Submit(jobs);
    SuiteStoppedRun run = SuiteRunUntilStopped();
    out.failed = run.threw || run.failure.has_value();
    out.finished = scheduler->GetFinishedJobs();
    out.spineConflicts = links->GetSpineConflictingFlowShare();
    out.flowsWithControl = static_cast<uint32_t>(withControl->GetFlows().size());
    std::ostringstream digest;
    const uint8_t protocol = transport == CollectivePacketExecutor::RDMA ? 17 : 6;
    for (const auto& flow : links->GetFlows())
    {
        ++out.dataFlows;
        out.flowsOfProtocol += flow.tuple.protocol == protocol ? 1 : 0;
        digest << flow.tuple.srcAddress << ":" << flow.tuple.srcPort << ">" << flow.tuple.dstAddress
               << ":" << flow.tuple.dstPort << "," << flow.bytes << ","
               << flow.firstSeen.GetTimeStep() << "," << flow.lastSeen.GetTimeStep() << ","
               << flow.maxSharing << ";";
    }
    for (const auto& [job, at] : out.finish)
    {
        digest << job << "@" << at << ";";
    }
    out.digest = digest.str();
    for (uint32_t g = 0; g < fabric->GetGpuCount(); ++g)
    {
        Ptr<RoceNic> nic = fabric->GetGpus().Get(g)->GetObject<RoceNic>();
        out.qps += nic ? nic->GetNQps() : 0;
    }
    Simulator::Destroy();
    return out;
}

/// One policy over TCP and RDMA: jobs finish, bytes match, the tracker and pins behave.
class CollectiveRdmaSchedulerPolicyTestCase : public TestCase
{
  public:
    /// \param policy a placement policy name
    explicit CollectiveRdmaSchedulerPolicyTestCase(const std::string& policy)
        : TestCase("policy " + policy + " over RDMA: TCP's bytes, ECMP and pins unchanged"),
          m_policy(policy)
    {
    }

  private:
    void DoRun() override
    {
        Outcome tcp = RunJobs(m_policy, CollectivePacketExecutor::TCP);
        Outcome rdma = RunJobs(m_policy, CollectivePacketExecutor::RDMA);
        for (const Outcome* o : {&tcp, &rdma})
        {
            const char* name = o == &tcp ? "tcp" : "rdma";
            NS_TEST_EXPECT_MSG_EQ(o->failed, false, name << ": no failure");
            NS_TEST_EXPECT_MSG_EQ(o->finished, SIZES.size(), name << ": every job finished");
            NS_TEST_EXPECT_MSG_EQ(o->bytes.size(), SIZES.size(), name << ": bytes of every job");
            NS_TEST_EXPECT_MSG_GT(o->dataFlows, 0, name << ": the tracker saw data flows");
            NS_TEST_EXPECT_MSG_EQ(o->flowsOfProtocol,
                                  o->dataFlows,
                                  name << ": every data flow is of the transport's protocol");
        }
        // RDMA really ran on queue pairs: NICs on the GPUs hold QPs (TCP's run has none).
        NS_TEST_EXPECT_MSG_EQ(tcp.qps, 0, "no QP over tcp");
        NS_TEST_EXPECT_MSG_GT(rdma.qps, 0, "QPs over rdma");
        // The same step semantics, over either transport: per iteration the ring family moves
        // 2(N-1)M over all ranks. Flat ring: N ranks x 2(N-1) steps x M/N. Hierarchical (S
        // servers of G GPUs): intra-server reduce-scatter and all-gather N x 2(G-1)M/G, the
        // inter-server ring G rings x S ranks x 2(S-1) steps x M/(G S); sum 2M(N - S + S - 1).
        for (uint32_t job = 0; job < SIZES.size(); ++job)
        {
            const uint64_t expected = ITERATIONS * 2ull * (SIZES[job] - 1) * MESSAGE_BYTES;
            NS_TEST_EXPECT_MSG_EQ(tcp.bytes[job].first, expected, "tcp bytes sent, job " << job);
            NS_TEST_EXPECT_MSG_EQ(rdma.bytes[job].first, expected, "rdma bytes sent, job " << job);
            NS_TEST_EXPECT_MSG_EQ(rdma.bytes[job].second,
                                  expected,
                                  "rdma bytes received, job " << job);
            NS_TEST_EXPECT_MSG_EQ(tcp.bytes[job].second,
                                  expected,
                                  "tcp bytes received, job " << job);
        }
        if (m_policy.rfind("ecmp", 0) == 0)
        {
            // The control: QPs hashed by the switches meet on leaf-spine links, as TCP's do.
            NS_TEST_EXPECT_MSG_GT(tcp.spineConflicts, 0.0, "tcp ECMP: conflicts");
            NS_TEST_EXPECT_MSG_GT(rdma.spineConflicts, 0.0, "rdma ECMP: conflicts");
        }
        else
        {
            // Pinned placements: no data flow meets another on a leaf-spine link.
            NS_TEST_EXPECT_MSG_EQ(tcp.spineConflicts, 0.0, "tcp pinned: no conflict");
            NS_TEST_EXPECT_MSG_EQ(rdma.spineConflicts, 0.0, "rdma pinned: no conflict");
        }
        // The tracker skips RoCE ACKs/NAKs/CNPs as it skips TCP's pure ACKs: counted, every
        // QP's ACKs are one more flow (the receiver's responder back to the sender).
        NS_TEST_EXPECT_MSG_EQ(rdma.flowsWithControl,
                              2 * rdma.dataFlows,
                              "rdma: one ACK flow per data flow when ACKs are counted");
    }

    std::string m_policy; //!< placement policy
};

/// The same seed gives the same RDMA run, flow by flow.
class CollectiveRdmaSchedulerDeterminismTestCase : public TestCase
{
  public:
    CollectiveRdmaSchedulerDeterminismTestCase()
        : TestCase("the same seed gives the same RDMA run, flow by flow")
    {
    }

  private:
    void DoRun() override
    {
        Outcome a = RunJobs("ecmp-first-fit", CollectivePacketExecutor::RDMA);
        Outcome b = RunJobs("ecmp-first-fit", CollectivePacketExecutor::RDMA);
        NS_TEST_EXPECT_MSG_EQ(a.finished, SIZES.size(), "every job finished");
        NS_TEST_EXPECT_MSG_EQ(a.digest.empty(), false, "something to compare");
        NS_TEST_EXPECT_MSG_EQ((a.digest == b.digest), true, "same flows and finish times");
        // The control: another transport on the same seed gives another digest.
        Outcome tcp = RunJobs("ecmp-first-fit", CollectivePacketExecutor::TCP);
        NS_TEST_EXPECT_MSG_EQ((a.digest == tcp.digest), false, "tcp's run differs");
    }
};

/// \ingroup collective-tests
class CollectiveRdmaSchedulerTestSuite : public TestSuite
{
  public:
    CollectiveRdmaSchedulerTestSuite()
        : TestSuite("collective-packet-executor-rdma", SYSTEM)
    {
        for (const char* policy : {"ecmp-first-fit", "source-routing-best-fit", "vclos"})
        {
            AddTestCase(new CollectiveRdmaSchedulerPolicyTestCase(policy), TestCase::QUICK);
        }
        AddTestCase(new CollectiveRdmaSchedulerDeterminismTestCase, TestCase::QUICK);
    }
};

static CollectiveRdmaSchedulerTestSuite g_vclosRdmaSchedulerTestSuite; //!< the suite

} // namespace
