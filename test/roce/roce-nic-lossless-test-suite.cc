/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RoCEv2 queue pairs on the lossless fabric (LinkLayer=pfc): an incast that PFC keeps
// lossless, the same incast lossy (go-back-N recovers every byte), and DCQCN reacting to the
// switches' ECN marks. Expectations come from what PFC and go-back-N guarantee (a validation
// experiment), not from the code: no drop with PFC, drops and retransmissions without, every
// posted byte delivered.
// Tests: roce-nic, roce-qp

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/data-rate.h"
#include "ns3/pfc-switch-buffer.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-qp.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What one incast run gave.
struct IncastResult
{
    uint64_t posted = 0;            //!< bytes the senders posted
    uint64_t delivered = 0;         //!< bytes the receiver's QPs delivered in order
    uint64_t retransmitted = 0;     //!< bytes the senders sent again
    uint64_t cnps = 0;              //!< CNPs the senders received
    uint64_t drops = 0;             //!< packets the switch buffers dropped
    uint64_t pauses = 0;            //!< PFC pause frames the switches sent
    Time done;                      //!< when the last byte was delivered
    DataRate leastRate{UINT64_MAX}; //!< lowest rate a sender's rate control ended at
};

/**
 * \param pfc PFC on the switch buffers
 * \param dcqcn DCQCN on the senders' QPs
 * \return what happened when 7 GPUs each write 1 MB to one GPU across a 2-leaf fabric
 */
IncastResult
RunIncast(bool pfc, bool dcqcn)
{
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("LinkLayer", StringValue("pfc"));
    helper->SetAttribute("Leaves", UintegerValue(2));
    helper->SetAttribute("Spines", UintegerValue(4));
    helper->SetAttribute("ServersPerLeaf", UintegerValue(4));
    helper->SetAttribute("GpusPerServer", UintegerValue(1));
    helper->SetPfcBufferAttribute("BufferSize", UintegerValue(600000));
    helper->SetPfcBufferAttribute("PfcEnabled", BooleanValue(pfc));
    helper->SetPfcDeviceAttribute("EcnEnabled", BooleanValue(true));
    helper->SetPfcDeviceAttribute("EcnKmin", UintegerValue(20000));
    helper->SetPfcDeviceAttribute("EcnKmax", UintegerValue(80000));
    Ptr<ClosFabric> fabric = helper->Install();
    helper->AssignStreams(fabric, 1);

    RoceHelper rdma;
    rdma.SetNicAttribute("WireOverhead", UintegerValue(38)); // Ethernet, FCS, preamble, IFG
    rdma.SetNicAttribute("AckTimeout", StringValue("1ms"));
    if (dcqcn)
    {
        rdma.SetNicAttribute("RateControl", StringValue("ns3::Dcqcn"));
    }
    std::vector<Ptr<RoceNic>> nics = rdma.Install(fabric->GetGpus());
    IncastResult result;
    std::vector<Ptr<RoceQp>> responders;
    nics[0]->SetAcceptCallback(
        Callback<void, Ptr<RoceQp>, Ipv4Address>([&](Ptr<RoceQp> qp, Ipv4Address) {
            responders.push_back(qp);
            qp->SetDataCallback(
                Callback<void, Ptr<RoceQp>, uint32_t>([&result](Ptr<RoceQp>, uint32_t bytes) {
                    result.delivered += bytes;
                    result.done = Simulator::Now();
                }));
        }));
    const uint64_t bytes = 1000000;
    std::vector<Ptr<RoceQp>> senders;
    for (uint32_t g = 1; g < fabric->GetGpuCount(); ++g)
    {
        Ptr<RoceQp> qp = nics[g]->Connect(fabric->GetGpuAddress(0));
        qp->Send(bytes);
        result.posted += bytes;
        senders.push_back(qp);
    }
    Simulator::Stop(MilliSeconds(200));
    Simulator::Run();
    for (const auto& qp : senders)
    {
        result.retransmitted += qp->GetRetransmittedBytes();
        result.cnps += qp->GetCnps();
        if (qp->GetRateControl())
        {
            result.leastRate = std::min(result.leastRate, qp->GetRateControl()->GetRate());
        }
    }
    for (const NodeContainer* set : {&fabric->GetLeaves(), &fabric->GetSpines()})
    {
        for (uint32_t i = 0; i < set->GetN(); ++i)
        {
            Ptr<PfcSwitchBuffer> b = set->Get(i)->GetObject<PfcSwitchBuffer>();
            result.drops += b->GetDrops();
            result.pauses += b->GetPausesSent();
        }
    }
    Simulator::Destroy();
    std::printf("rdma incast 7:1, pfc=%d dcqcn=%d: posted %llu, delivered %llu, drops %llu, "
                "retransmitted %llu B, pauses %llu, CNPs %llu, done at %.1f us, least rate %s\n",
                pfc,
                dcqcn,
                static_cast<unsigned long long>(result.posted),
                static_cast<unsigned long long>(result.delivered),
                static_cast<unsigned long long>(result.drops),
                static_cast<unsigned long long>(result.retransmitted),
                static_cast<unsigned long long>(result.pauses),
                static_cast<unsigned long long>(result.cnps),
                result.done.GetNanoSeconds() / 1000.0,
                dcqcn ? std::to_string(result.leastRate.GetBitRate() / 1e9).c_str() : "-");
    return result;
}

