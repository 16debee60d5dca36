/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_COST_MODEL_H
#define ONCACHE_COST_MODEL_H

#include "ns3/nstime.h"
#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup oncache
 * \brief CPU service times of the data-path segments (those of the ONCache paper's overhead
 *        analysis; the values are the suite's own fit), shared by the hosts.
 *
 * A packet's work has three parts: a per-skb part (the segment Attributes below, charged
 * once per skb, small packet or GSO/GRO super-segment), a per-wire-segment part (SegmentTx,
 * SegmentRx, OverlaySegment, FastSegment: charged once per wire frame the skb stands for,
 * ceil(payload / MSS)), and a per-wakeup part (Wakeup: a blocking receiver's sleep and
 * wake-up, once per delivered skb that carries payload). The gain of ONCache therefore changes
 * smoothly with the message size; there is no super-segment switch. Every default is fitted by
 * utils/oncache-fit.py to a named measurement of the eBPF testbed
 * (doc/oncache/ebpf/bench.csv); the values live in the generated oncache-cost-defaults.h.
 */
class OncacheCostModel : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheCostModel();

    /// \return the cost of segment AppTx
    Time GetAppTx() const
    {
        return m_appTx;
    }

    /// \return the cost of segment VethEgress
    Time GetVethEgress() const
    {
        return m_vethEgress;
    }

    /// \return the cost of segment OverlayEgressFilter
    Time GetOverlayEgressFilter() const
    {
        return m_overlayEgressFilter;
    }

    /// \return the cost of segment MissMark
    Time GetMissMark() const
    {
        return m_missMark;
    }

    /// \return the cost of segment OverlayEncap
    Time GetOverlayEncap() const
    {
        return m_overlayEncap;
    }

    /// \return the cost of segment InitEgress
    Time GetInitEgress() const
    {
        return m_initEgress;
    }

    /// \return the cost of segment FastEncap
    Time GetFastEncap() const
    {
        return m_fastEncap;
    }

    /// \return the cost of segment DriverTx
    Time GetDriverTx() const
    {
        return m_driverTx;
    }

    /// \return the cost of segment DriverRx
    Time GetDriverRx() const
    {
        return m_driverRx;
    }

    /// \return the cost of segment OverlayDecap
    Time GetOverlayDecap() const
    {
        return m_overlayDecap;
    }

    /// \return the cost of segment RestoreMiss
    Time GetRestoreMiss() const
    {
        return m_restoreMiss;
    }

    /// \return the cost of segment FastDecap
    Time GetFastDecap() const
    {
        return m_fastDecap;
    }

    /// \return the cost of segment OverlayIngressFilter
    Time GetOverlayIngressFilter() const
    {
        return m_overlayIngressFilter;
    }

    /// \return the cost of segment VethIngress
    Time GetVethIngress() const
    {
        return m_vethIngress;
    }

    /// \return the cost of segment InitIngress
    Time GetInitIngress() const
    {
        return m_initIngress;
    }

    /// \return the cost of segment AppRx
    Time GetAppRx() const
    {
        return m_appRx;
    }

    /// \return the per-wire-segment cost of transmitting (every mode)
    Time GetSegmentTx() const
    {
        return m_segmentTx;
    }

    /// \return the per-wire-segment cost of receiving (every mode)
    Time GetSegmentRx() const
    {
        return m_segmentRx;
    }

    /// \return the kernel overlay's extra per wire segment, per direction
    Time GetOverlaySegment() const
    {
        return m_overlaySegment;
    }

    /// \return the ONCache fast path's extra per wire segment, per direction
    Time GetFastSegment() const
    {
        return m_fastSegment;
    }

    /// \return the cost of one wake-up of a blocking receiver
    Time GetWakeup() const
    {
        return m_wakeup;
    }

    /**
     * \param bytes the bytes copied to the application
     * \return the receive copy cost of that many bytes
     */
    Time GetRxCopy(uint32_t bytes) const;

  private:
    Time m_appTx;                //!< AppTx
    Time m_vethEgress;           //!< VethEgress
    Time m_overlayEgressFilter;  //!< OverlayEgressFilter
    Time m_missMark;             //!< MissMark
    Time m_overlayEncap;         //!< OverlayEncap
    Time m_initEgress;           //!< InitEgress
    Time m_fastEncap;            //!< FastEncap
    Time m_driverTx;             //!< DriverTx
    Time m_driverRx;             //!< DriverRx
    Time m_overlayDecap;         //!< OverlayDecap
    Time m_restoreMiss;          //!< RestoreMiss
    Time m_fastDecap;            //!< FastDecap
    Time m_overlayIngressFilter; //!< OverlayIngressFilter
    Time m_vethIngress;          //!< VethIngress
    Time m_initIngress;          //!< InitIngress
    Time m_appRx;                //!< AppRx
    Time m_segmentTx;            //!< SegmentTx
    Time m_segmentRx;            //!< SegmentRx
    Time m_overlaySegment;       //!< OverlaySegment
    Time m_fastSegment;          //!< FastSegment
    Time m_wakeup;               //!< Wakeup
    double m_rxCopyNsPerByte;    //!< receive copy cost, ns per byte
};

} // namespace ns3

#endif /* ONCACHE_COST_MODEL_H */
