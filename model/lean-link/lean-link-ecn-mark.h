/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAN_LINK_ECN_MARK_H
#define LEAN_LINK_ECN_MARK_H

#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup lean-link
 * \brief The ECN marking curve of an egress queue (DCQCN paper, section 3; DCTCP's step is Kmin =
 * Kmax).
 *
 * A packet that arrives at (or departs from) a queue of q units (bytes, or packets: the caller
 * chooses) is marked CE with probability 0 while q <= kmin, Pmax (q - kmin) / (kmax - kmin)
 * while kmin < q <= kmax, and 1 above kmax.
 */
struct DcqcnEcnCurve
{
    uint64_t kmin = 0;       //!< at and below: never marked
    uint64_t kmax = 0;       //!< above: always marked
    double pmax = 1.0;       //!< probability at kmax
    bool requiresEct = true; //!< mark only ECT(0)/ECT(1) packets (false: any packet, as HPCC)
};

/**
 * \brief Mark an IPv4 packet CE if the curve says so at this queue length.
 *
 * The packet starts with its IPv4 header (as it goes to a device). A packet already CE, and
 * a Not-ECT one when the curve requires ECT, is left alone. The random draw is made only in
 * the curve's ramp (kmin < q <= kmax), so a step curve draws nothing. The header is rewritten
 * (with its checksum when Node::ChecksumEnabled) only when the packet is marked.
 *
 * \param packet the IPv4 packet
 * \param queue the queue length the curve is read at
 * \param curve the curve
 * \param rng the draws of the ramp (may be null for a step curve, kmin = kmax, which draws
 *        nothing)
 * \return true if the packet was marked
 */
bool LeanLinkMaybeMarkCe(const Ptr<Packet>& packet,
                         uint64_t queue,
                         const DcqcnEcnCurve& curve,
                         UniformRandomVariable* rng);

} // namespace ns3

#endif /* LEAN_LINK_ECN_MARK_H */
