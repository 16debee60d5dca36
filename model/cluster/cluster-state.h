/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_STATE_H
#define CLUSTER_STATE_H

#include <bitset>
#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/// Most spines a ClusterState holds (the authors' 8,192-GPU OCS configuration
/// in RapidNetSim has 128).
constexpr uint32_t CLUSTER_MAX_SPINES = 256;

/**
 * \ingroup cluster
 * \brief A set of spines (bit s: spine s), fixed-size so that set operations in the
 * placement search never allocate: CLUSTER_MAX_SPINES / 64 words.
 */
using ClusterSpineSet = std::bitset<CLUSTER_MAX_SPINES>;

/**
 * \ingroup cluster
 * \brief One directed pair (leaf, spine): the leaf's uplink to the spine and the spine's
 * downlink to the leaf, booked together.
 */
struct ClusterLeafSpineLink
{
    uint32_t leaf = 0;  //!< leaf index
    uint32_t spine = 0; //!< spine index

    /**
     * \brief Equality.
     * \param other another link
     * \return true when both name the same (leaf, spine) pair
     */
    bool operator==(const ClusterLeafSpineLink& other) const
    {
        return leaf == other.leaf && spine == other.spine;
    }
};

/**
 * \ingroup cluster
 * \brief Resource state of a leaf-spine GPU cluster: who holds each GPU and each
 * leaf-spine link.
 *
 * Pure bookkeeping, without a simulator. The shape follows ClosFabric: L leaves, each with
 * ServersPerLeaf servers of GpusPerServer GPUs and one link to each of S spines; GPU ids are
 * contiguous per server and per leaf, `gpu = (leaf * ServersPerLeaf + server) *
 * GpusPerServer + local`. At most CLUSTER_MAX_SPINES (256) spines; a leaf's free links are
 * one ClusterSpineSet (bit s = link to spine s free).
 *
 * Allocate() and Release() keep the invariants: a GPU or link is held by at most one job,
 * and the free counters per server, leaf and spine match the owners. Allocate() checks the
 * whole request before changing anything: a request that books a GPU or link twice (held by
 * another job, or listed twice) throws std::logic_error and leaves the state unchanged.
 */
class ClusterState
{
  public:
    /// Owner value of a free GPU or link.
    static constexpr uint64_t NO_JOB = UINT64_MAX;

    /**
     * \brief Build an idle cluster; throws std::invalid_argument naming a zero field, or
     * Spines above CLUSTER_MAX_SPINES.
     * \param leaves L
     * \param serversPerLeaf servers under each leaf
     * \param gpusPerServer GPUs per server
     * \param spines S, 1 to CLUSTER_MAX_SPINES
     */
    ClusterState(uint32_t leaves, uint32_t serversPerLeaf, uint32_t gpusPerServer, uint32_t spines);

    /// \return L
    uint32_t GetLeaves() const;
    /// \return servers per leaf
    uint32_t GetServersPerLeaf() const;
    /// \return GPUs per server
    uint32_t GetGpusPerServer() const;
    /// \return GPUs per leaf
    uint32_t GetGpusPerLeaf() const;
    /// \return S
    uint32_t GetSpines() const;
    /// \return GPUs in the cluster
    uint32_t GetGpus() const;

    /**
     * \brief Book GPUs and leaf-spine links for a job, all or nothing.
     *
     * Throws std::logic_error when the job already holds resources or a GPU or link is held
     * or listed twice, std::out_of_range for an index outside the cluster, and
     * std::invalid_argument for an empty GPU list or the job id NO_JOB.
     * \param jobId the job
     * \param gpus its GPUs
     * \param links its links (may be empty)
     */
    void Allocate(uint64_t jobId,
                  const std::vector<uint32_t>& gpus,
                  const std::vector<ClusterLeafSpineLink>& links);

    /**
     * \brief Free everything a job holds; throws std::logic_error for an unknown job.
     * \param jobId the job
     */
    void Release(uint64_t jobId);

