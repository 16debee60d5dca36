/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-cluster-state.h"

#include "vclos-check.h"

#include <algorithm>

namespace ns3
{

VclosClusterState::VclosClusterState(uint32_t leaves,
                                     uint32_t serversPerLeaf,
                                     uint32_t gpusPerServer,
                                     uint32_t spines)
    : m_leaves(leaves),
      m_serversPerLeaf(serversPerLeaf),
      m_gpusPerServer(gpusPerServer),
      m_spines(spines),
      m_freeGpus(0)
{
    VCLOS_REQUIRE(leaves > 0, std::invalid_argument, "cluster: Leaves must be at least 1");
    VCLOS_REQUIRE(serversPerLeaf > 0,
                  std::invalid_argument,
                  "cluster: ServersPerLeaf must be at least 1");
    VCLOS_REQUIRE(gpusPerServer > 0,
                  std::invalid_argument,
                  "cluster: GpusPerServer must be at least 1");
    VCLOS_REQUIRE(spines > 0, std::invalid_argument, "cluster: Spines must be at least 1");
    VCLOS_REQUIRE(spines <= VCLOS_MAX_SPINES,
                  std::invalid_argument,
                  "cluster: Spines must be at most " << VCLOS_MAX_SPINES << " (got " << spines
                                                     << ")");
    uint64_t gpus = uint64_t(leaves) * serversPerLeaf * gpusPerServer;
    VCLOS_REQUIRE(gpus < (uint64_t(1) << 31),
                  std::invalid_argument,
                  "cluster: too many GPUs (" << gpus << ")");
    m_freeGpus = static_cast<uint32_t>(gpus);
    m_gpuOwner.assign(gpus, NO_JOB);
    m_linkOwner.assign(uint64_t(leaves) * spines, NO_JOB);
    m_serverFree.assign(uint64_t(leaves) * serversPerLeaf, gpusPerServer);
    m_leafFree.assign(leaves, serversPerLeaf * gpusPerServer);
    VclosSpineSet all;
    for (uint32_t sp = 0; sp < spines; ++sp)
    {
        all.set(sp);
    }
    m_leafFreeLinks.assign(leaves, all);
    m_spineFree.assign(spines, leaves);
}

uint32_t
VclosClusterState::GetLeaves() const
{
    return m_leaves;
}

uint32_t
VclosClusterState::GetServersPerLeaf() const
{
    return m_serversPerLeaf;
}

uint32_t
VclosClusterState::GetGpusPerServer() const
{
    return m_gpusPerServer;
}

uint32_t
VclosClusterState::GetGpusPerLeaf() const
{
    return m_serversPerLeaf * m_gpusPerServer;
}

uint32_t
VclosClusterState::GetSpines() const
{
    return m_spines;
}

uint32_t
VclosClusterState::GetGpus() const
{
    return static_cast<uint32_t>(m_gpuOwner.size());
}

void
VclosClusterState::Allocate(uint64_t jobId,
                            const std::vector<uint32_t>& gpus,
                            const std::vector<VclosLeafSpineLink>& links)
{
    VCLOS_REQUIRE(jobId != NO_JOB, std::invalid_argument, "allocate: job id NO_JOB is reserved");
    VCLOS_REQUIRE(!gpus.empty(), std::invalid_argument, "allocate: job " << jobId << " has no GPU");
    VCLOS_REQUIRE(m_jobs.count(jobId) == 0,
                  std::logic_error,
                  "allocate: job " << jobId << " already holds resources");
    std::vector<uint32_t> sortedGpus(gpus);
    std::sort(sortedGpus.begin(), sortedGpus.end());
    for (std::size_t i = 0; i < sortedGpus.size(); ++i)
    {
        uint32_t g = sortedGpus[i];
        VCLOS_REQUIRE(g < m_gpuOwner.size(),
                      std::out_of_range,
                      "allocate: job " << jobId << " GPU " << g << " is outside the cluster");
        VCLOS_REQUIRE(i == 0 || sortedGpus[i - 1] != g,
                      std::logic_error,
                      "allocate: job " << jobId << " lists GPU " << g << " twice");
        VCLOS_REQUIRE(m_gpuOwner[g] == NO_JOB,
                      std::logic_error,
                      "allocate: job " << jobId << " GPU " << g << " is held by job "
                                       << m_gpuOwner[g]);
    }
    std::vector<uint64_t> linkIndex;
    linkIndex.reserve(links.size());
    for (const auto& l : links)
    {
        VCLOS_REQUIRE(l.leaf < m_leaves && l.spine < m_spines,
                      std::out_of_range,
                      "allocate: job " << jobId << " link leaf" << l.leaf << "-spine" << l.spine
                                       << " is outside the cluster");
        uint64_t k = uint64_t(l.leaf) * m_spines + l.spine;
        VCLOS_REQUIRE(m_linkOwner[k] == NO_JOB,
                      std::logic_error,
                      "allocate: job " << jobId << " link leaf" << l.leaf << "-spine" << l.spine
                                       << " is held by job " << m_linkOwner[k]);
        linkIndex.push_back(k);
    }
    std::vector<uint64_t> sortedLinks(linkIndex);
    std::sort(sortedLinks.begin(), sortedLinks.end());
    VCLOS_REQUIRE(std::adjacent_find(sortedLinks.begin(), sortedLinks.end()) == sortedLinks.end(),
                  std::logic_error,
                  "allocate: job " << jobId << " lists a link twice");

    // Checked: now book.
    for (uint32_t g : sortedGpus)
    {
        m_gpuOwner[g] = jobId;
        --m_serverFree[g / m_gpusPerServer];
        --m_leafFree[GetLeafOfGpu(g)];
        --m_freeGpus;
    }
    for (const auto& l : links)
    {
        m_linkOwner[uint64_t(l.leaf) * m_spines + l.spine] = jobId;
        m_leafFreeLinks[l.leaf].reset(l.spine);
        --m_spineFree[l.spine];
    }
    Holding& h = m_jobs[jobId];
    h.gpus = std::move(sortedGpus);
    h.links = links;
}

void
VclosClusterState::Release(uint64_t jobId)
{
    auto it = m_jobs.find(jobId);
    VCLOS_REQUIRE(it != m_jobs.end(),
                  std::logic_error,
                  "release: job " << jobId << " holds no resources");
    for (uint32_t g : it->second.gpus)
    {
        VCLOS_REQUIRE(m_gpuOwner[g] == jobId,
                      std::logic_error,
                      "release: job " << jobId << " GPU " << g << " is not held by it");
        m_gpuOwner[g] = NO_JOB;
        ++m_serverFree[g / m_gpusPerServer];
        ++m_leafFree[GetLeafOfGpu(g)];
        ++m_freeGpus;
    }
    for (const auto& l : it->second.links)
    {
        uint64_t k = uint64_t(l.leaf) * m_spines + l.spine;
        VCLOS_REQUIRE(m_linkOwner[k] == jobId,
                      std::logic_error,
                      "release: job " << jobId << " link leaf" << l.leaf << "-spine" << l.spine
                                      << " is not held by it");
        m_linkOwner[k] = NO_JOB;
        m_leafFreeLinks[l.leaf].set(l.spine);
        ++m_spineFree[l.spine];
    }
    m_jobs.erase(it);
}

bool
VclosClusterState::HasJob(uint64_t jobId) const
{
    return m_jobs.count(jobId) != 0;
}

std::size_t
VclosClusterState::GetJobCount() const
{
    return m_jobs.size();
}

const std::vector<uint32_t>&
VclosClusterState::GetJobGpus(uint64_t jobId) const
{
    auto it = m_jobs.find(jobId);
    VCLOS_REQUIRE(it != m_jobs.end(), std::logic_error, "job " << jobId << " holds no resources");
    return it->second.gpus;
}

const std::vector<VclosLeafSpineLink>&
VclosClusterState::GetJobLinks(uint64_t jobId) const
{
    auto it = m_jobs.find(jobId);
    VCLOS_REQUIRE(it != m_jobs.end(), std::logic_error, "job " << jobId << " holds no resources");
    return it->second.links;
}

uint32_t
VclosClusterState::GetFreeGpus() const
{
    return m_freeGpus;
}

uint32_t
VclosClusterState::GetFreeGpusOfLeaf(uint32_t leaf) const
{
    VCLOS_REQUIRE(leaf < m_leaves, std::out_of_range, "leaf " << leaf << " is outside the cluster");
    return m_leafFree[leaf];
}

uint32_t
VclosClusterState::GetFreeGpusOfServer(uint32_t leaf, uint32_t server) const
{
    VCLOS_REQUIRE(leaf < m_leaves && server < m_serversPerLeaf,
                  std::out_of_range,
                  "server " << server << " of leaf " << leaf << " is outside the cluster");
    return m_serverFree[leaf * m_serversPerLeaf + server];
}

const VclosSpineSet&
VclosClusterState::GetFreeLinks(uint32_t leaf) const
{
    VCLOS_REQUIRE(leaf < m_leaves, std::out_of_range, "leaf " << leaf << " is outside the cluster");
    return m_leafFreeLinks[leaf];
}

uint32_t
VclosClusterState::GetFreeLinksOfLeaf(uint32_t leaf) const
{
    return static_cast<uint32_t>(GetFreeLinks(leaf).count());
}

uint32_t
VclosClusterState::GetFreeLinksOfSpine(uint32_t spine) const
{
    VCLOS_REQUIRE(spine < m_spines,
                  std::out_of_range,
                  "spine " << spine << " is outside the cluster");
    return m_spineFree[spine];
}

uint64_t
VclosClusterState::GetGpuOwner(uint32_t gpu) const
{
    VCLOS_REQUIRE(gpu < m_gpuOwner.size(),
                  std::out_of_range,
                  "GPU " << gpu << " is outside the cluster");
    return m_gpuOwner[gpu];
}

uint64_t
VclosClusterState::GetLinkOwner(uint32_t leaf, uint32_t spine) const
{
    VCLOS_REQUIRE(leaf < m_leaves && spine < m_spines,
                  std::out_of_range,
                  "link leaf" << leaf << "-spine" << spine << " is outside the cluster");
    return m_linkOwner[uint64_t(leaf) * m_spines + spine];
}

bool
VclosClusterState::IsIdle() const
{
    return m_jobs.empty() && m_freeGpus == m_gpuOwner.size();
}

uint32_t
VclosClusterState::GetGpuId(uint32_t leaf, uint32_t server, uint32_t local) const
{
    VCLOS_REQUIRE(leaf < m_leaves && server < m_serversPerLeaf && local < m_gpusPerServer,
                  std::out_of_range,
                  "GPU " << local << " of server " << server << " of leaf " << leaf
                         << " is outside the cluster");
    return (leaf * m_serversPerLeaf + server) * m_gpusPerServer + local;
}

uint32_t
VclosClusterState::GetLeafOfGpu(uint32_t gpu) const
{
    return gpu / (m_serversPerLeaf * m_gpusPerServer);
}

uint32_t
VclosClusterState::GetServerOfGpu(uint32_t gpu) const
{
    return (gpu / m_gpusPerServer) % m_serversPerLeaf;
}

void
VclosClusterState::CheckInvariants() const
{
    std::vector<uint32_t> serverFree(m_serverFree.size(), 0);
    std::vector<uint32_t> leafFree(m_leaves, 0);
    uint32_t freeGpus = 0;
    std::map<uint64_t, std::size_t> gpusPerJob;
    for (uint32_t g = 0; g < m_gpuOwner.size(); ++g)
    {
        if (m_gpuOwner[g] == NO_JOB)
        {
            ++serverFree[g / m_gpusPerServer];
            ++leafFree[GetLeafOfGpu(g)];
            ++freeGpus;
        }
        else
        {
            ++gpusPerJob[m_gpuOwner[g]];
        }
    }
    VCLOS_REQUIRE(serverFree == m_serverFree && leafFree == m_leafFree && freeGpus == m_freeGpus,
                  std::logic_error,
                  "invariant: free GPU counters do not match the GPU owners");
    std::vector<uint32_t> spineFree(m_spines, 0);
    std::map<uint64_t, std::size_t> linksPerJob;
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        VclosSpineSet mask;
        for (uint32_t s = 0; s < m_spines; ++s)
        {
            uint64_t owner = m_linkOwner[uint64_t(l) * m_spines + s];
            if (owner == NO_JOB)
            {
                mask.set(s);
                ++spineFree[s];
            }
            else
            {
                ++linksPerJob[owner];
            }
        }
        VCLOS_REQUIRE(mask == m_leafFreeLinks[l],
                      std::logic_error,
                      "invariant: free-link mask of leaf " << l << " does not match the owners");
    }
    VCLOS_REQUIRE(spineFree == m_spineFree,
                  std::logic_error,
                  "invariant: free links per spine do not match the owners");
    for (const auto& [job, holding] : m_jobs)
    {
        VCLOS_REQUIRE(gpusPerJob[job] == holding.gpus.size() &&
                          linksPerJob[job] == holding.links.size(),
                      std::logic_error,
                      "invariant: job " << job << " holdings do not match the owners");
    }
    VCLOS_REQUIRE(gpusPerJob.size() <= m_jobs.size() && linksPerJob.size() <= m_jobs.size(),
                  std::logic_error,
                  "invariant: a resource is held by an unknown job");
}

} // namespace ns3
