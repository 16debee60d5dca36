/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The packet-level fabric with an OCS layer: real OcsSwitch devices between leaves and spines,
// routes that follow the circuits, traffic that never enters a dark or unmapped port, and
// circuit changes of one job that leave another job's run untouched.
// Tests: clos-fabric-helper, clos-fabric, clos-ecmp-routing
#include "suite/suite-test-run.h"

#include "ns3/clos-ecmp-routing.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-link-load-tracker.h"
#include "ns3/cluster-job-scheduler.h"
#include "ns3/cluster-ocs-state.h"
#include "ns3/collective-app.h"
#include "ns3/collective-helper.h"
#include "ns3/collective-packet-executor.h"
#include "ns3/collective-tracker.h"
#include "ns3/enum.h"
#include "ns3/fluid-executor.h"
#include "ns3/ipv4.h"
#include "ns3/nstime.h"
#include "ns3/ocs-switch.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <map>
#include <numeric>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t MESSAGE_BYTES = 1 << 20; //!< all-reduce size of every test job

/// 4 leaves x 2 servers x 2 GPUs, 4 OCSs, the given spines and spine ports.
Ptr<ClosFabricHelper>
OcsFabricHelper(uint32_t spines, uint32_t spinePorts)
{
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("Leaves", UintegerValue(4));
    helper->SetAttribute("ServersPerLeaf", UintegerValue(2));
    helper->SetAttribute("GpusPerServer", UintegerValue(2));
    helper->SetAttribute("Spines", UintegerValue(spines));
    helper->SetAttribute("SpinePorts", UintegerValue(spinePorts));
    helper->SetAttribute("OcsCount", UintegerValue(4));
    helper->SetAttribute("OcsReconfigurationTime", TimeValue(MicroSeconds(20)));
    return helper;
}

/// The fabric of OcsFabricHelper, with fixed hash salts.
Ptr<ClosFabric>
OcsFabric(uint32_t spines, uint32_t spinePorts)
{
    Ptr<ClosFabricHelper> helper = OcsFabricHelper(spines, spinePorts);
    Ptr<ClosFabric> fabric = helper->Install();
    helper->AssignStreams(fabric, 7);
    return fabric;
}

/// Frames (or bytes) dropped by every OCS of a fabric, for one reason.
uint64_t
OcsDrops(Ptr<ClosFabric> fabric, OcsSwitch::DropReason reason)
{
    uint64_t drops = 0;
    for (uint32_t k = 0; k < fabric->GetOcsCount(); ++k)
    {
        drops += fabric->GetOcs(k)->GetDroppedFrames(reason);
    }
    return drops;
}

/// All drops of every OCS.
uint64_t
OcsDrops(Ptr<ClosFabric> fabric)
{
    return OcsDrops(fabric, OcsSwitch::UNMAPPED) + OcsDrops(fabric, OcsSwitch::DARK) +
           OcsDrops(fabric, OcsSwitch::CUT);
}

/// A ring all-reduce job installed on a fabric.
struct Job
{
    ApplicationContainer apps;      //!< its ranks
    Ptr<CollectiveTracker> tracker; //!< its iterations
    uint32_t ranks = 0;             //!< its size
};

/// A ring job starting at 50 us: after the 20 us dark time of circuits requested at 0 (a
/// SYN sent earlier finds no route, and its connection fails).
Job
InstallRing(Ptr<ClosFabric> fabric, const std::vector<uint32_t>& gpus, uint16_t port)
{
    Ptr<CollectiveHelper> helper = CreateObject<CollectiveHelper>();
    helper->SetAttribute("Algorithm", EnumValue(CLUSTER_RING));
    helper->SetAttribute("MessageBytes", UintegerValue(MESSAGE_BYTES));
    helper->SetAttribute("Iterations", UintegerValue(1));
    helper->SetAttribute("Port", UintegerValue(port));
    helper->SetAttribute("StartTime", TimeValue(MicroSeconds(50)));
    Job job;
    job.apps = helper->Install(fabric, gpus);
    job.tracker = CreateObject<CollectiveTracker>();
    job.tracker->Track("job", job.apps);
    job.ranks = static_cast<uint32_t>(gpus.size());
    return job;
}

