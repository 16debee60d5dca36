/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAN_LINK_IPV4_QUEUE_DISC_ITEM_H
#define LEAN_LINK_IPV4_QUEUE_DISC_ITEM_H

#include "ns3/ipv4-queue-disc-item.h"

namespace ns3
{

/**
 * \ingroup lean-link
 * \brief The Ipv4QueueDiscItem of the fast paths (LeanLinkIpv4Egress), with a cheaper GetSize.
 *
 * Ipv4QueueDiscItem::GetSize copies the packet's Ptr and asks the header for its serialized
 * size on every call, and a queue disc calls it about nine times per packet (RED's enqueue,
 * the queue's byte counters, the queue disc's statistics). This one returns the same number,
 * the packet's current size plus the header's serialized size until AddHeader has put the
 * header on the packet, from the header size read at construction (an Ipv4Header's size does
 * not change after it is built: Mark only rewrites the ECN bits) and the packet read live.
 * Everything else (header, Mark, Hash, GetUint8Value, Print) is Ipv4QueueDiscItem's.
 */
class LeanLinkIpv4QueueDiscItem : public Ipv4QueueDiscItem
{
  public:
    /**
     * \brief Create an item as Ipv4QueueDiscItem's constructor does.
     * \param p the packet (without the IPv4 header)
     * \param addr the destination MAC address
     * \param protocol the protocol number
     * \param header the IPv4 header
     */
    LeanLinkIpv4QueueDiscItem(Ptr<Packet> p,
                              const Address& addr,
                              uint16_t protocol,
                              const Ipv4Header& header);

    uint32_t GetSize() const override;
    void AddHeader() override;

  private:
    const Packet* m_raw;    //!< the packet (the item holds a reference to it)
    uint32_t m_headerBytes; //!< the header's serialized size until AddHeader, then 0
};

} // namespace ns3

#endif /* LEAN_LINK_IPV4_QUEUE_DISC_ITEM_H */
