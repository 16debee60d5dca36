/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lean-link-ipv4-queue-disc-item.h"

namespace ns3
{

LeanLinkIpv4QueueDiscItem::LeanLinkIpv4QueueDiscItem(Ptr<Packet> p,
                                                     const Address& addr,
                                                     uint16_t protocol,
                                                     const Ipv4Header& header)
    : Ipv4QueueDiscItem(p, addr, protocol, header),
      m_raw(PeekPointer(p)),
      m_headerBytes(header.GetSerializedSize())
{
}

uint32_t
LeanLinkIpv4QueueDiscItem::GetSize() const
{
    return m_raw->GetSize() + m_headerBytes;
}

void
LeanLinkIpv4QueueDiscItem::AddHeader()
{
    Ipv4QueueDiscItem::AddHeader();
    m_headerBytes = 0;
}

} // namespace ns3