/// \return true when every rank sent exactly the ring's 2(N-1)/N M bytes (by hand, as
///         RapidNetSim's ring.py)
bool
RingBytesConserved(const Job& job)
{
    const uint64_t perRank = 2 * (job.ranks - 1) * (MESSAGE_BYTES / job.ranks);
    for (uint32_t r = 0; r < job.apps.GetN(); ++r)
    {
        auto app = DynamicCast<CollectiveApp>(job.apps.Get(r));
        if (app->GetBytesSent() != perRank || app->GetBytesReceived() != perRank)
        {
            return false;
        }
    }
    return true;
}

/// Every GPU of the fabric, in id order.
std::vector<uint32_t>
AllGpus(Ptr<ClosFabric> fabric)
{
    std::vector<uint32_t> gpus(fabric->GetGpuCount());
    std::iota(gpus.begin(), gpus.end(), 0);
    return gpus;
}

} // namespace

/**
 * Install() builds the OCS layer with the numbering ClosFabric documents, and lights the
 * full wiring (RapidNetSim's OCS layout, ClusterOcsFullWiring): with 4 leaves, 4 spines and one
 * port per spine per OCS, leaf l's uplink k reaches spine (k + l) % 4, OCS port 4 + (k + l) % 4.
 */
class ClosOcsFabricWiringTestCase : public TestCase
{
  public:
    ClosOcsFabricWiringTestCase()
        : TestCase("OCS fabric: one OcsSwitch per uplink, full wiring lit, routes over it")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = OcsFabric(4, 4);
        NS_TEST_ASSERT_MSG_EQ(fabric->GetOcsCount(), 4, "one OCS per uplink port");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetSpinePortsPerOcs(), 1, "SpinePorts / OcsCount");
        for (uint32_t k = 0; k < 4; ++k)
        {
            Ptr<OcsSwitch> ocs = fabric->GetOcs(k);
            NS_TEST_ASSERT_MSG_EQ(ocs->GetNPorts(), 8, "4 leaf ports and 4 spine ports");
            for (uint32_t leaf = 0; leaf < 4; ++leaf)
            {
                NS_TEST_EXPECT_MSG_EQ(ocs->GetDevice(leaf)->GetNode(),
                                      fabric->GetLeaves().Get(leaf),
                                      "leaf l on port l");
                NS_TEST_EXPECT_MSG_EQ(ocs->GetPeer(fabric->GetLeafOcsPort(leaf, k)),
                                      4 + (k + leaf) % 4,
                                      "full wiring: uplink k to spine (k + l) % 4");
                NS_TEST_EXPECT_MSG_EQ(fabric->FindUplinkToSpine(leaf, k),
                                      int32_t((k + 4 - leaf) % 4),
                                      "the uplink reaching spine k");
            }
            for (uint32_t spine = 0; spine < 4; ++spine)
            {
                NS_TEST_EXPECT_MSG_EQ(
                    ocs->GetDevice(fabric->GetSpineOcsPort(spine, k, 0))->GetNode(),
                    fabric->GetSpines().Get(spine),
                    "spine j's port q on OCS k");
            }
        }
        // A flow leaf 0 -> leaf 3 pinned to spine 2 crosses leaf 0's uplink 2 (on OCS 2 to
        // spine 2), then spine 2's port on OCS 3, the one whose circuit reaches leaf 3
        // ((3 + 3) % 4 = 2): OCS port 4 + 2.
        fabric->PinSourceToSpine(0, 2);
        ClusterFiveTuple tuple{fabric->GetGpuAddress(0).Get(),
                               fabric->GetGpuAddress(12).Get(),
                               49152,
                               5000,
                               6};
        std::vector<uint32_t> path = fabric->TraceFlowPath(tuple);
        NS_TEST_ASSERT_MSG_EQ(path.size(), 4, "NIC, leaf uplink, spine port, NIC");
        NS_TEST_EXPECT_MSG_EQ(path[1], fabric->GetLeafUplinks(0)[2], "leaf 0 uplink 2");
        NS_TEST_EXPECT_MSG_EQ(path[2], fabric->GetSpineDownlinks(2)[3], "spine 2 on OCS 3");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetLinks()[path[2]].device,
                              Ptr<NetDevice>(fabric->GetOcs(3)->GetDevice(6)),
                              "the spine's device on OCS 3");
        // Path latency as on the static fabric (by hand, 9002-byte frames, 720 ns at 100 Gbit/s
        // in ns resolution): two NIC links of 500 + 720 ns, two circuits of 2 x 500 + 720 ns
        // = 5880 ns. (Without the OCS's two hops it would be 3880 ns.)
        NS_TEST_EXPECT_MSG_EQ(fabric->GetPathLatency(0, 12, 9002),
                              NanoSeconds(5880),
                              "latency through the OCS layer");
        Simulator::Destroy();
    }
};

