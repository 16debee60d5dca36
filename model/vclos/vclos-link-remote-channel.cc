/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-link-remote-channel.h"

#include "vclos-link-net-device.h"

#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VclosLinkRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(VclosLinkRemoteChannel);

namespace
{
/// MpiReceiver's callback: a frame from another process arrives whole at \p device.
void
ReceiveRemote(VclosLinkNetDevice* device, Ptr<Packet> packet)
{
    device->Receive(packet);
}
} // namespace

TypeId
VclosLinkRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VclosLinkRemoteChannel")
                            .SetParent<VclosLinkChannel>()
                            .SetGroupName("Vclos")
                            .AddConstructor<VclosLinkRemoteChannel>();
    return tid;
}

VclosLinkRemoteChannel::VclosLinkRemoteChannel()
    : VclosLinkChannel(true)
{
}

void
VclosLinkRemoteChannel::ReceiveFromOtherProcesses(Ptr<VclosLinkNetDevice> device)
{
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    // A raw pointer: the device owns the receiver (no reference cycle).
    receiver->SetReceiveCallback(MakeBoundCallback(&ReceiveRemote, PeekPointer(device)));
    device->AggregateObject(receiver);
}

void
VclosLinkRemoteChannel::DeliverToOtherProcess(VclosLinkNetDevice* peer,
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