/// PFC on: lossless (V5); PFC off: drops, and go-back-N recovers every byte (V6).
class RoceRdmaLosslessIncastTest : public TestCase
{
  public:
    RoceRdmaLosslessIncastTest()
        : TestCase("RDMA incast on LinkLayer=pfc: no drop with PFC; without, go-back-N "
                   "delivers every byte again")
    {
    }

  private:
    void DoRun() override
    {
        const IncastResult lossless = RunIncast(true, false);
        NS_TEST_EXPECT_MSG_EQ(lossless.drops, 0, "PFC: no packet dropped");
        NS_TEST_EXPECT_MSG_GT(lossless.pauses, 0, "PFC: the switches paused their senders");
        NS_TEST_EXPECT_MSG_EQ(lossless.retransmitted, 0, "PFC: nothing to send again");
        NS_TEST_EXPECT_MSG_EQ(lossless.delivered, lossless.posted, "PFC: every byte delivered");
        // 7 MB through one 100 Gb/s NIC port: at least 560 us, whatever the sharing.
        NS_TEST_EXPECT_MSG_GT(lossless.done, MicroSeconds(560), "no faster than the port");

        // Negative control: the same incast without PFC drops, and recovery shows.
        const IncastResult lossy = RunIncast(false, false);
        NS_TEST_EXPECT_MSG_GT(lossy.drops, 0, "no PFC: the shared buffer overflows");
        NS_TEST_EXPECT_MSG_GT(lossy.retransmitted, 0, "no PFC: go-back-N sends again");
        NS_TEST_EXPECT_MSG_EQ(lossy.delivered, lossy.posted, "no PFC: every byte delivered");
        NS_TEST_EXPECT_MSG_GT(lossy.done, lossless.done, "losses cost time");
    }
};

/// DCQCN on the same lossless incast: the switches' marks come back as CNPs, no drop.
class RoceRdmaLosslessDcqcnTest : public TestCase
{
  public:
    RoceRdmaLosslessDcqcnTest()
        : TestCase("RDMA incast on LinkLayer=pfc with DCQCN: CNPs reach the senders, lossless")
    {
    }

  private:
    void DoRun() override
    {
        const IncastResult with = RunIncast(true, true);
        NS_TEST_EXPECT_MSG_GT(with.cnps, 0, "ECN marks come back as CNPs");
        NS_TEST_EXPECT_MSG_LT(with.leastRate, DataRate("100Gbps"), "and cut a sender's rate");
        // (The NICs hand packets to their paused ports at the QP's rate and the ports queue
        // them, so at this size the cuts come after the data left the QPs: the completion and
        // the pauses are those of the run without DCQCN. doc/roce/roce.rst, limits.)
        NS_TEST_EXPECT_MSG_EQ(with.drops, 0, "lossless");
        NS_TEST_EXPECT_MSG_EQ(with.delivered, with.posted, "every byte delivered");
        // Control: the same run twice gives the same figures (same seed, same result).
        const IncastResult again = RunIncast(true, true);
        NS_TEST_EXPECT_MSG_EQ(again.cnps, with.cnps, "same CNPs");
        NS_TEST_EXPECT_MSG_EQ(again.pauses, with.pauses, "same pauses");
        NS_TEST_EXPECT_MSG_EQ(again.done, with.done, "same end");
    }
};

class RoceRdmaLosslessTestSuite : public TestSuite
{
  public:
    RoceRdmaLosslessTestSuite()
        : TestSuite("roce-nic-lossless", UNIT)
    {
        AddTestCase(new RoceRdmaLosslessIncastTest(), TestCase::QUICK);
        AddTestCase(new RoceRdmaLosslessDcqcnTest(), TestCase::QUICK);
    }
};

RoceRdmaLosslessTestSuite g_vclosRdmaLosslessTestSuite;

} // namespace