/**
 * A ring all-reduce over all 16 GPUs of the fully wired OCS fabric completes, every rank
 * sends and receives the hand-computed 2(N-1)/N M bytes, the OCSs forward its frames and drop
 * none. Control: light an unmapped port's interface by hand and put it in a leaf's route (what
 * routing that ignored circuits would do): the OCS then drops frames as UNMAPPED.
 */
class ClosOcsFabricRingTestCase : public TestCase
{
  public:
    explicit ClosOcsFabricRingTestCase(bool control)
        : TestCase(std::string("OCS fabric carries a ring all-reduce with 0 OCS drops") +
                   (control ? " (control: a route into an unmapped port drops)" : "")),
          m_control(control)
    {
    }

  private:
    void DoRun() override
    {
        // 2 spines x 8 ports: 2 ports per spine per OCS; no full wiring (OcsCount != Spines),
        // so every port starts unmapped. Light OCS 0 and 1 by hand: on OCS k, leaf l -> spine
        // (l / 2 + k) % 2, port l % 2, so each spine reaches every leaf over OCS 0 and 1 and
        // each leaf reaches both spines. OCS 2 and 3 stay unmapped.
        Ptr<ClosFabric> fabric = OcsFabric(2, 8);
        NS_TEST_ASSERT_MSG_EQ(fabric->GetOcs(0)->GetCircuits().size(), 0, "all unmapped");
        for (uint32_t k = 0; k < 2; ++k)
        {
            for (uint32_t leaf = 0; leaf < 4; ++leaf)
            {
                NS_TEST_ASSERT_MSG_EQ(fabric->GetOcs(k)->Connect(
                                          fabric->GetLeafOcsPort(leaf, k),
                                          fabric->GetSpineOcsPort((leaf / 2 + k) % 2, k, leaf % 2)),
                                      true,
                                      "connect");
            }
        }
        if (m_control)
        {
            // After the circuits are up: leaf 0 ECMPs over all four uplinks, interfaces up.
            Simulator::Schedule(MicroSeconds(30), [fabric]() {
                Ptr<Ipv4> ipv4 = fabric->GetLeaves().Get(0)->GetObject<Ipv4>();
                std::vector<uint32_t> all;
                for (uint32_t k = 0; k < 4; ++k)
                {
                    uint32_t itf = ipv4->GetInterfaceForDevice(fabric->GetOcs(k)->GetDevice(0));
                    ipv4->SetUp(itf);
                    all.push_back(itf);
                }
                for (uint32_t leaf = 1; leaf < 4; ++leaf)
                {
                    fabric->GetLeafRouting(0)->AddRoute(Ipv4Address((10u << 24) | (leaf << 16)),
                                                        Ipv4Mask("/16"),
                                                        all);
                }
            });
        }
        Job job = InstallRing(fabric, AllGpus(fabric), 5000);
        Simulator::Stop(Seconds(2));
        SuiteStoppedRun run = SuiteRunUntilStopped();
        NS_TEST_EXPECT_MSG_EQ(run.threw, false, "no exception out of the run");
        const uint64_t unmapped = OcsDrops(fabric, OcsSwitch::UNMAPPED);
        uint64_t forwardedLit = 0;
        for (uint32_t k = 0; k < 2; ++k)
        {
            forwardedLit += fabric->GetOcs(k)->GetForwardedFrames();
        }
        if (m_control)
        {
            NS_TEST_EXPECT_MSG_GT(unmapped, 0, "control: frames into unmapped ports");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(run.failure.value_or(""), "", "no failure");
            NS_TEST_EXPECT_MSG_EQ(job.tracker->IsComplete(0), true, "the job completes");
            NS_TEST_EXPECT_MSG_EQ(RingBytesConserved(job), true, "2(N-1)/N M per rank");
            NS_TEST_EXPECT_MSG_EQ(OcsDrops(fabric), 0, "no OCS drop");
            NS_TEST_EXPECT_MSG_GT(forwardedLit, 1000, "the ring crosses the lit OCSs");
            NS_TEST_EXPECT_MSG_EQ(fabric->GetOcs(2)->GetForwardedFrames() +
                                      fabric->GetOcs(3)->GetForwardedFrames(),
                                  0,
                                  "nothing through the unmapped OCSs");
        }
        Simulator::Destroy();
    }

