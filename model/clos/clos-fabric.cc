/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "clos-fabric.h"

#include "clos-ecmp-routing.h"

#include "ns3/abort.h"
#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/ocs-switch.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/suite-check.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClosFabric");

NS_OBJECT_ENSURE_REGISTERED(ClosFabric);

TypeId
ClosFabric::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ClosFabric")
                            .SetParent<Object>()
                            .SetGroupName("Clos")
                            .AddConstructor<ClosFabric>();
    return tid;
}

ClosFabric::ClosFabric()
{
    NS_LOG_FUNCTION(this);
}

void
ClosFabric::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_links.clear();
    m_linkOfDevice.clear();
    m_leafRouting.clear();
    m_spineRouting.clear();
    m_ocs.clear();
    m_gpus = NodeContainer();
    m_serverSwitches = NodeContainer();
    m_leaves = NodeContainer();
    m_spines = NodeContainer();
    Object::DoDispose();
}

uint32_t
ClosFabric::GetLeafCount() const
{
    return m_leafCount;
}

uint32_t
ClosFabric::GetSpineCount() const
{
    return m_spineCount;
}

uint32_t
ClosFabric::GetServersPerLeaf() const
{
    return m_serversPerLeaf;
}

uint32_t
ClosFabric::GetGpusPerServer() const
{
    return m_gpusPerServer;
}

uint32_t
ClosFabric::GetGpusPerLeaf() const
{
    return m_serversPerLeaf * m_gpusPerServer;
}

uint32_t
ClosFabric::GetGpuCount() const
{
    return m_leafCount * GetGpusPerLeaf();
}

double
ClosFabric::GetOversubscription() const
{
    return static_cast<double>(GetGpusPerLeaf()) / m_spineCount;
}

const NodeContainer&
ClosFabric::GetGpus() const
{
    return m_gpus;
}

const NodeContainer&
ClosFabric::GetLeaves() const
{
    return m_leaves;
}

const NodeContainer&
ClosFabric::GetSpines() const
{
    return m_spines;
}

const NodeContainer&
ClosFabric::GetServerSwitches() const
{
    return m_serverSwitches;
}

void
ClosFabric::CheckGpu(uint32_t gpu, const char* what) const
{
    SUITE_REQUIRE(gpu < GetGpuCount(),
                  std::out_of_range,
                  "ClosFabric::" << what << ": GPU " << gpu << " is outside the fabric (0.."
                                 << GetGpuCount() - 1 << ")");
}

uint32_t
ClosFabric::GetLeafOfGpu(uint32_t gpu) const
{
    CheckGpu(gpu, "GetLeafOfGpu");
    return gpu / GetGpusPerLeaf();
}

uint32_t
ClosFabric::GetServerOfGpu(uint32_t gpu) const
{
    CheckGpu(gpu, "GetServerOfGpu");
    return gpu / m_gpusPerServer;
}

uint32_t
ClosFabric::GetLocalIndex(uint32_t gpu) const
{
    CheckGpu(gpu, "GetLocalIndex");
    return gpu % m_gpusPerServer;
}

uint32_t
ClosFabric::GetIndexInLeaf(uint32_t gpu) const
{
    CheckGpu(gpu, "GetIndexInLeaf");
    return gpu % GetGpusPerLeaf();
}

uint32_t
ClosFabric::GetGpuAt(uint32_t leaf, uint32_t indexInLeaf) const
{
    SUITE_REQUIRE(leaf < m_leafCount && indexInLeaf < GetGpusPerLeaf(),
                  std::out_of_range,
                  "ClosFabric::GetGpuAt: no GPU " << indexInLeaf << " under leaf " << leaf);
    return leaf * GetGpusPerLeaf() + indexInLeaf;
}

