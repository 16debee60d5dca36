/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-state.h"

#include "ns3/suite-check.h"

#include <algorithm>

namespace ns3
{

ClusterState::ClusterState(uint32_t leaves,
                           uint32_t serversPerLeaf,
                           uint32_t gpusPerServer,
                           uint32_t spines)
    : m_leaves(leaves),
      m_serversPerLeaf(serversPerLeaf),
      m_gpusPerServer(gpusPerServer),
      m_spines(spines),
      m_freeGpus(0)
{
    SUITE_REQUIRE(leaves > 0, std::invalid_argument, "cluster: Leaves must be at least 1");
    SUITE_REQUIRE(serversPerLeaf > 0,
                  std::invalid_argument,
                  "cluster: ServersPerLeaf must be at least 1");
    SUITE_REQUIRE(gpusPerServer > 0,
                  std::invalid_argument,
                  "cluster: GpusPerServer must be at least 1");
    SUITE_REQUIRE(spines > 0, std::invalid_argument, "cluster: Spines must be at least 1");
    SUITE_REQUIRE(spines <= CLUSTER_MAX_SPINES,
                  std::invalid_argument,
                  "cluster: Spines must be at most " << CLUSTER_MAX_SPINES << " (got " << spines
                                                     << ")");
    uint64_t gpus = uint64_t(leaves) * serversPerLeaf * gpusPerServer;
    SUITE_REQUIRE(gpus < (uint64_t(1) << 31),
                  std::invalid_argument,
                  "cluster: too many GPUs (" << gpus << ")");
    m_freeGpus = static_cast<uint32_t>(gpus);
    m_gpuOwner.assign(gpus, NO_JOB);
    m_linkOwner.assign(uint64_t(leaves) * spines, NO_JOB);
    m_serverFree.assign(uint64_t(leaves) * serversPerLeaf, gpusPerServer);
    m_leafFree.assign(leaves, serversPerLeaf * gpusPerServer);
    ClusterSpineSet all;
    for (uint32_t sp = 0; sp < spines; ++sp)
    {
        all.set(sp);
    }
    m_leafFreeLinks.assign(leaves, all);
    m_spineFree.assign(spines, leaves);
}

uint32_t
ClusterState::GetLeaves() const
{
    return m_leaves;
}

uint32_t
ClusterState::GetServersPerLeaf() const
{
    return m_serversPerLeaf;
}

uint32_t
ClusterState::GetGpusPerServer() const
{
    return m_gpusPerServer;
}

uint32_t
ClusterState::GetGpusPerLeaf() const
{
    return m_serversPerLeaf * m_gpusPerServer;
}

uint32_t
ClusterState::GetSpines() const
{
    return m_spines;
}

uint32_t
ClusterState::GetGpus() const
{
    return static_cast<uint32_t>(m_gpuOwner.size());
}

void
ClusterState::Allocate(uint64_t jobId,
                       const std::vector<uint32_t>& gpus,
                       const std::vector<ClusterLeafSpineLink>& links)
{
    SUITE_REQUIRE(jobId != NO_JOB, std::invalid_argument, "allocate: job id NO_JOB is reserved");
    SUITE_REQUIRE(!gpus.empty(), std::invalid_argument, "allocate: job " << jobId << " has no GPU");
    SUITE_REQUIRE(m_jobs.count(jobId) == 0,
                  std::logic_error,
                  "allocate: job " << jobId << " already holds resources");
    std::vector<uint32_t> sortedGpus(gpus);
    std::sort(sortedGpus.begin(), sortedGpus.end());
    for (std::size_t i = 0; i < sortedGpus.size(); ++i)
    {
        uint32_t g = sortedGpus[i];
        SUITE_REQUIRE(g < m_gpuOwner.size(),
                      std::out_of_range,
                      "allocate: job " << jobId << " GPU " << g << " is outside the cluster");
        SUITE_REQUIRE(i == 0 || sortedGpus[i - 1] != g,
                      std::logic_error,
                      "allocate: job " << jobId << " lists GPU " << g << " twice");
        SUITE_REQUIRE(m_gpuOwner[g] == NO_JOB,
                      std::logic_error,
                      "allocate: job " << jobId << " GPU " << g << " is held by job "
                                       << m_gpuOwner[g]);
    }
    std::vector<uint64_t> linkIndex;
    linkIndex.reserve(links.size());
    for (const auto& l : links)
    {
        SUITE_REQUIRE(l.leaf < m_leaves && l.spine < m_spines,
                      std::out_of_range,
                      "allocate: job " << jobId << " link leaf" << l.leaf << "-spine" << l.spine
                                       << " is outside the cluster");
        uint64_t k = uint64_t(l.leaf) * m_spines + l.spine;
        SUITE_REQUIRE(m_linkOwner[k] == NO_JOB,
                      std::logic_error,
                      "allocate: job " << jobId << " link leaf" << l.leaf << "-spine" << l.spine
                                       << " is held by job " << m_linkOwner[k]);
        linkIndex.push_back(k);
    }
    std::vector<uint64_t> sortedLinks(linkIndex);
    std::sort(sortedLinks.begin(), sortedLinks.end());
    SUITE_REQUIRE(std::adjacent_find(sortedLinks.begin(), sortedLinks.end()) == sortedLinks.end(),
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
ClusterState::Release(uint64_t jobId)
{
    auto it = m_jobs.find(jobId);
    SUITE_REQUIRE(it != m_jobs.end(),
                  std::logic_error,
                  "release: job " << jobId << " holds no resources");
    for (uint32_t g : it->second.gpus)
    {
        SUITE_REQUIRE(m_gpuOwner[g] == jobId,
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
        SUITE_REQUIRE(m_linkOwner[k] == jobId,
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
ClusterState::HasJob(uint64_t jobId) const
{
    return m_jobs.count(jobId) != 0;
}

std::size_t
ClusterState::GetJobCount() const
{
    return m_jobs.size();
}

const std::vector<uint32_t>&
ClusterState::GetJobGpus(uint64_t jobId) const
{
    auto it = m_jobs.find(jobId);
    SUITE_REQUIRE(it != m_jobs.end(), std::logic_error, "job " << jobId << " holds no resources");
    return it->second.gpus;
}

const std::vector<ClusterLeafSpineLink>&
ClusterState::GetJobLinks(uint64_t jobId) const
{
    auto it = m_jobs.find(jobId);
    SUITE_REQUIRE(it != m_jobs.end(), std::logic_error, "job " << jobId << " holds no resources");
    return it->second.links;
}

uint32_t
ClusterState::GetFreeGpus() const
{
    return m_freeGpus;
}

uint32_t
ClusterState::GetFreeGpusOfLeaf(uint32_t leaf) const
{
    SUITE_REQUIRE(leaf < m_leaves, std::out_of_range, "leaf " << leaf << " is outside the cluster");
    return m_leafFree[leaf];
}

uint32_t
ClusterState::GetFreeGpusOfServer(uint32_t leaf, uint32_t server) const
{
    SUITE_REQUIRE(leaf < m_leaves && server < m_serversPerLeaf,
                  std::out_of_range,
                  "server " << server << " of leaf " << leaf << " is outside the cluster");
    return m_serverFree[leaf * m_serversPerLeaf + server];
}

const ClusterSpineSet&
ClusterState::GetFreeLinks(uint32_t leaf) const
{
    SUITE_REQUIRE(leaf < m_leaves, std::out_of_range, "leaf " << leaf << " is outside the cluster");
    return m_leafFreeLinks[leaf];
}

uint32_t
ClusterState::GetFreeLinksOfLeaf(uint32_t leaf) const
{
    return static_cast<uint32_t>(GetFreeLinks(leaf).count());
}

uint32_t
ClusterState::GetFreeLinksOfSpine(uint32_t spine) const
{
    SUITE_REQUIRE(spine < m_spines,
                  std::out_of_range,
                  "spine " << spine << " is outside the cluster");
    return m_spineFree[spine];
}

uint64_t
ClusterState::GetGpuOwner(uint32_t gpu) const
{
    SUITE_REQUIRE(gpu < m_gpuOwner.size(),
                  std::out_of_range,
                  "GPU " << gpu << " is outside the cluster");
    return m_gpuOwner[gpu];
}

uint64_t
ClusterState::GetLinkOwner(uint32_t leaf, uint32_t spine) const
{
    SUITE_REQUIRE(leaf < m_leaves && spine < m_spines,
                  std::out_of_range,
                  "link leaf" << leaf << "-spine" << spine << " is outside the cluster");
    return m_linkOwner[uint64_t(leaf) * m_spines + spine];
}

bool
ClusterState::IsIdle() const
{
    return m_jobs.empty() && m_freeGpus == m_gpuOwner.size();
}

uint32_t
ClusterState::GetGpuId(uint32_t leaf, uint32_t server, uint32_t local) const
{
    SUITE_REQUIRE(leaf < m_leaves && server < m_serversPerLeaf && local < m_gpusPerServer,
                  std::out_of_range,
                  "GPU " << local << " of server " << server << " of leaf " << leaf
                         << " is outside the cluster");
    return (leaf * m_serversPerLeaf + server) * m_gpusPerServer + local;
}

uint32_t
ClusterState::GetLeafOfGpu(uint32_t gpu) const
{
    return gpu / (m_serversPerLeaf * m_gpusPerServer);
}

uint32_t
ClusterState::GetServerOfGpu(uint32_t gpu) const
{
    return (gpu / m_gpusPerServer) % m_serversPerLeaf;
}

void
ClusterState::CheckInvariants() const
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
    SUITE_REQUIRE(serverFree == m_serverFree && leafFree == m_leafFree && freeGpus == m_freeGpus,
                  std::logic_error,
                  "invariant: free GPU counters do not match the GPU owners");
    std::vector<uint32_t> spineFree(m_spines, 0);
    std::map<uint64_t, std::size_t> linksPerJob;
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        ClusterSpineSet mask;
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
        SUITE_REQUIRE(mask == m_leafFreeLinks[l],
                      std::logic_error,
                      "invariant: free-link mask of leaf " << l << " does not match the owners");
    }
    SUITE_REQUIRE(spineFree == m_spineFree,
                  std::logic_error,
                  "invariant: free links per spine do not match the owners");
    for (const auto& [job, holding] : m_jobs)
    {
        SUITE_REQUIRE(gpusPerJob[job] == holding.gpus.size() &&
                          linksPerJob[job] == holding.links.size(),
                      std::logic_error,
                      "invariant: job " << job << " holdings do not match the owners");
    }
    SUITE_REQUIRE(gpusPerJob.size() <= m_jobs.size() && linksPerJob.size() <= m_jobs.size(),
                  std::logic_error,
                  "invariant: a resource is held by an unknown job");
}

} // namespace ns3