    bool m_control; //!< route into an unmapped port
};

/**
 * The full wiring carries the ring with 0 OCS drops and conserved bytes (the static policies'
 * layout over the OCS layer).
 */
class ClosOcsFabricFullWiringRingTestCase : public TestCase
{
  public:
    ClosOcsFabricFullWiringRingTestCase()
        : TestCase("OCS fabric, full wiring: ring all-reduce, bytes conserved, 0 OCS drops")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = OcsFabric(4, 4);
        Job job = InstallRing(fabric, AllGpus(fabric), 5000);
        Simulator::Stop(Seconds(2));
        SuiteStoppedRun run = SuiteRunUntilStopped();
        NS_TEST_EXPECT_MSG_EQ(run.threw, false, "no exception");
        NS_TEST_EXPECT_MSG_EQ(job.tracker->IsComplete(0), true, "the job completes");
        NS_TEST_EXPECT_MSG_EQ(RingBytesConserved(job), true, "2(N-1)/N M per rank");
        NS_TEST_EXPECT_MSG_EQ(OcsDrops(fabric), 0, "no OCS drop");
        uint64_t forwarded = 0;
        for (uint32_t k = 0; k < 4; ++k)
        {
            forwarded += fabric->GetOcs(k)->GetForwardedFrames();
        }
        NS_TEST_EXPECT_MSG_GT(forwarded, 1000, "the ring crosses the OCS layer");
        Simulator::Destroy();
    }
};

/**
 * Routes follow circuits, and a circuit change of another job never disturbs a running job.
 * Job A (leaves 0 and 1, GPUs pinned to uplink 0) runs over OCS 0 (leaf 0 -> spine 0 port 0,
 * leaf 1 -> spine 0 port 1). Job B's circuits on OCS 2 (leaf 2 and 3 to spine 1) are set up
 * while A runs, moved to other spine ports, and torn down. A's bytes and finish time are the
 * same with and without B's changes. Control: the same changes on OCS 0 (A's own ports)
 * change A's run (its circuit goes away under it and its traffic must move).
 */
class ClosOcsFabricIsolationTestCase : public TestCase
{
  public:
    ClosOcsFabricIsolationTestCase()
        : TestCase("OCS fabric: another job's circuit changes leave a running job identical "
                   "(control: changes on its own OCS do not)")
    {
    }

  private:
    struct Outcome
    {
        bool complete = false;       //!< A completed
        bool bytes = false;          //!< A's bytes conserved
        Time end;                    //!< A's finish time
        uint64_t drops = 0;          //!< all OCS drops
        bool routesFollowed = false; //!< spine routes matched the moved circuits
    };

