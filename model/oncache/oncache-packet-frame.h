/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_PACKET_FRAME_H
#define ONCACHE_PACKET_FRAME_H

#include "oncache-fast-path.h"

#include "ns3/mac48-address.h"
#include "ns3/packet.h"

namespace ns3
{

/**
 * \ingroup oncache
 * \brief A packet's frame as an OncacheFastPath program sees it: an Ethernet header (IPv4),
 *        then the packet's first bytes (enough for every header the program reads).
 * \param packet the packet (IPv4 header first)
 * \param dst destination MAC
 * \param src source MAC
 * \param head how many of the packet's bytes at most
 * \return the frame; its length is the whole packet's plus the Ethernet header
 */
OncacheFastPath::Frame OncacheMakeFrame(Ptr<const Packet> packet,
                                        Mac48Address dst,
                                        Mac48Address src,
                                        uint32_t head);

/**
 * \ingroup oncache
 * \param frame a frame made by OncacheMakeFrame, before the program ran
 * \return how many of the packet's bytes it holds
 */
uint32_t OncacheFrameCopied(const OncacheFastPath::Frame& frame);

/**
 * \ingroup oncache
 * \brief Write a frame's rewritten bytes back into its packet, as they are: the packet's first
 *        `copied` bytes are replaced by the frame's bytes after its Ethernet header (the NIC or
 *        the veth adds Ethernet). The packet keeps its uid and tags.
 * \param packet the packet the frame was made from
 * \param frame the frame after the program
 * \param copied OncacheFrameCopied of the frame before the program
 */
void OncacheApplyFrame(Ptr<Packet> packet, const OncacheFastPath::Frame& frame, uint32_t copied);

/**
 * \ingroup oncache
 * \param bytes six bytes
 * \return the MAC they hold
 */
Mac48Address OncacheMacFromBytes(const uint8_t* bytes);

/**
 * \ingroup oncache
 * \param frame a frame
 * \param offset where a MAC starts in it (0: destination, 6: source)
 * \return that MAC
 */
Mac48Address OncacheFrameMac(const OncacheFastPath::Frame& frame, uint32_t offset);

} // namespace ns3

#endif /* ONCACHE_PACKET_FRAME_H */