Ipv4Address
ClosFabric::GetGpuAddress(uint32_t gpu) const
{
    CheckGpu(gpu, "GetGpuAddress");
    uint32_t leaf = GetLeafOfGpu(gpu);
    uint32_t server = (gpu / m_gpusPerServer) % m_serversPerLeaf;
    uint32_t local = GetLocalIndex(gpu);
    return Ipv4Address((10u << 24) | (leaf << 16) | (server << 8) | (local + 1));
}

Ipv4Address
ClosFabric::GetGpuIntraServerAddress(uint32_t gpu) const
{
    return Ipv4Address(GetGpuAddress(gpu).Get() + INTRA_SERVER_HOST_OFFSET);
}

int32_t
ClosFabric::GetGpuId(Ipv4Address address) const
{
    uint32_t a = address.Get();
    if ((a >> 24) != 10u)
    {
        return -1;
    }
    uint32_t leaf = (a >> 16) & 0xFFu;
    uint32_t server = (a >> 8) & 0xFFu;
    uint32_t host = a & 0xFFu;
    uint32_t local =
        host > INTRA_SERVER_HOST_OFFSET ? host - INTRA_SERVER_HOST_OFFSET - 1 : host - 1;
    if (host == 0 || host > 2 * INTRA_SERVER_HOST_OFFSET || leaf >= m_leafCount ||
        server >= m_serversPerLeaf || local >= m_gpusPerServer)
    {
        return -1;
    }
    return static_cast<int32_t>((leaf * m_serversPerLeaf + server) * m_gpusPerServer + local);
}

const std::vector<ClusterLink>&
ClosFabric::GetLinks() const
{
    return m_links;
}

int32_t
ClosFabric::GetLinkOfDevice(Ptr<const NetDevice> device) const
{
    auto it = m_linkOfDevice.find(PeekPointer(device));
    return it == m_linkOfDevice.end() ? -1 : static_cast<int32_t>(it->second);
}

const std::vector<uint32_t>&
ClosFabric::GetLeafUplinks(uint32_t leaf) const
{
    SUITE_REQUIRE(leaf < m_leafCount,
                  std::out_of_range,
                  "ClosFabric::GetLeafUplinks: no leaf " << leaf);
    return m_leafUplinks[leaf];
}

const std::vector<uint32_t>&
ClosFabric::GetSpineDownlinks(uint32_t spine) const
{
    SUITE_REQUIRE(spine < m_spineCount,
                  std::out_of_range,
                  "ClosFabric::GetSpineDownlinks: no spine " << spine);
    return m_spineDownlinks[spine];
}

std::vector<uint32_t>
ClosFabric::GetPathLinks(uint32_t src, uint32_t dst, uint32_t spine) const
{
    CheckGpu(src, "GetPathLinks");
    CheckGpu(dst, "GetPathLinks");
    if (src == dst)
    {
        return {};
    }
    if (m_gpusPerServer > 1 && GetServerOfGpu(src) == GetServerOfGpu(dst))
    {
        return {m_gpuNvUplink[src], m_gpuNvDownlink[dst]};
    }
    uint32_t srcLeaf = GetLeafOfGpu(src);
    uint32_t dstLeaf = GetLeafOfGpu(dst);
    if (srcLeaf == dstLeaf)
    {
        return {m_gpuUplink[src], m_gpuDownlink[dst]};
    }
    SUITE_REQUIRE(spine < m_spineCount,
                  std::out_of_range,
                  "ClosFabric::GetPathLinks: no spine " << spine);
    if (!m_ocs.empty())
    {
        const int32_t port = FindUplinkToSpine(srcLeaf, spine);
        SUITE_REQUIRE(port >= 0,
                      std::out_of_range,
                      "ClosFabric::GetPathLinks: no circuit from leaf " << srcLeaf << " to spine "
                                                                        << spine);
        const auto& ports = m_spinePortIf[spine];
        for (uint32_t p = 0; p < ports.size(); ++p)
        {
            const uint32_t k = p / m_spinePortsPerOcs;
            if (m_ocs[k]->GetPeer(GetSpineOcsPort(spine, k, p % m_spinePortsPerOcs)) == dstLeaf)
            {
                return {m_gpuUplink[src],
                        m_leafUplinks[srcLeaf][port],
                        m_spineDownlinks[spine][p],
                        m_gpuDownlink[dst]};
            }
        }
        SUITE_REQUIRE(false,
                      std::out_of_range,
                      "ClosFabric::GetPathLinks: no circuit from spine " << spine << " to leaf "
                                                                         << dstLeaf);
    }
    return {m_gpuUplink[src],
            m_leafUplinks[srcLeaf][spine],
            m_spineDownlinks[spine][dstLeaf],
            m_gpuDownlink[dst]};
}