    /// \param changes 0: none; 1: B's circuits on OCS 2; 2: the same on OCS 0 (A's)
    Outcome Run(int changes)
    {
        Ptr<ClosFabric> fabric = OcsFabric(2, 8);
        Ptr<OcsSwitch> ocsA = fabric->GetOcs(0);
        ocsA->Connect(fabric->GetLeafOcsPort(0, 0), fabric->GetSpineOcsPort(0, 0, 0));
        ocsA->Connect(fabric->GetLeafOcsPort(1, 0), fabric->GetSpineOcsPort(0, 0, 1));
        std::vector<uint32_t> gpusA = {0, 1, 2, 3, 4, 5, 6, 7};
        Job a = InstallRing(fabric, gpusA, 5000);
        for (uint32_t g : gpusA)
        {
            fabric->PinSourceToUplink(g, 0);
        }
        Outcome out;
        if (changes != 0)
        {
            const uint32_t k = changes == 1 ? 2 : 0;
            Ptr<OcsSwitch> ocs = fabric->GetOcs(k);
            // Leaves 2 and 3 (B) on OCS 2; with the control, leaves 0 and 1 on OCS 0.
            const uint32_t l0 = changes == 1 ? 2 : 0;
            Simulator::Schedule(MicroSeconds(70), [=]() {
                ocs->Reconfigure(
                    {{fabric->GetLeafOcsPort(l0, k), fabric->GetSpineOcsPort(1, k, 0)},
                     {fabric->GetLeafOcsPort(l0 + 1, k), fabric->GetSpineOcsPort(1, k, 1)}});
            });
            Simulator::Schedule(MicroSeconds(130), [=]() {
                ocs->Reconfigure(
                    {{fabric->GetLeafOcsPort(l0, k), fabric->GetSpineOcsPort(1, k, 1)},
                     {fabric->GetLeafOcsPort(l0 + 1, k), fabric->GetSpineOcsPort(1, k, 0)}});
            });
            // Once up (20 us dark): spine 1 routes leaf l0 only through its port 1 on OCS k.
            Simulator::Schedule(MicroSeconds(160), [=, &out]() {
                ClusterFiveTuple t{fabric->GetGpuAddress(15).Get(),
                                   fabric->GetGpuAddress(l0 * 4).Get(),
                                   1,
                                   2,
                                   6};
                int32_t itf = fabric->GetSpineRouting(1)->SelectInterface(t);
                Ptr<Ipv4> ipv4 = fabric->GetSpines().Get(1)->GetObject<Ipv4>();
                out.routesFollowed =
                    itf >= 0 &&
                    ipv4->GetNetDevice(itf) ==
                        Ptr<NetDevice>(ocs->GetDevice(fabric->GetSpineOcsPort(1, k, 1)));
            });
            Simulator::Schedule(MicroSeconds(200), [=]() {
                ocs->Disconnect(fabric->GetLeafOcsPort(l0, k));
                ocs->Disconnect(fabric->GetLeafOcsPort(l0 + 1, k));
            });
        }
        Simulator::Stop(Seconds(2));
        SuiteRunUntilStopped();
        out.complete = a.tracker->IsComplete(0);
        out.bytes = RingBytesConserved(a);
        out.end = out.complete ? a.tracker->GetIterations(0).back().end : Time::Max();
        out.drops = OcsDrops(fabric);
        Simulator::Destroy();
        return out;
    }

    void DoRun() override
    {
        Outcome alone = Run(0);
        Outcome beside = Run(1);
        Outcome control = Run(2);
        NS_TEST_ASSERT_MSG_EQ(alone.complete && alone.bytes, true, "A alone completes");
        NS_TEST_EXPECT_MSG_EQ(alone.drops, 0, "no drop alone");
        NS_TEST_EXPECT_MSG_GT(alone.end, MicroSeconds(210), "A runs across all of B's changes");
        NS_TEST_EXPECT_MSG_EQ(beside.complete && beside.bytes, true, "A completes beside B");
        NS_TEST_EXPECT_MSG_EQ(beside.end, alone.end, "A's finish time untouched by B");
        NS_TEST_EXPECT_MSG_EQ(beside.drops, 0, "B's changes drop none of A's frames");
        NS_TEST_EXPECT_MSG_EQ(beside.routesFollowed, true, "spine 1 follows B's moved circuit");
        NS_TEST_EXPECT_MSG_EQ(control.routesFollowed, true, "and A's in the control");
        NS_TEST_EXPECT_MSG_NE(control.end, alone.end, "control: A disturbed on its own OCS");
    }
};

/**
 * A leaf-leaf circuit (stage 2 of OCS-vClos: leaf A port k -> leaf B port k) carries traffic
 * directly: with only leaf 0 port 2 <-> leaf 1 port 2 lit, a ring over the 8 GPUs of leaves 0
 * and 1 completes with conserved bytes and 0 drops, every OCS frame goes through OCS 2, and
 * a flow's path is NIC, leaf uplink, NIC (no spine). Control: without that circuit there is
 * no route and the job's connections fail.
 */
