/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_STATS_TRACKER_H
#define ONCACHE_STATS_TRACKER_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/oncache-cluster.h"
#include "ns3/oncache-flow-key.h"
#include "ns3/oncache-host-datapath.h"

#include <array>
#include <map>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief Collects a cluster's statistics from its trace sources: data-path decisions (per
 *        direction, per path, per connection), drops, deliveries and per-core CPU busy time.
 */
class OncacheStatsTracker : public Object
{
  public:
    /// Per-connection counters.
    struct FlowCounters
    {
        uint64_t egressSlow = 0;    //!< egress decisions that took the fallback overlay
        uint64_t egressFast = 0;    //!< egress fast-path hits
        uint64_t ingressSlow = 0;   //!< ingress decisions that took the fallback overlay
        uint64_t ingressFast = 0;   //!< ingress fast-path hits
        uint64_t slowAfterFast = 0; //!< slow egress decisions after the first egress hit
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheStatsTracker();

    /**
     * \brief Connect to every host of a cluster.
     * \param cluster the cluster
     */
    void Install(Ptr<OncacheCluster> cluster);

    /**
     * \param direction egress or ingress
     * \param path a path
     * \return the number of decisions
     */
    uint64_t GetPathCount(OncacheHostDatapath::Direction direction,
                          OncacheHostDatapath::Path path) const;

    /**
     * \param flow a connection, in either orientation
     * \return its counters (zero when never seen)
     */
    FlowCounters GetFlow(const OncacheFlowKey& flow) const;

    /// \return every connection seen, canonical orientation
    std::vector<OncacheFlowKey> GetFlows() const;

    /**
     * \param reason a drop reason
     * \return the drops for that reason
     */
    uint64_t GetDrops(OncacheHostDatapath::DropReason reason) const;

    /// \return all drops by the fallback overlay
    uint64_t GetTotalDrops() const;

    /**
     * \param host a host index
     * \param pod a pod IP
     * \return the packets handed to that pod by that host
     */
    uint64_t GetDelivered(uint32_t host, Ipv4Address pod) const;

    /**
     * \param host a host index
     * \param core a core index
     * \return the time that core was busy
     */
    Time GetCoreBusy(uint32_t host, uint32_t core) const;

    /**
     * \param host a host index
     * \return the busy time of all its cores
     */
    Time GetHostBusy(uint32_t host) const;

  private:
    /**
     * \brief Path trace sink.
     * \param host host index
     * \param flow inner flow
     * \param direction direction
     * \param path path
     */
    void OnPath(uint32_t host,
                const OncacheFlowKey& flow,
                OncacheHostDatapath::Direction direction,
                OncacheHostDatapath::Path path);

    /**
     * \brief Drop trace sink.
     * \param host host index
     * \param packet the packet
     * \param reason the reason
     */
    void OnDrop(uint32_t host, Ptr<const Packet> packet, OncacheHostDatapath::DropReason reason);

    /**
     * \brief Deliver trace sink.
     * \param host host index
     * \param pod pod IP
     * \param packet the packet
     */
    void OnDeliver(uint32_t host, Ipv4Address pod, Ptr<const Packet> packet);

    /**
     * \brief CoreBusy trace sink.
     * \param host host index
     * \param core core index
     * \param start start of the job
     * \param duration its service time
     */
    void OnCoreBusy(uint32_t host, uint32_t core, Time start, Time duration);

    std::array<std::array<uint64_t, 5>, 2> m_paths; //!< [direction][path]
    std::unordered_map<OncacheFlowKey, FlowCounters, OncacheFlowKeyHash> m_flows; //!< per flow
    std::array<uint64_t, OncacheHostDatapath::DROP_RX_QUEUE + 1> m_drops;         //!< per reason
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> m_delivered; //!< (host, pod) -> packets
    std::map<std::pair<uint32_t, uint32_t>, Time> m_busy;          //!< (host, core) -> busy
};

} // namespace ns3

#endif /* ONCACHE_STATS_TRACKER_H */
