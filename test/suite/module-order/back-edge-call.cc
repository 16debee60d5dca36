/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Built by the suite-module-order tests (never by default, never run). A library that links
// only ns3-cluster declares and calls a function of the clos module without its header, the
// way a back edge would slip past the include paths; the suite's libraries are linked with
// --no-undefined, so the link must fail. The control links ns3-clos and succeeds.
#include "ns3/packet.h"
#include "ns3/ptr.h"

namespace ns3
{
struct ClosParsedPacket;
bool ClosParsePacket(Ptr<const Packet> packet, ClosParsedPacket& parsed);
} // namespace ns3

int
SuiteModuleOrderCall()
{
    alignas(64) static unsigned char storage[1024];
    return ns3::ClosParsePacket(nullptr, *reinterpret_cast<ns3::ClosParsedPacket*>(storage)) ? 1
                                                                                             : 0;
}
