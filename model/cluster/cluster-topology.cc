/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-topology.h"

#include "ns3/suite-check.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// \return "" when lo <= value <= hi, else "<field> must be lo to hi (got value)"
std::string
Range(const char* field, uint64_t value, uint64_t lo, uint64_t hi)
{
    if (value >= lo && value <= hi)
    {
        return "";
    }
    std::ostringstream os;
    os << field << " must be " << lo << " to " << hi << " (got " << value << ")";
    return os.str();
}

} // namespace

std::string
ClusterTopology::Check(const ClusterTopologyConfig& c)
{
    for (const std::string& e :
         {Range("Leaves", c.leaves, 1, MAX_LEAVES),
          Range("Spines", c.spines, 1, MAX_SPINES),
          Range("ServersPerLeaf", c.serversPerLeaf, 1, MAX_SERVERS_PER_LEAF),
          Range("GpusPerServer", c.gpusPerServer, 1, MAX_GPUS_PER_SERVER),
          Range("LeafPorts", c.leafPorts, 0, MAX_PORTS),
          Range("SpinePorts", c.spinePorts, 0, MAX_PORTS),
          Range("OcsCount", c.ocsCount, 0, MAX_PORTS),
          Range("NicDataRate", c.nicRateBps, 1, MAX_RATE_BPS),
          Range("FabricDataRate", c.fabricRateBps, 1, MAX_RATE_BPS),
          Range("IntraServerDataRate", c.intraServerRateBps, 1, MAX_RATE_BPS),
          Range("NicDelay", c.nicDelayNs, 0, MAX_DELAY_NS),
          Range("FabricDelay", c.fabricDelayNs, 0, MAX_DELAY_NS),
          Range("IntraServerDelay", c.intraServerDelayNs, 0, MAX_DELAY_NS)})
    {
        if (!e.empty())
        {
            return e;
        }
    }
    std::ostringstream os;
    // Products below fit in 64 bits: every factor is at most 2^12 or 2^10.
    const uint64_t gpusPerLeaf = uint64_t{c.serversPerLeaf} * c.gpusPerServer;
    const uint64_t gpus = gpusPerLeaf * c.leaves;
    if (gpus > MAX_GPUS)
    {
        os << "Leaves x ServersPerLeaf x GpusPerServer = " << gpus << " GPUs exceeds " << MAX_GPUS;
        return os.str();
    }
    const uint64_t uplinks = c.ocsCount > 0 ? c.ocsCount : c.spines;
    const char* uplinkName = c.ocsCount > 0 ? " OCS uplinks" : " spine uplinks";
    if (gpusPerLeaf + uplinks > MAX_PORTS)
    {
        os << "a leaf would need " << gpusPerLeaf + uplinks << " ports (" << gpusPerLeaf
           << " GPU downlinks plus " << uplinks << uplinkName << "), at most " << MAX_PORTS;
        return os.str();
    }
    if (c.leafPorts != 0 && c.leafPorts < gpusPerLeaf + uplinks)
    {
        os << "LeafPorts=" << c.leafPorts << " cannot hold the " << gpusPerLeaf
           << " GPU downlinks plus " << uplinks << uplinkName;
        return os.str();
    }
    if (c.ocsCount == 0)
    {
        if (c.spinePorts != 0 && c.spinePorts < c.leaves)
        {
            os << "SpinePorts=" << c.spinePorts << " cannot hold one downlink to each of the "
               << c.leaves << " leaves (a static layer without OcsCount is a full mesh)";
            return os.str();
        }
        return "";
    }
    if (c.spinePorts == 0 || c.spinePorts % c.ocsCount != 0)
    {
        os << "SpinePorts=" << c.spinePorts
           << " must be a positive multiple of OcsCount=" << c.ocsCount
           << " (each spine has the same number of ports on every OCS)";
        return os.str();
    }
    return "";
}

