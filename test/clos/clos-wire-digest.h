/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLOS_WIRE_DIGEST_H
#define CLOS_WIRE_DIGEST_H

// Test support: a digest of every frame the fabric's devices start on the wire, for the
// cross-checks that run one fabric twice (an old and a new path) and require the same frames
// at the same times on the same links (clos-switch-forwarder, roce-host-path), and the
// fabric's ECN marks and PFC pauses they compare too.

#include "ns3/clos-fabric.h"
#include "ns3/packet.h"
#include "ns3/pfc-switch-buffer.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/// FNV-1a's offset basis: the digest of nothing.
constexpr uint64_t CLOS_FNV1A_BASIS = 14695981039346656037ull;

/// Adds \p n bytes at \p data to the FNV-1a digest \p digest.
inline void
ClosFnv1a(uint64_t& digest, const void* data, std::size_t n)
{
    const auto* bytes = static_cast<const uint8_t*>(data);
    for (std::size_t i = 0; i < n; ++i)
    {
        digest = (digest ^ bytes[i]) * 1099511628211ull;
    }
}

/// Every frame the fabric's devices start on the wire, as one digest and a count.
struct ClosWireDigest
{
    uint64_t digest = CLOS_FNV1A_BASIS; //!< FNV-1a of (time, link, frame bytes), in order
    uint64_t frames = 0;                //!< frames recorded

    /**
     * Records one frame a device starts now (a PhyTxBegin sink).
     * \param link the link's index
     * \param frame the frame, its link-layer header included
     * \return the frame's bytes
     */
    std::vector<uint8_t> Record(uint32_t link, Ptr<const Packet> frame)
    {
        const int64_t t = Simulator::Now().GetTimeStep();
        ClosFnv1a(digest, &t, sizeof(t));
        ClosFnv1a(digest, &link, sizeof(link));
        std::vector<uint8_t> bytes(frame->GetSize());
        frame->CopyData(bytes.data(), bytes.size());
        ClosFnv1a(digest, bytes.data(), bytes.size());
        ++frames;
        return bytes;
    }
};

/// \return the ECN marks of the root queue discs on every fabric link's device
inline uint64_t
ClosFabricQueueDiscMarks(Ptr<ClosFabric> fabric)
{
    uint64_t marks = 0;
    for (const ClusterLink& l : fabric->GetLinks())
    {
        Ptr<TrafficControlLayer> tc = l.device->GetNode()->GetObject<TrafficControlLayer>();
        Ptr<QueueDisc> qd = tc ? tc->GetRootQueueDiscOnDevice(l.device) : nullptr;
        if (qd)
        {
            marks += qd->GetStats().nTotalMarkedPackets;
        }
    }
    return marks;
}

/// \return the PFC pause frames the leaves' and spines' switch buffers sent
inline uint64_t
ClosFabricPausesSent(Ptr<ClosFabric> fabric)
{
    uint64_t pauses = 0;
    for (const NodeContainer* set : {&fabric->GetLeaves(), &fabric->GetSpines()})
    {
        for (uint32_t i = 0; i < set->GetN(); ++i)
        {
            if (Ptr<PfcSwitchBuffer> b = set->Get(i)->GetObject<PfcSwitchBuffer>())
            {
                pauses += b->GetPausesSent();
            }
        }
    }
    return pauses;
}

} // namespace ns3

#endif /* CLOS_WIRE_DIGEST_H */