    /**
     * \param jobId a job
     * \return true when the job holds resources
     */
    bool HasJob(uint64_t jobId) const;
    /// \return number of jobs holding resources
    std::size_t GetJobCount() const;
    /**
     * \param jobId a job holding resources
     * \return its GPUs, ascending
     */
    const std::vector<uint32_t>& GetJobGpus(uint64_t jobId) const;
    /**
     * \param jobId a job holding resources
     * \return its links, as given to Allocate
     */
    const std::vector<ClusterLeafSpineLink>& GetJobLinks(uint64_t jobId) const;

    /// \return free GPUs in the cluster
    uint32_t GetFreeGpus() const;
    /**
     * \param leaf a leaf
     * \return its free GPUs
     */
    uint32_t GetFreeGpusOfLeaf(uint32_t leaf) const;
    /**
     * \param leaf a leaf
     * \param server a server index within the leaf
     * \return the server's free GPUs
     */
    uint32_t GetFreeGpusOfServer(uint32_t leaf, uint32_t server) const;
    /**
     * \param leaf a leaf
     * \return bit s set when the link (leaf, spine s) is free
     */
    const ClusterSpineSet& GetFreeLinks(uint32_t leaf) const;
    /**
     * \param leaf a leaf
     * \return its free links (to spines)
     */
    uint32_t GetFreeLinksOfLeaf(uint32_t leaf) const;
    /**
     * \param spine a spine
     * \return its free links (to leaves)
     */
    uint32_t GetFreeLinksOfSpine(uint32_t spine) const;
    /**
     * \param gpu a GPU
     * \return its owner, or NO_JOB
     */
    uint64_t GetGpuOwner(uint32_t gpu) const;
    /**
     * \param leaf a leaf
     * \param spine a spine
     * \return the link's owner, or NO_JOB
     */
    uint64_t GetLinkOwner(uint32_t leaf, uint32_t spine) const;
    /// \return true when no GPU and no link is held
    bool IsIdle() const;

    /**
     * \param leaf a leaf
     * \param server a server within the leaf
     * \param local a GPU within the server
     * \return the GPU id
     */
    uint32_t GetGpuId(uint32_t leaf, uint32_t server, uint32_t local) const;
    /**
     * \param gpu a GPU
     * \return its leaf
     */
    uint32_t GetLeafOfGpu(uint32_t gpu) const;
    /**
     * \param gpu a GPU
     * \return its server within its leaf
     */
    uint32_t GetServerOfGpu(uint32_t gpu) const;

    /**
     * \brief Recount every counter from the owners; throws std::logic_error on a mismatch.
     *
     * For tests: O(GPUs + L * S + booked resources).
     */
    void CheckInvariants() const;

  private:
    /// What a job holds.
    struct Holding
    {
        std::vector<uint32_t> gpus;              //!< GPUs, ascending
        std::vector<ClusterLeafSpineLink> links; //!< links
    };

    uint32_t m_leaves;                            //!< L
    uint32_t m_serversPerLeaf;                    //!< servers per leaf
    uint32_t m_gpusPerServer;                     //!< GPUs per server
    uint32_t m_spines;                            //!< S
    std::vector<uint64_t> m_gpuOwner;             //!< owner per GPU
    std::vector<uint64_t> m_linkOwner;            //!< owner per (leaf * S + spine)
    std::vector<uint32_t> m_serverFree;           //!< free GPUs per server (global index)
    std::vector<uint32_t> m_leafFree;             //!< free GPUs per leaf
    std::vector<ClusterSpineSet> m_leafFreeLinks; //!< free links per leaf
    std::vector<uint32_t> m_spineFree;            //!< free links per spine
    uint32_t m_freeGpus;                          //!< free GPUs in total
    std::map<uint64_t, Holding> m_jobs;           //!< holdings per job
};

} // namespace ns3

#endif /* CLUSTER_STATE_H */