Time
ClosFabric::GetPathLatency(uint32_t src, uint32_t dst, uint32_t frameBytes) const
{
    Time latency(0);
    for (uint32_t id : GetPathLinks(src, dst, 0))
    {
        Ptr<NetDevice> device = m_links[id].device;
        DataRateValue rate;
        device->GetAttribute("DataRate", rate);
        TimeValue delay;
        const ClusterLink& link = m_links[id];
        if (!m_ocs.empty() &&
            (link.kind == ClusterLink::LEAF_TO_SPINE || link.kind == ClusterLink::SPINE_TO_LEAF))
        {
            // Through a circuit: two hops of the OCS's delay (the port channel's own Delay
            // attribute is not used by the switch).
            const uint32_t k =
                link.kind == ClusterLink::LEAF_TO_SPINE ? link.to : link.to / m_spinePortsPerOcs;
            m_ocs[k]->GetAttribute("Delay", delay);
            latency += delay.Get() * 2 + rate.Get().CalculateBytesTxTime(frameBytes);
            continue;
        }
        device->GetChannel()->GetAttribute("Delay", delay);
        latency += delay.Get() + rate.Get().CalculateBytesTxTime(frameBytes);
    }
    return latency;
}

std::vector<uint32_t>
ClosFabric::TraceFlowPath(const ClusterFiveTuple& tuple) const
{
    int32_t src = GetGpuId(Ipv4Address(tuple.srcAddress));
    int32_t dst = GetGpuId(Ipv4Address(tuple.dstAddress));
    SUITE_REQUIRE(src >= 0 && dst >= 0,
                  std::out_of_range,
                  "ClosFabric::TraceFlowPath: not a GPU-to-GPU flow");
    uint32_t srcLeaf = GetLeafOfGpu(src);
    uint32_t dstLeaf = GetLeafOfGpu(dst);
    if (srcLeaf == dstLeaf)
    {
        return GetPathLinks(src, dst, 0);
    }
    int32_t uplinkIf = m_leafRouting[srcLeaf]->SelectInterface(tuple);
    SUITE_REQUIRE(uplinkIf >= 0,
                  std::out_of_range,
                  "ClosFabric::TraceFlowPath: leaf " << srcLeaf << " has no route");
    const auto& interfaces = m_leafUplinkIf[srcLeaf];
    if (!m_ocs.empty())
    {
        return TraceOcsPath(tuple, src, dst, static_cast<uint32_t>(uplinkIf));
    }
    for (uint32_t spine = 0; spine < m_spineCount; ++spine)
    {
        if (interfaces[spine] == static_cast<uint32_t>(uplinkIf))
        {
            return GetPathLinks(src, dst, spine);
        }
    }
    SUITE_REQUIRE(false,
                  std::logic_error,
                  "ClosFabric::TraceFlowPath: leaf " << srcLeaf << " sent the flow down");
    return {};
}

