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
 * \brief CPU service times of the data-path segments (spec section 1.3), shared by the hosts.
 *
 * Every cost is charged once per skb: per wire packet for small packets, per super-segment
 * for GSO/GRO-style bulk TCP and UDP. The segment defaults are the spec's INFERRED calibration
 * (5.0 us of overlay overhead per one-way packet, 0.8 us for an ONCache hit); the per-byte copy
 * cost on the receiving application core (spec section 6) and the overlay cost scale of
 * super-segments are fitted to the paper's 1-flow TCP figures (doc: calibration table).
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

    /**
     * \param bytes the bytes copied to the application
     * \return the receive copy cost of that many bytes
     */
    Time GetRxCopy(uint32_t bytes) const;

    /**
     * \brief Scale an overlay-specific segment cost (E2-E5, I2-I5 and ONCache's own programs)
     *        for the skb it is charged on.
     * \param cost the per-skb cost of a small packet
     * \param superSegment true for a GSO/GRO super-segment (larger than one wire frame)
     * \return cost, times SuperSegmentOverlayScale for a super-segment
     */
    Time OverlayCost(Time cost, bool superSegment) const;

    /// \return the overlay cost scale of super-segments
    double GetSuperSegmentOverlayScale() const
    {
        return m_superSegmentOverlayScale;
    }

  private:
    Time m_appTx;                      //!< AppTx
    Time m_vethEgress;                 //!< VethEgress
    Time m_overlayEgressFilter;        //!< OverlayEgressFilter
    Time m_missMark;                   //!< MissMark
    Time m_overlayEncap;               //!< OverlayEncap
    Time m_initEgress;                 //!< InitEgress
    Time m_fastEncap;                  //!< FastEncap
    Time m_driverTx;                   //!< DriverTx
    Time m_driverRx;                   //!< DriverRx
    Time m_overlayDecap;               //!< OverlayDecap
    Time m_restoreMiss;                //!< RestoreMiss
    Time m_fastDecap;                  //!< FastDecap
    Time m_overlayIngressFilter;       //!< OverlayIngressFilter
    Time m_vethIngress;                //!< VethIngress
    Time m_initIngress;                //!< InitIngress
    Time m_appRx;                      //!< AppRx
    double m_rxCopyNsPerByte;          //!< receive copy cost, ns per byte
    double m_superSegmentOverlayScale; //!< overlay cost of a super-skb over a small skb
};

} // namespace ns3

#endif /* ONCACHE_COST_MODEL_H */
