/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLUID_BURST_H
#define FLUID_BURST_H

#include "ns3/cluster-topology.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup fluid
 * \brief Fluid flows that all start at time 0, with nothing started later, at the authors'
 * equal-share rates (FluidEqualShare): the times, bytes left and flags FluidEngine
 * (EQUAL_SHARE) gives the same flows, bit for bit, without its completion heap.
 *
 * Every instant rates are recomputed for every flow still running, so the cost is flows x
 * instants: it suits many flows that end in few instants (an all-to-all alone: 261,632
 * transfers of a 512-GPU job end in 3-6 instants), and gives up after maxInstants.
 */
class FluidBurst
{
  public:
    /// What the flows did.
    struct Result
    {
        bool complete = false;               //!< false: more than maxInstants (nothing else set)
        uint32_t instants = 0;               //!< distinct finish times up to `until`
        double end = 0;                      //!< last finish time up to `until`
        std::vector<double> finish;          //!< per flow, s; +inf when running at `until`
        std::vector<double> remaining;       //!< per flow, bytes left at `until` (0: finished)
        std::vector<uint32_t> maxSharing;    //!< per flow: most flows seen on a watched link
        std::vector<uint8_t> watchedLimited; //!< per flow: a shared watched link set its rate
    };

    /**
     * \param capacityBps every link's capacity, bit/s, by link id
     * \param watched every link's watched flag (FluidEngine::SetWatchedLinks)
     * \param paths each flow's links
     * \param bytes each flow's bytes (> 0)
     * \param until run up to this time (+inf: to the end)
     * \param maxInstants give up after this many instants
     * \return what the flows did
     */
    static Result Run(const std::vector<double>& capacityBps,
                      const std::vector<bool>& watched,
                      const std::vector<ClusterPath>& paths,
                      const std::vector<double>& bytes,
                      double until,
                      uint32_t maxInstants);
};

} // namespace ns3

#endif /* FLUID_BURST_H */
