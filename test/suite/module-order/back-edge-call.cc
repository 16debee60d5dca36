/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Built by the suite-module-order tests (never by default). A library that links only
// ns3-cluster declares and calls a function of the collective module without its header, the
// way a back edge would slip past the include paths; the suite's libraries are linked with
// --no-undefined, so the link must fail. The control links ns3-collective and succeeds.
#include "ns3/ptr.h"

namespace ns3
{
class ClosFabric;
class CollectivePacketExecutor;
Ptr<CollectivePacketExecutor> CollectivePacketExecutorOn(Ptr<ClosFabric> fabric);
} // namespace ns3

int
SuiteModuleOrderCall()
{
    return ns3::CollectivePacketExecutorOn(nullptr) ? 1 : 0;
}
