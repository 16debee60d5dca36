/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lean-link-remote-channel.h"

#include "lean-link-net-device.h"

#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeanLinkRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(LeanLinkRemoteChannel);

namespace
{
/// MpiReceiver's callback: a frame from another process arrives whole at \p device.
void
ReceiveRemote(LeanLinkNetDevice* device, Ptr<Packet> packet)
{
    device->Receive(packet);
}
} // namespace

TypeId
LeanLinkRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LeanLinkRemoteChannel")
                            .SetParent<LeanLinkChannel>()
                            .SetGroupName("LeanLink")
                            .AddConstructor<LeanLinkRemoteChannel>();
    return tid;
}

LeanLinkRemoteChannel::LeanLinkRemoteChannel()
    : LeanLinkChannel(true)
{
}

void
LeanLinkRemoteChannel::ReceiveFromOtherProcesses(Ptr<LeanLinkNetDevice> device)
{
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    // A raw pointer: the device owns the receiver (no reference cycle).
    receiver->SetReceiveCallback(MakeBoundCallback(&ReceiveRemote, PeekPointer(device)));
    device->AggregateObject(receiver);
}

void
LeanLinkRemoteChannel::DeliverToOtherProcess(LeanLinkNetDevice* peer,
                                             const Ptr<Packet>& packet,
                                             Time delay)
{
    NS_LOG_FUNCTION(this << peer << packet << delay);
    MpiInterface::SendPacket(packet,
                             Simulator::Now() + delay,
                             peer->GetNode()->GetId(),
                             peer->GetIfIndex());
}

} // namespace ns3