ClusterTopology::ClusterTopology(const ClusterTopologyConfig& config)
    : m_config(config)
{
    const std::string error = Check(config);
    SUITE_REQUIRE(error.empty(), std::invalid_argument, "ClusterTopology: " << error);
    m_gpus = config.leaves * config.serversPerLeaf * config.gpusPerServer;
    m_uplinks = config.ocsCount > 0 ? config.ocsCount : config.spines;
    m_place.resize(m_gpus);
    const uint32_t gpusPerLeaf = config.serversPerLeaf * config.gpusPerServer;
    for (uint32_t gpu = 0; gpu < m_gpus; ++gpu)
    {
        m_place[gpu] = Place{gpu / gpusPerLeaf, gpu / config.gpusPerServer};
    }
    const uint32_t count =
        2 * m_gpus + 2 * config.leaves * m_uplinks + (config.gpusPerServer > 1 ? 2 * m_gpus : 0);
    m_links.reserve(count);
    for (uint32_t gpu = 0; gpu < m_gpus; ++gpu)
    {
        m_links.push_back(Link{LinkKind::GPU_TO_LEAF,
                               gpu,
                               GetLeafOfGpu(gpu),
                               0,
                               config.nicRateBps,
                               config.nicDelayNs});
    }
    for (uint32_t gpu = 0; gpu < m_gpus; ++gpu)
    {
        m_links.push_back(Link{LinkKind::LEAF_TO_GPU,
                               gpu,
                               GetLeafOfGpu(gpu),
                               0,
                               config.nicRateBps,
                               config.nicDelayNs});
    }
    for (LinkKind kind : {LinkKind::LEAF_UP, LinkKind::LEAF_DOWN})
    {
        for (uint32_t leaf = 0; leaf < config.leaves; ++leaf)
        {
            for (uint32_t port = 0; port < m_uplinks; ++port)
            {
                m_links.push_back(
                    Link{kind, 0, leaf, port, config.fabricRateBps, config.fabricDelayNs});
            }
        }
    }
    if (config.gpusPerServer > 1)
    {
        for (LinkKind kind : {LinkKind::GPU_TO_SERVER, LinkKind::SERVER_TO_GPU})
        {
            for (uint32_t gpu = 0; gpu < m_gpus; ++gpu)
            {
                m_links.push_back(Link{kind,
                                       gpu,
                                       GetLeafOfGpu(gpu),
                                       0,
                                       config.intraServerRateBps,
                                       config.intraServerDelayNs});
            }
        }
    }
}

const ClusterTopologyConfig&
ClusterTopology::GetConfig() const
{
    return m_config;
}

uint32_t
ClusterTopology::GetLeaves() const
{
    return m_config.leaves;
}

uint32_t
ClusterTopology::GetSpines() const
{
    return m_config.spines;
}

uint32_t
ClusterTopology::GetServersPerLeaf() const
{
    return m_config.serversPerLeaf;
}

uint32_t
ClusterTopology::GetGpusPerServer() const
{
    return m_config.gpusPerServer;
}

uint32_t
ClusterTopology::GetGpusPerLeaf() const
{
    return m_config.serversPerLeaf * m_config.gpusPerServer;
}

uint32_t
ClusterTopology::GetGpus() const
{
    return m_gpus;
}

bool
ClusterTopology::HasOcs() const
{
    return m_config.ocsCount > 0;
}

uint32_t
ClusterTopology::GetUplinksPerLeaf() const
{
    return m_uplinks;
}

uint32_t
ClusterTopology::GetSpinePortsPerOcs() const
{
    return HasOcs() ? m_config.spinePorts / m_config.ocsCount : 0;
}

uint32_t
ClusterTopology::GetLinkCount() const
{
    return static_cast<uint32_t>(m_links.size());
}

void
ClusterTopology::FailGpu(uint32_t gpu, const char* what) const
{
    std::ostringstream os;
    os << "ClusterTopology::" << what << ": no GPU " << gpu << " (" << m_gpus << " GPUs)";
    throw std::out_of_range(os.str());
}

void
ClusterTopology::FailLeafPort(const char* what, uint32_t leaf, uint32_t port) const
{
    std::ostringstream os;
    os << "ClusterTopology::" << what << ": no leaf " << leaf << " port " << port;
    throw std::out_of_range(os.str());
}

uint32_t
ClusterTopology::GetIndexInLeaf(uint32_t gpu) const
{
    CheckGpu(gpu, "GetIndexInLeaf");
    return gpu % GetGpusPerLeaf();
}

uint32_t
ClusterTopology::GetLocalIndex(uint32_t gpu) const
{
    CheckGpu(gpu, "GetLocalIndex");
    return gpu % m_config.gpusPerServer;
}

uint32_t
ClusterTopology::GetGpuAt(uint32_t leaf, uint32_t indexInLeaf) const
{
    SUITE_REQUIRE(leaf < m_config.leaves && indexInLeaf < GetGpusPerLeaf(),
                  std::out_of_range,
                  "ClusterTopology::GetGpuAt: no GPU " << indexInLeaf << " under leaf " << leaf);
    return leaf * GetGpusPerLeaf() + indexInLeaf;
}

