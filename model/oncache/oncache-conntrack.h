/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_CONNTRACK_H
#define ONCACHE_CONNTRACK_H

#include "oncache-flow-key.h"

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
 * direction. Entries do not time out (connections in the model are short).
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

  private:
    /// flow in its original direction -> a reply has been seen
    std::unordered_map<OncacheFlowKey, bool, OncacheFlowKeyHash> m_entries;
};

} // namespace ns3

#endif /* ONCACHE_CONNTRACK_H */
