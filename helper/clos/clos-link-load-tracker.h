/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLOS_LINK_LOAD_TRACKER_H
#define CLOS_LINK_LOAD_TRACKER_H

#include "ns3/clos-fabric.h"
#include "ns3/cluster-flow-hash.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/queue-item.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup clos
 * \brief Per directed link: which flows crossed it, when, and with how many bytes.
 *
 * Fed only by trace sources of every fabric device (PhyTxBegin; the Drop trace of its
 * root queue disc, MacTxDrop and PhyTxDrop): the routing and the devices know nothing of it. A flow
 * (5-tuple) is active on a link from its first to its last packet there. Two flows conflict when
 * their active intervals on some link overlap. By default TCP segments without payload (pure ACKs,
 * SYN, FIN) and RoCEv2 ACKs, NAKs and CNPs are not counted, so the figures describe data flows
 * (a queue pair's data is one flow: its UDP 5-tuple).
 */
class ClosLinkLoadTracker : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ClosLinkLoadTracker();

    /// What one link saw.
    struct LinkLoad
    {
        uint64_t bytes = 0;              //!< IP bytes of counted packets
        uint32_t flows = 0;              //!< distinct flows
        uint32_t maxConcurrentFlows = 0; //!< largest number of simultaneously active flows
        uint64_t drops = 0;              //!< packets dropped by the link's queue disc or device
        uint64_t droppedBytes = 0;       //!< their bytes
    };

    /// What one flow saw.
    struct FlowLoad
    {
        ClusterFiveTuple tuple;      //!< the flow
        std::vector<uint32_t> links; //!< links it crossed, in order of first use
        uint64_t bytes = 0;          //!< IP bytes on its first link
        Time firstSeen;              //!< first packet on any link
        Time lastSeen;               //!< last packet on any link
        uint32_t maxSharing =
            1; //!< most flows active with it on one of its links (itself included)
        bool conflicting = false;        //!< shared a link with another flow at the same time
        bool crossesSpine = false;       //!< used a leaf-spine link
        bool conflictingOnSpine = false; //!< shared a leaf-spine link with another flow
    };

    /**
     * \brief Start tracking every link of a fabric.
     * \param fabric the fabric
     */
    void Install(Ptr<ClosFabric> fabric);

    /// Forget everything seen so far (links stay tracked).
    void Reset();

    /// \param link a link id \return what it saw
    LinkLoad GetLinkLoad(uint32_t link);
    /// \return every flow seen
    const std::vector<FlowLoad>& GetFlows();
    /// \return the largest number of flows active at once on any link
    uint32_t GetMaxFlowsPerLink();
    /// \return the share of flows that shared a link with another flow (0 when none seen)
    double GetConflictingFlowShare();
    /**
     * \return among flows that crossed a leaf-spine link, the share that shared one with
     *         another flow at the same time (the vClos paper's conflicting-flow proportion;
     *         NIC and intra-server links do not count); 0 when none crossed
     */
    double GetSpineConflictingFlowShare();
    /// \return packets dropped on all links (all packets, ACKs included)
    uint64_t GetTotalDrops() const;
    /// \return bytes of the packets dropped on all links
    uint64_t GetTotalDroppedBytes() const;

    /**
     * \brief Write one row per link that carried traffic.
     * \param filename CSV path
     */
    void WriteLinkCsv(const std::string& filename);
    /**
     * \brief Write one row per flow.
     * \param filename CSV path
     */
    void WriteFlowCsv(const std::string& filename);
    /**
     * \brief Write bytes and active flows per link per BinWidth (needs BinWidth > 0).
     * \param filename CSV path
     */
    void WriteTimeSeriesCsv(const std::string& filename);

  private:
    /// One flow's presence on one link.
    struct Presence
    {
        uint32_t flow;  //!< index in m_flows
        int64_t first;  //!< first packet (time steps)
        int64_t last;   //!< last packet (time steps)
        uint64_t bytes; //!< bytes
    };

    /// One link's record.
    struct LinkRecord
    {
        std::vector<Presence> presences;             //!< flows seen
        std::unordered_map<uint32_t, uint32_t> slot; //!< flow -> its latest presence
        std::vector<uint64_t> binBytes;              //!< bytes per BinWidth
        uint64_t drops = 0;                          //!< dropped packets
        uint64_t droppedBytes = 0;                   //!< dropped bytes
    };

    /**
     * \brief PhyTxBegin sink.
     * \param tracker the tracker
     * \param link the link id
     * \param packet the packet, starting with the PPP header
     */
    static void PacketSent(Ptr<ClosLinkLoadTracker> tracker,
                           uint32_t link,
                           Ptr<const Packet> packet);
    /**
     * \brief Drop sink for device traces.
     * \param tracker the tracker
     * \param link the link id
     * \param packet the dropped packet
     */
    static void PacketDropped(Ptr<ClosLinkLoadTracker> tracker,
                              uint32_t link,
                              Ptr<const Packet> packet);
    /**
     * \brief Drop sink for queue disc traces.
     * \param tracker the tracker
     * \param link the link id
     * \param item the dropped item
     */
    static void ItemDropped(Ptr<ClosLinkLoadTracker> tracker,
                            uint32_t link,
                            Ptr<const QueueDiscItem> item);
    /**
     * \param link the link id
     * \param packet the packet
     */
    void Record(uint32_t link, Ptr<const Packet> packet);
    /**
     * \param link the link id
     * \param ipBytes IP bytes of the dropped packet
     */
    void CountDrop(uint32_t link, uint32_t ipBytes);
    /// Compute concurrency and conflicts, if anything changed.
    void Analyze();

    std::vector<std::string> m_linkNames; //!< per link id, from the fabric
    std::vector<bool> m_spineLink;        //!< per link id: leaf-spine (either direction)
    bool m_ignorePureAcks;                //!< skip TCP and RoCE packets without payload
    Time m_binWidth;                      //!< time-series bin (0: none)
    Time m_idleGap;                       //!< silence that ends an active period
    std::vector<LinkRecord> m_links;      //!< per link id
    std::vector<FlowLoad> m_flows;        //!< per flow
    std::unordered_map<ClusterFiveTuple, uint32_t, ClusterFiveTupleHasher>
        m_flowIndex;                   //!< tuple -> flow
    std::vector<LinkLoad> m_linkLoads; //!< computed by Analyze
    bool m_dirty;                      //!< Analyze needed
    uint64_t m_totalDrops = 0;         //!< drops on all links
    uint64_t m_totalDroppedBytes = 0;  //!< their IP bytes
};

} // namespace ns3

#endif /* CLOS_LINK_LOAD_TRACKER_H */