class ClosOcsFabricLeafLeafTestCase : public TestCase
{
  public:
    explicit ClosOcsFabricLeafLeafTestCase(bool control)
        : TestCase(std::string("OCS fabric: a leaf-leaf circuit carries a ring") +
                   (control ? " (control: without it, no route)" : "")),
          m_control(control)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = OcsFabric(2, 8);
        if (!m_control)
        {
            NS_TEST_ASSERT_MSG_EQ(fabric->GetOcs(2)->Connect(fabric->GetLeafOcsPort(0, 2),
                                                             fabric->GetLeafOcsPort(1, 2)),
                                  true,
                                  "connect leaf 0 port 2 to leaf 1 port 2");
        }
        Job job = InstallRing(fabric, {0, 1, 2, 3, 4, 5, 6, 7}, 5000);
        Simulator::Schedule(MicroSeconds(40), [this, fabric]() {
            ClusterFiveTuple t{fabric->GetGpuAddress(0).Get(),
                               fabric->GetGpuAddress(5).Get(),
                               49152,
                               5000,
                               6};
            if (!m_control)
            {
                std::vector<uint32_t> path = fabric->TraceFlowPath(t);
                NS_TEST_EXPECT_MSG_EQ(path.size(), 3, "NIC, leaf 0 uplink 2, NIC");
                const bool viaUplink2 = path.size() == 3 && path[1] == fabric->GetLeafUplinks(0)[2];
                NS_TEST_EXPECT_MSG_EQ(viaUplink2, true, "leaf 0's uplink 2");
            }
        });
        Simulator::Stop(Seconds(2));
        SuiteStoppedRun run = SuiteRunUntilStopped();
        NS_TEST_EXPECT_MSG_EQ(run.threw, false, "no exception");
        uint64_t others = 0;
        for (uint32_t k : {0u, 1u, 3u})
        {
            others += fabric->GetOcs(k)->GetForwardedFrames();
        }
        if (m_control)
        {
            NS_TEST_EXPECT_MSG_EQ(run.failure.has_value(), true, "control: connections fail");
            NS_TEST_EXPECT_MSG_EQ(job.tracker->IsComplete(0), false, "control: no completion");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(run.failure.value_or(""), "", "no failure");
            NS_TEST_EXPECT_MSG_EQ(job.tracker->IsComplete(0), true, "the job completes");
            NS_TEST_EXPECT_MSG_EQ(RingBytesConserved(job), true, "2(N-1)/N M per rank");
            NS_TEST_EXPECT_MSG_EQ(OcsDrops(fabric), 0, "no OCS drop");
            NS_TEST_EXPECT_MSG_GT(fabric->GetOcs(2)->GetForwardedFrames(), 200, "over OCS 2");
            NS_TEST_EXPECT_MSG_EQ(others, 0, "nothing elsewhere");
        }
        Simulator::Destroy();
    }

    bool m_control; //!< no leaf-leaf circuit
};

namespace
{

/// The test job list: three jobs that fill the 16 GPUs at 0, three more after all finished
/// (at 1 s) that can reuse idle circuits. Each engine then places the same sequence.
std::vector<ClusterJobRequest>
SchedulerJobs()
{
    const uint32_t sizes[] = {8, 4, 4, 8, 6, 2};
    std::vector<ClusterJobRequest> jobs;
    for (uint32_t i = 0; i < 6; ++i)
    {
        ClusterJobRequest r;
        r.id = i;
        r.gpus = sizes[i];
        r.submit = i < 3 ? Seconds(0) : Seconds(1) + MicroSeconds(i);
        r.messageBytes = 400000;
        r.computeTime = MicroSeconds(10);
        r.iterations = 2;
        jobs.push_back(r);
    }
    return jobs;
}

/// Where the scheduler put a job, and what its booking set up.
struct Placed
{
    std::vector<uint32_t> gpus;        //!< GPUs in rank order
    std::vector<int32_t> uplinkSpine;  //!< spines
    std::vector<int32_t> uplinkPort;   //!< uplink ports
    std::vector<uint32_t> virtualLeaf; //!< virtual leaves
    uint32_t circuitsSetUp = 0;        //!< new circuits

