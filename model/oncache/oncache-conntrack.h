/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_CONNTRACK_H
#define ONCACHE_CONNTRACK_H

#include "oncache-flow-key.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <unordered_map>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief A host's connection tracker, as used by the fallback overlay (nf_conntrack or OVS ct()).
 *
 * The first packet of an unknown flow creates an entry in its direction and is NEW; a packet
 * in the reply direction makes the entry ESTABLISHED, and so is every later packet in either
 * direction. An entry expires when no packet has been tracked for its timeout (NewTimeout
 * before the reply, Tcp/UdpEstablishedTimeout after it; nf_conntrack's defaults); expiry is
 * checked lazily when the flow's next packet arrives, which then starts a new entry, so the
 * tracker schedules no events. TCP teardown (FIN/RST) is not tracked.
 */
class OncacheConntrack : public Object
{
  public:
    /// Connection-tracking state of a packet.
    enum State
    {
        NEW,        //!< first direction only so far
        ESTABLISHED //!< a reply has been seen
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheConntrack();

    /**
     * \brief Account for one packet and classify it.
     * \param flow the packet's source/destination oriented flow
     * \return its state
     */
    State Track(const OncacheFlowKey& flow);

    /**
     * \param flow a flow, in either orientation
     * \return true when it is tracked
     */
    bool IsTracked(const OncacheFlowKey& flow) const;

    /// \return the number of tracked connections
    std::size_t GetSize() const;

    /**
     * \brief Forget a connection (either orientation).
     * \param flow the flow
     */
    void Forget(const OncacheFlowKey& flow);

    /// \return the entries that expired so far
    uint64_t GetExpirations() const;

  private:
    /// A tracked connection.
    struct Entry
    {
        bool established = false; //!< a reply has been seen
        Time lastSeen;            //!< when its last packet was tracked
    };

    /**
     * \param flow the entry's flow
     * \param entry an entry
     * \return true when it has expired by now
     */
    bool IsExpired(const OncacheFlowKey& flow, const Entry& entry) const;

    Time m_newTimeout;            //!< before a reply
    Time m_tcpEstablishedTimeout; //!< TCP after a reply
    Time m_udpEstablishedTimeout; //!< other protocols after a reply
    uint64_t m_expirations;       //!< expired entries
    /// flow in its original direction -> entry
    std::unordered_map<OncacheFlowKey, Entry, OncacheFlowKeyHash> m_entries;
};

} // namespace ns3

#endif /* ONCACHE_CONNTRACK_H */