uint32_t
ClusterTopology::GetIntraUp(uint32_t gpu) const
{
    CheckGpu(gpu, "GetIntraUp");
    SUITE_REQUIRE(m_config.gpusPerServer > 1,
                  std::out_of_range,
                  "ClusterTopology::GetIntraUp: one GPU per server has no intra-server link");
    return 2 * m_gpus + 2 * m_config.leaves * m_uplinks + gpu;
}

uint32_t
ClusterTopology::GetIntraDown(uint32_t gpu) const
{
    CheckGpu(gpu, "GetIntraDown");
    SUITE_REQUIRE(m_config.gpusPerServer > 1,
                  std::out_of_range,
                  "ClusterTopology::GetIntraDown: one GPU per server has no intra-server link");
    return 3 * m_gpus + 2 * m_config.leaves * m_uplinks + gpu;
}

const ClusterTopology::Link&
ClusterTopology::GetLink(uint32_t id) const
{
    SUITE_REQUIRE(id < m_links.size(),
                  std::out_of_range,
                  "ClusterTopology::GetLink: no link " << id << " (" << m_links.size()
                                                       << " links)");
    return m_links[id];
}

std::string
ClusterTopology::GetLinkName(uint32_t id) const
{
    const Link& l = GetLink(id);
    std::ostringstream os;
    const char* core = HasOcs() ? "ocs" : "spine";
    switch (l.kind)
    {
    case LinkKind::GPU_TO_LEAF:
        os << "gpu" << l.gpu << "->leaf" << l.leaf;
        break;
    case LinkKind::LEAF_TO_GPU:
        os << "leaf" << l.leaf << "->gpu" << l.gpu;
        break;
    case LinkKind::LEAF_UP:
        os << "leaf" << l.leaf << "->" << core << l.port;
        break;
    case LinkKind::LEAF_DOWN:
        os << core << l.port << "->leaf" << l.leaf;
        break;
    case LinkKind::GPU_TO_SERVER:
        os << "gpu" << l.gpu << "->server" << l.gpu / m_config.gpusPerServer;
        break;
    case LinkKind::SERVER_TO_GPU:
        os << "server" << l.gpu / m_config.gpusPerServer << "->gpu" << l.gpu;
        break;
    }
    return os.str();
}

std::vector<double>
ClusterTopology::GetLinkCapacities() const
{
    std::vector<double> capacities;
    capacities.reserve(m_links.size());
    for (const Link& l : m_links)
    {
        capacities.push_back(static_cast<double>(l.rateBps));
    }
    return capacities;
}

ClusterPath
ClusterTopology::GetPath(uint32_t src, uint32_t dst, uint32_t spine) const
{
    SUITE_REQUIRE(!HasOcs(),
                  std::logic_error,
                  "ClusterTopology::GetPath: with an OCS layer use GetPathVia (ports, not spines)");
    return GetPathVia(src, dst, spine, spine);
}

ClusterPath
ClusterTopology::GetPathVia(uint32_t src, uint32_t dst, uint32_t srcPort, uint32_t dstPort) const
{
    ClusterPath path;
    path.kind = Classify(src, dst);
    switch (path.kind)
    {
    case ClusterPathKind::SAME_GPU:
        break;
    case ClusterPathKind::INTRA_SERVER:
        path.links[0] = GetIntraUp(src);
        path.links[1] = GetIntraDown(dst);
        path.size = 2;
        break;
    case ClusterPathKind::SAME_LEAF:
        path.links[0] = GetNicUp(src);
        path.links[1] = GetNicDown(dst);
        path.size = 2;
        break;
    case ClusterPathKind::VIA_CORE:
        SUITE_REQUIRE(srcPort < m_uplinks && dstPort < m_uplinks,
                      std::out_of_range,
                      "ClusterTopology::GetPathVia: no uplink port "
                          << (srcPort < m_uplinks ? dstPort : srcPort) << " (" << m_uplinks
                          << (HasOcs() ? " OCSs)" : " spines)"));
        path.links[0] = GetNicUp(src);
        path.links[1] = GetLeafUp(GetLeafOfGpu(src), srcPort);
        path.links[2] = GetLeafDown(GetLeafOfGpu(dst), dstPort);
        path.links[3] = GetNicDown(dst);
        path.size = 4;
        break;
    }
    return path;
}

uint64_t
ClusterTopology::GetPathDelayNs(const ClusterPath& path) const
{
    uint64_t delay = 0;
    for (uint32_t id : path)
    {
        delay += GetLink(id).delayNs;
    }
    return delay;
}

} // namespace ns3