std::vector<uint32_t>
ClosFabric::TraceOcsPath(const ClusterFiveTuple& tuple,
                         uint32_t src,
                         uint32_t dst,
                         uint32_t uplinkIf) const
{
    const uint32_t srcLeaf = GetLeafOfGpu(src);
    const uint32_t dstLeaf = GetLeafOfGpu(dst);
    const auto& interfaces = m_leafUplinkIf[srcLeaf];
    const auto it = std::find(interfaces.begin(), interfaces.end(), uplinkIf);
    SUITE_REQUIRE(it != interfaces.end(),
                  std::logic_error,
                  "ClosFabric::TraceFlowPath: leaf " << srcLeaf << " sent the flow down");
    const auto k = static_cast<uint32_t>(it - interfaces.begin());
    std::vector<uint32_t> path{m_gpuUplink[src], m_leafUplinks[srcLeaf][k]};
    const uint32_t peer = m_ocs[k]->GetPeer(GetLeafOcsPort(srcLeaf, k));
    SUITE_REQUIRE(peer != OcsSwitch::NO_PORT,
                  std::logic_error,
                  "ClosFabric::TraceFlowPath: leaf " << srcLeaf << " uplink " << k
                                                     << " has no circuit");
    if (peer < m_leafCount)
    {
        SUITE_REQUIRE(peer == dstLeaf,
                      std::logic_error,
                      "ClosFabric::TraceFlowPath: leaf " << srcLeaf << " uplink " << k
                                                         << " leads to leaf " << peer);
        path.push_back(m_gpuDownlink[dst]);
        return path;
    }
    const uint32_t spine = (peer - m_leafCount) / m_spinePortsPerOcs;
    const int32_t downIf = m_spineRouting[spine]->SelectInterface(tuple);
    const auto& spineIfs = m_spinePortIf[spine];
    const auto down = std::find(spineIfs.begin(), spineIfs.end(), static_cast<uint32_t>(downIf));
    SUITE_REQUIRE(downIf >= 0 && down != spineIfs.end(),
                  std::logic_error,
                  "ClosFabric::TraceFlowPath: spine " << spine << " has no route");
    path.push_back(m_spineDownlinks[spine][down - spineIfs.begin()]);
    path.push_back(m_gpuDownlink[dst]);
    return path;
}

uint32_t
ClosFabric::GetOcsCount() const
{
    return static_cast<uint32_t>(m_ocs.size());
}

uint32_t
ClosFabric::GetSpinePortsPerOcs() const
{
    return m_spinePortsPerOcs;
}

Ptr<OcsSwitch>
ClosFabric::GetOcs(uint32_t k) const
{
    SUITE_REQUIRE(k < m_ocs.size(), std::out_of_range, "ClosFabric::GetOcs: no OCS " << k);
    return m_ocs[k];
}

uint32_t
ClosFabric::GetLeafOcsPort(uint32_t leaf, uint32_t k) const
{
    SUITE_REQUIRE(leaf < m_leafCount && k < m_ocs.size(),
                  std::out_of_range,
                  "ClosFabric::GetLeafOcsPort: no leaf " << leaf << " on OCS " << k);
    return leaf;
}

uint32_t
ClosFabric::GetSpineOcsPort(uint32_t spine, uint32_t k, uint32_t q) const
{
    SUITE_REQUIRE(spine < m_spineCount && k < m_ocs.size() && q < m_spinePortsPerOcs,
                  std::out_of_range,
                  "ClosFabric::GetSpineOcsPort: no port " << q << " of spine " << spine
                                                          << " on OCS " << k);
    return m_leafCount + spine * m_spinePortsPerOcs + q;
}

int32_t
ClosFabric::FindUplinkToSpine(uint32_t leaf, uint32_t spine) const
{
    for (uint32_t k = 0; k < m_ocs.size(); ++k)
    {
        const uint32_t peer = m_ocs[k]->GetPeer(GetLeafOcsPort(leaf, k));
        if (peer != OcsSwitch::NO_PORT && peer >= m_leafCount &&
            (peer - m_leafCount) / m_spinePortsPerOcs == spine)
        {
            return static_cast<int32_t>(k);
        }
    }
    return -1;
}