    bool operator==(const Placed& o) const
    {
        return gpus == o.gpus && uplinkSpine == o.uplinkSpine && uplinkPort == o.uplinkPort &&
               virtualLeaf == o.virtualLeaf && circuitsSetUp == o.circuitsSetUp;
    }
};

/// What one scheduler run gave.
struct SchedulerRun
{
    uint32_t finished = 0;                 //!< jobs finished
    std::map<uint32_t, Placed> placements; //!< by job id
    std::vector<std::string> circuits;     //!< the state's circuits at the end, as text
    uint64_t ocsDrops = 0;                 //!< all OCS drops (packet)
    double spineConflicts = -1;            //!< conflicting-flow share on leaf-spine links
    bool mirrored = true;                  //!< the OCSs hold exactly the state's circuits
    uint32_t reconfigurations = 0;         //!< starts that set up circuits
};

void
RecordStart(SchedulerRun* run, const ClusterJobRequest& job, const ClusterJobAllocation& a)
{
    run->placements[job.id] =
        Placed{a.gpus, a.uplinkSpine, a.uplinkPort, a.virtualLeaf, a.circuitsSetUp};
}

/// \return the circuits of a state, leaf by leaf and OCS by OCS, as text
std::vector<std::string>
StateCircuits(const ClusterOcsState& state, uint32_t leaves, uint32_t ocss)
{
    std::vector<std::string> out;
    for (uint32_t leaf = 0; leaf < leaves; ++leaf)
    {
        for (uint32_t k = 0; k < ocss; ++k)
        {
            auto c = state.GetCircuitAtUplink(leaf, k);
            out.push_back(!c ? "-"
                             : std::to_string(c->toLeaf) + ":" + std::to_string(c->peer) + ":" +
                                   std::to_string(c->peerPort));
        }
    }
    return out;
}

/// Run the job list with a policy, on the packet fabric (4 spines, full wiring) or the flow
/// engine over the same topology.
SchedulerRun
RunScheduler(const std::string& policy, bool packet)
{
    Ptr<ClosFabricHelper> helper = OcsFabricHelper(4, 4);
    Ptr<ClusterJobScheduler> scheduler = CreateObject<ClusterJobScheduler>();
    Ptr<ClusterPlacementPolicy> placement = ClusterCreatePlacementPolicy(policy);
    placement->SetAttributeFailSafe("ReconfigurationDelay", TimeValue(MicroSeconds(20)));
    // Finished jobs' circuits stay lit: torn down at the job's end, they would cut its TCP
    // connections' closing segments (2 OCS drops here), which the "no OCS drop" check counts.
    placement->SetAttributeFailSafe("KeepIdleCircuits", BooleanValue(true));
    Ptr<ClosFabric> fabric;
    Ptr<ClosLinkLoadTracker> links;
    if (packet)
    {
        fabric = helper->Install();
        helper->AssignStreams(fabric, 0);
        scheduler->Setup(CollectivePacketExecutorOn(fabric), placement);
        links = CreateObject<ClosLinkLoadTracker>();
        links->Install(fabric);
    }
    else
    {
        Ptr<FluidExecutor> flow = CreateObject<FluidExecutor>();
        flow->SetTopology(helper->GetTopologyConfig());
        scheduler->Setup(Ptr<ClusterJobExecutor>(flow), placement);
    }
    SchedulerRun run;
    scheduler->TraceConnectWithoutContext("JobStarted", MakeBoundCallback(&RecordStart, &run));
    scheduler->Submit(SchedulerJobs());
    Simulator::Stop(Seconds(3));
    SuiteRunUntilStopped();
    run.finished = scheduler->GetFinishedJobs();
    run.reconfigurations = scheduler->GetReconfigurations();
    if (auto state = scheduler->GetOcsState())
    {
        run.circuits = StateCircuits(*state, 4, 4);
        if (packet)
        {
            for (uint32_t leaf = 0; leaf < 4; ++leaf)
            {
                for (uint32_t k = 0; k < 4; ++k)
                {
                    auto c = state->GetCircuitAtUplink(leaf, k);
                    const uint32_t peer = fabric->GetOcs(k)->GetPeer(leaf);
                    const uint32_t want =
                        !c ? OcsSwitch::NO_PORT
                           : (c->toLeaf ? c->peer : fabric->GetSpineOcsPort(c->peer, k, 0));
                    run.mirrored = run.mirrored && peer == want;
                }
            }
        }
    }
    if (packet)
    {
        run.ocsDrops = OcsDrops(fabric);
        run.spineConflicts = links->GetSpineConflictingFlowShare();
    }
    Simulator::Destroy();
    return run;
}

} // namespace

/**
 * ocs-vclos through the packet engine: every job finishes, the OCSs hold exactly the
 * scheduler's circuits (set up for new jobs, kept idle after), no OCS drops a frame and no
 * flow meets another on a leaf-spine link. Control: ecmp-first-fit on the full wiring, same jobs,
 * does show conflicting flows.
 */
class ClosOcsFabricSchedulerTestCase : public TestCase
{
  public:
    ClosOcsFabricSchedulerTestCase()
        : TestCase("packet engine, ocs-vclos: jobs finish on their own lit circuits, 0 OCS "
                   "drops, 0 conflicts (control: ecmp-first-fit on the full wiring conflicts)")
    {
    }

