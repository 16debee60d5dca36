/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lean-link-ecn-mark.h"

#include "ns3/assert.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"

namespace ns3
{

namespace
{
constexpr uint8_t ECN_MASK = 0x03; //!< ECN bits of the TOS byte
constexpr uint8_t ECN_CE = 0x03;   //!< congestion experienced
} // namespace

bool
LeanLinkMaybeMarkCe(const Ptr<Packet>& packet,
                    uint64_t queue,
                    const DcqcnEcnCurve& curve,
                    UniformRandomVariable* rng)
{
    if (queue <= curve.kmin)
    {
        return false;
    }
    uint8_t ip[2];
    packet->CopyData(ip, 2);
    const uint8_t ecn = ip[1] & ECN_MASK;
    if (ecn == ECN_CE || (curve.requiresEct && ecn == 0))
    {
        return false;
    }
    if (queue <= curve.kmax)
    {
        const double p = curve.pmax * static_cast<double>(queue - curve.kmin) /
                         static_cast<double>(curve.kmax - curve.kmin);
        NS_ASSERT_MSG(rng, "LeanLinkMaybeMarkCe: a ramp (kmin < kmax) needs its draws");
        if (rng->GetValue() >= p)
        {
            return false;
        }
    }
    Ipv4Header header;
    packet->RemoveHeader(header);
    header.SetEcn(Ipv4Header::ECN_CE);
    if (Node::ChecksumEnabled())
    {
        header.EnableChecksum();
    }
    packet->AddHeader(header);
    return true;
}

} // namespace ns3