void
ClosFabric::UpdateOcsRoutes()
{
    NS_LOG_FUNCTION(this);
    // Leaves: uplinks to spines, and direct leaf-leaf uplinks by far leaf.
    for (uint32_t leaf = 0; leaf < m_leafCount; ++leaf)
    {
        std::vector<uint32_t> toSpines;
        std::vector<std::vector<uint32_t>> direct(m_leafCount);
        for (uint32_t k = 0; k < m_ocs.size(); ++k)
        {
            const uint32_t peer = m_ocs[k]->GetPeer(GetLeafOcsPort(leaf, k));
            if (peer == OcsSwitch::NO_PORT)
            {
                continue;
            }
            (peer < m_leafCount ? direct[peer] : toSpines).push_back(m_leafUplinkIf[leaf][k]);
        }
        m_leafRouting[leaf]->AddRoute(Ipv4Address::GetAny(), Ipv4Mask::GetZero(), toSpines);
        for (uint32_t other = 0; other < m_leafCount; ++other)
        {
            if (other == leaf)
            {
                continue;
            }
            std::vector<uint32_t> group = direct[other];
            group.insert(group.end(), toSpines.begin(), toSpines.end());
            m_leafRouting[leaf]->AddRoute(Ipv4Address((10u << 24) | (other << 16)),
                                          Ipv4Mask("/16"),
                                          group);
        }
    }
    // Spines: each leaf through the spine ports whose circuit reaches it.
    for (uint32_t spine = 0; spine < m_spineCount; ++spine)
    {
        std::vector<std::vector<uint32_t>> toLeaf(m_leafCount);
        for (uint32_t p = 0; p < m_spinePortIf[spine].size(); ++p)
        {
            const uint32_t k = p / m_spinePortsPerOcs;
            const uint32_t peer =
                m_ocs[k]->GetPeer(GetSpineOcsPort(spine, k, p % m_spinePortsPerOcs));
            if (peer < m_leafCount)
            {
                toLeaf[peer].push_back(m_spinePortIf[spine][p]);
            }
        }
        for (uint32_t leaf = 0; leaf < m_leafCount; ++leaf)
        {
            m_spineRouting[spine]->AddRoute(Ipv4Address((10u << 24) | (leaf << 16)),
                                            Ipv4Mask("/16"),
                                            toLeaf[leaf]);
        }
    }
}

void
ClosFabric::PinSourceToUplink(uint32_t gpu, uint32_t port)
{
    NS_LOG_FUNCTION(this << gpu << port);
    CheckGpu(gpu, "PinSourceToUplink");
    SUITE_REQUIRE(port < m_ocs.size(),
                  std::out_of_range,
                  "ClosFabric::PinSourceToUplink: no uplink port " << port);
    uint32_t leaf = GetLeafOfGpu(gpu);
    m_leafRouting[leaf]->PinSource(GetGpuAddress(gpu), m_leafUplinkIf[leaf][port]);
}

bool
ClosFabric::PinPairAtSpine(uint32_t src, uint32_t dst, uint32_t spine, uint32_t k)
{
    NS_LOG_FUNCTION(this << src << dst << spine << k);
    CheckGpu(src, "PinPairAtSpine");
    CheckGpu(dst, "PinPairAtSpine");
    SUITE_REQUIRE(spine < m_spineCount && k < m_ocs.size(),
                  std::out_of_range,
                  "ClosFabric::PinPairAtSpine: no spine " << spine << " on OCS " << k);
    for (uint32_t q = 0; q < m_spinePortsPerOcs; ++q)
    {
        if (m_ocs[k]->GetPeer(GetSpineOcsPort(spine, k, q)) == GetLeafOfGpu(dst))
        {
            m_spineRouting[spine]->PinPair(GetGpuAddress(src),
                                           GetGpuAddress(dst),
                                           m_spinePortIf[spine][k * m_spinePortsPerOcs + q]);
            return true;
        }
    }
    return false;
}

void
ClosFabric::UnpinPairAtSpine(uint32_t src, uint32_t dst, uint32_t spine)
{
    NS_LOG_FUNCTION(this << src << dst << spine);
    CheckGpu(src, "UnpinPairAtSpine");
    CheckGpu(dst, "UnpinPairAtSpine");
    SUITE_REQUIRE(spine < m_spineCount,
                  std::out_of_range,
                  "ClosFabric::UnpinPairAtSpine: no spine " << spine);
    m_spineRouting[spine]->UnpinPair(GetGpuAddress(src), GetGpuAddress(dst));
}