  private:
    void DoRun() override
    {
        SchedulerRun ocs = RunScheduler("ocs-vclos", true);
        NS_TEST_EXPECT_MSG_EQ(ocs.finished, 6, "every job finished");
        NS_TEST_EXPECT_MSG_GT(ocs.reconfigurations, 0, "circuits were set up");
        NS_TEST_EXPECT_MSG_EQ(ocs.mirrored, true, "the OCSs hold the state's circuits");
        NS_TEST_EXPECT_MSG_EQ(ocs.ocsDrops, 0, "no OCS drop");
        NS_TEST_EXPECT_MSG_EQ(ocs.spineConflicts, 0.0, "no conflicting flow");
        uint32_t withPorts = 0;
        for (const auto& [id, p] : ocs.placements)
        {
            withPorts += p.uplinkPort.empty() ? 0 : 1;
        }
        NS_TEST_EXPECT_MSG_GT(withPorts, 0, "jobs ran on circuits of their own");
        SchedulerRun ecmp = RunScheduler("ecmp-first-fit", true);
        NS_TEST_EXPECT_MSG_EQ(ecmp.finished, 6, "control: every job finished");
        NS_TEST_EXPECT_MSG_EQ(ecmp.ocsDrops, 0, "control: no OCS drop on the full wiring");
        NS_TEST_EXPECT_MSG_GT(ecmp.spineConflicts, 0.0, "control: ECMP flows conflict");
    }
};

/**
 * The packet and flow engines give the same placements and circuits for the same job
 * sequence (the scheduler's allocations and its final circuit state). Control: a different
 * policy's placements differ from ocs-vclos's.
 */
class ClosOcsFabricEnginesAgreeTestCase : public TestCase
{
  public:
    ClosOcsFabricEnginesAgreeTestCase()
        : TestCase("ocs-vclos: packet and flow engines place the same GPUs, ports and circuits")
    {
    }

  private:
    void DoRun() override
    {
        SchedulerRun packet = RunScheduler("ocs-vclos", true);
        SchedulerRun flow = RunScheduler("ocs-vclos", false);
        NS_TEST_ASSERT_MSG_EQ(packet.placements.size(), 6, "packet: every job placed");
        NS_TEST_ASSERT_MSG_EQ(flow.placements.size(), 6, "flow: every job placed");
        for (uint32_t id = 0; id < 6; ++id)
        {
            NS_TEST_EXPECT_MSG_EQ((packet.placements[id] == flow.placements[id]),
                                  true,
                                  "job " << id << ": same placement");
        }
        NS_TEST_EXPECT_MSG_EQ((packet.circuits == flow.circuits), true, "same circuits");
        SchedulerRun other = RunScheduler("vclos", false);
        bool anyDiffers = false;
        for (uint32_t id = 0; id < 6; ++id)
        {
            anyDiffers = anyDiffers || !(other.placements[id] == packet.placements[id]);
        }
        NS_TEST_EXPECT_MSG_EQ(anyDiffers, true, "control: the comparison sees a difference");
    }
};

/// The suite.
class ClosOcsFabricTestSuite : public TestSuite
{
  public:
    ClosOcsFabricTestSuite()
        : TestSuite("clos-fabric-ocs", UNIT)
    {
        AddTestCase(new ClosOcsFabricWiringTestCase, TestCase::QUICK);
        AddTestCase(new ClosOcsFabricFullWiringRingTestCase, TestCase::QUICK);
        AddTestCase(new ClosOcsFabricRingTestCase(false), TestCase::QUICK);
        AddTestCase(new ClosOcsFabricRingTestCase(true), TestCase::QUICK);
        AddTestCase(new ClosOcsFabricIsolationTestCase, TestCase::QUICK);
        AddTestCase(new ClosOcsFabricLeafLeafTestCase(false), TestCase::QUICK);
        AddTestCase(new ClosOcsFabricLeafLeafTestCase(true), TestCase::QUICK);
        AddTestCase(new ClosOcsFabricSchedulerTestCase, TestCase::QUICK);
        AddTestCase(new ClosOcsFabricEnginesAgreeTestCase, TestCase::QUICK);
    }
};

/// Static instance.
static ClosOcsFabricTestSuite g_vclosOcsFabricTestSuite;
