/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-cost-model.h"

#include "oncache-cost-defaults.h"
#include "oncache-limits.h"

#include "ns3/double.h"
#include "ns3/log.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheCostModel");

NS_OBJECT_ENSURE_REGISTERED(OncacheCostModel);

namespace
{
/// Default of RxCopyNsPerByte: the per-byte work is inside the per-wire-segment costs.
constexpr double RX_COPY_NS_PER_BYTE = 0.0;
} // namespace

TypeId
OncacheCostModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheCostModel")
            .SetParent<Object>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheCostModel>()
            .AddAttribute("AppTx",
                          "E1: application syscall and the pod's TCP/UDP and IP output, per skb "
                          "(default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kAppTxNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_appTx),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("VethEgress",
                          "E2: crossing the veth pair from the pod to the host (veth_xmit, "
                          "backlog, softirq), per skb (default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kVethEgressNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_vethEgress),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("OverlayEgressFilter",
                          "E3+E4: intra-host routing, network policy and conntrack on egress "
                          "(OVS), per skb (default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kOverlayEgressFilterNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_overlayEgressFilter),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("MissMark",
                          "The ONCache egress program that misses and sets the miss mark (tc_masq "
                          "on a miss), per skb (default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kMissMarkNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_missMark),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("OverlayEncap",
                          "E5: VXLAN encapsulation, outer route and neighbour lookup, outer IP "
                          "output through host netfilter, per skb (default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kOverlayEncapNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_overlayEncap),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("InitEgress",
                          "The ONCache egress learning program on the NIC egress (tc_init_e), per "
                          "fallback skb (default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kInitEgressNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_initEgress),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("FastEncap",
                          "ONCache egress fast path: four map lookups, adjust_room, 64-byte "
                          "template copy, checksum and redirect, per skb (default fitted to the "
                          "testbed).",
                          TimeValue(NanoSeconds(oncachefit::kFastEncapNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_fastEncap),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("DriverTx",
                          "E6: qdisc and NIC driver transmit, per skb (default fitted to the "
                          "testbed).",
                          TimeValue(NanoSeconds(oncachefit::kDriverTxNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_driverTx),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("DriverRx",
                          "I1: NIC interrupt, NAPI poll, driver and GRO, per skb (default "
                          "fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kDriverRxNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_driverRx),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("OverlayDecap",
                          "I2+I3: outer IP/UDP receive, host netfilter INPUT and VXLAN "
                          "decapsulation, per skb (default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kOverlayDecapNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_overlayDecap),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("RestoreMiss",
                          "The ONCache ingress program that misses and sets the miss mark "
                          "(tc_restore on a miss), per skb (default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kRestoreMissNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_restoreMiss),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("FastDecap",
                          "ONCache ingress fast path: lookups, adjust_room(-50), MAC rewrite and "
                          "redirect_peer, per skb (default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kFastDecapNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_fastDecap),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("OverlayIngressFilter",
                          "I4: intra-host routing, network policy and conntrack on ingress (OVS), "
                          "per skb (default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kOverlayIngressFilterNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_overlayIngressFilter),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("VethIngress",
                          "I5: crossing the veth pair from the host into the pod, per skb "
                          "(default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kVethIngressNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_vethIngress),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("InitIngress",
                          "The ONCache ingress learning program on the pod's eth0 (tc_init_in), "
                          "per fallback skb (default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kInitIngressNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_initIngress),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("AppRx",
                          "I6: the pod's IP and TCP/UDP receive, socket wake-up and receive "
                          "syscall, per skb (default fitted to the testbed).",
                          TimeValue(NanoSeconds(oncachefit::kAppRxNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_appRx),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("SegmentTx",
                          "Per wire segment on transmit, every mode (GSO/TSO segmentation, "
                          "driver per frame). Fitted (utils/oncache-fit.py): half the bare-metal "
                          "per-segment work from tcp_lat_us_64 and tcp_lat_us_16384.",
                          TimeValue(NanoSeconds(oncachefit::kSegmentTxNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_segmentTx),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("SegmentRx",
                          "Per wire segment on receive, every mode (driver, GRO, per-frame "
                          "copy). Fitted like SegmentTx (the other half).",
                          TimeValue(NanoSeconds(oncachefit::kSegmentRxNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_segmentRx),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("OverlaySegment",
                          "The kernel overlay's extra per wire segment, charged on egress and "
                          "on ingress. Fitted: half the overlay's per-segment work above bare "
                          "metal's (tcp_lat_us_64, tcp_lat_us_16384).",
                          TimeValue(NanoSeconds(oncachefit::kOverlaySegmentNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_overlaySegment),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("FastSegment",
                          "The ONCache fast path's extra per wire segment, charged on egress "
                          "and on ingress. Fitted like OverlaySegment, from ONCache's latencies.",
                          TimeValue(NanoSeconds(oncachefit::kFastSegmentNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_fastSegment),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("Wakeup",
                          "Sleep and wake-up of a blocking receiver, on its application core "
                          "after each delivered skb with payload, off the latency path. Fitted: "
                          "bare-metal CPU per 64-B TCP transaction beyond two one-way latencies "
                          "(cpu_us_per_trans_tcp_rr_64, tcp_lat_us_64), halved.",
                          TimeValue(NanoSeconds(oncachefit::kWakeupNs)),
                          MakeTimeAccessor(&OncacheCostModel::m_wakeup),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("RxCopyNsPerByte",
                          "Copy cost on the receiving application core in ns per payload byte. "
                          "0 by default: the testbed fit puts the per-byte work into the "
                          "per-wire-segment costs (a segment carries at most one MSS).",
                          DoubleValue(RX_COPY_NS_PER_BYTE),
                          MakeDoubleAccessor(&OncacheCostModel::m_rxCopyNsPerByte),
                          MakeDoubleChecker<double>(0.0, ONCACHE_MAX_COPY_NS_PER_BYTE));
    return tid;
}

OncacheCostModel::OncacheCostModel()
    : m_rxCopyNsPerByte(RX_COPY_NS_PER_BYTE)
{
    NS_LOG_FUNCTION(this);
}

Time
OncacheCostModel::GetRxCopy(uint32_t bytes) const
{
    return NanoSeconds(std::llround(m_rxCopyNsPerByte * bytes));
}

} // namespace ns3
