/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAN_LINK_REMOTE_CHANNEL_H
#define LEAN_LINK_REMOTE_CHANNEL_H

#include "lean-link-channel.h"

namespace ns3
{

/**
 * \ingroup lean-link
 * \brief A LeanLinkChannel whose ends belong to two processes of a distributed (MPI) run,
 *        as ns-3's PointToPointRemoteChannel: a frame from this process's end goes to the
 *        other process with its arrival time (MpiInterface::SendPacket, Packet::Serialize:
 *        headers, tags and payload), where the MpiReceiver aggregated to the far end hands
 *        it to the device at that time, with that node's context.
 *
 * Built only with ns-3's mpi module (utils/build-optimized-ns3.sh builds one; Debian's
 * libns3-dev has none). LeanLinkHelper makes this channel for two nodes of different
 * system ids; the channel's Delay is the lookahead the distributed simulator reads.
 */
class LeanLinkRemoteChannel : public LeanLinkChannel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Let frames from the other process reach \p device (aggregates an MpiReceiver).
     * \param device an end of a remote channel
     */
    static void ReceiveFromOtherProcesses(Ptr<LeanLinkNetDevice> device);

    LeanLinkRemoteChannel();

  protected:
    void DeliverToOtherProcess(LeanLinkNetDevice* peer,
                               const Ptr<Packet>& packet,
                               Time delay) override;
};

} // namespace ns3

#endif // LEAN_LINK_REMOTE_CHANNEL_H