Ptr<ClosEcmpRouting>
ClosFabric::GetLeafRouting(uint32_t leaf) const
{
    SUITE_REQUIRE(leaf < m_leafCount,
                  std::out_of_range,
                  "ClosFabric::GetLeafRouting: no leaf " << leaf);
    return m_leafRouting[leaf];
}

Ptr<ClosEcmpRouting>
ClosFabric::GetSpineRouting(uint32_t spine) const
{
    SUITE_REQUIRE(spine < m_spineCount,
                  std::out_of_range,
                  "ClosFabric::GetSpineRouting: no spine " << spine);
    return m_spineRouting[spine];
}

void
ClosFabric::PinSourceToSpine(uint32_t gpu, uint32_t spine)
{
    NS_LOG_FUNCTION(this << gpu << spine);
    CheckGpu(gpu, "PinSourceToSpine");
    SUITE_REQUIRE(spine < m_spineCount,
                  std::out_of_range,
                  "ClosFabric::PinSourceToSpine: no spine " << spine);
    uint32_t leaf = GetLeafOfGpu(gpu);
    m_leafRouting[leaf]->PinSource(GetGpuAddress(gpu), UplinkIfToSpine(leaf, spine));
}

void
ClosFabric::PinPairToSpine(uint32_t src, uint32_t dst, uint32_t spine)
{
    NS_LOG_FUNCTION(this << src << dst << spine);
    CheckGpu(src, "PinPairToSpine");
    CheckGpu(dst, "PinPairToSpine");
    SUITE_REQUIRE(spine < m_spineCount,
                  std::out_of_range,
                  "ClosFabric::PinPairToSpine: no spine " << spine);
    uint32_t leaf = GetLeafOfGpu(src);
    m_leafRouting[leaf]->PinPair(GetGpuAddress(src),
                                 GetGpuAddress(dst),
                                 UplinkIfToSpine(leaf, spine));
}

uint32_t
ClosFabric::UplinkIfToSpine(uint32_t leaf, uint32_t spine) const
{
    if (m_ocs.empty())
    {
        return m_leafUplinkIf[leaf][spine];
    }
    const int32_t port = FindUplinkToSpine(leaf, spine);
    SUITE_REQUIRE(port >= 0,
                  std::out_of_range,
                  "ClosFabric: no circuit from leaf " << leaf << " to spine " << spine);
    return m_leafUplinkIf[leaf][port];
}

void
ClosFabric::UnpinSource(uint32_t gpu)
{
    NS_LOG_FUNCTION(this << gpu);
    CheckGpu(gpu, "UnpinSource");
    m_leafRouting[GetLeafOfGpu(gpu)]->UnpinSource(GetGpuAddress(gpu));
}

void
ClosFabric::ClearPins()
{
    NS_LOG_FUNCTION(this);
    for (auto& routing : m_leafRouting)
    {
        routing->ClearPins();
    }
}

uint32_t
ClosFabric::AddLink(ClusterLink::Kind kind, uint32_t from, uint32_t to, Ptr<NetDevice> device)
{
    static const char* const roles[][2] = {{"gpu", "leaf"},
                                           {"leaf", "gpu"},
                                           {"leaf", "spine"},
                                           {"spine", "leaf"},
                                           {"gpu", "server"},
                                           {"server", "gpu"}};
    std::string name = std::string(roles[kind][0]) + std::to_string(from) + "->" + roles[kind][1] +
                       std::to_string(to);
    auto id = static_cast<uint32_t>(m_links.size());
    m_links.push_back(ClusterLink{kind, from, to, device, name});
    m_linkOfDevice[PeekPointer(device)] = id;
    return id;
}

} // namespace ns3
