/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_CLUSTER_H
#define ONCACHE_CLUSTER_H

#include "oncache-host-datapath.h"
#include "oncache-policy.h"
#include "oncache-veth-net-device.h"

#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief The cluster built by OncacheTopologyHelper and its control plane: hosts, pods, the
 *        overlay's routes, the network policy, and the ONCache daemon's invalidation API
 *        (pod deletion, migration, policy change, node removal: the ONCache paper's cache
 *        invalidation).
 */
class OncacheCluster : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheCluster();

    /**
     * \brief Register a host (used by the helper).
     * \param node the host node
     * \param datapath its data path (already set up, with this cluster's policy)
     * \return the host index
     * \throws std::invalid_argument when the data path enforces another policy, or its
     *         address is used already
     */
    uint32_t AddHost(const Ptr<Node>& node, const Ptr<OncacheHostDatapath>& datapath);

    /**
     * \brief Register a pod and plug it into its host (used by the helper).
     * \param host the host index
     * \param pod the pod node
     * \param address the pod IP
     * \param podVeth the pod end of its veth (eth0)
     * \param hostVeth the host end
     * \param appCore the core its applications run on
     * \throws std::invalid_argument when the address is already used by a pod or a host
     */
    void AddPod(uint32_t host,
                const Ptr<Node>& pod,
                Ipv4Address address,
                const Ptr<OncacheVethNetDevice>& podVeth,
                const Ptr<OncacheVethNetDevice>& hostVeth,
                uint32_t appCore);

    /**
     * \brief Delete a pod: unplug its veth, withdraw its routes and invalidate the caches (the
     *        host's ingress entry and filter entries of the pod, every egress level-1 entry of
     *        its IP).
     * \param address the pod IP
     */
    void DeletePod(Ipv4Address address);

    /**
     * \brief Move a pod (same IP, same node and sockets) to another host: a new veth on the new
     *        host, new routes, and invalidation of every egress level-1 entry of its IP and of
     *        the old host's ingress entry.
     * \param address the pod IP
     * \param newHost the destination host index
     */
    void MigratePod(Ipv4Address address, uint32_t newHost);

    /**
     * \brief Insert a network-policy rule (GetPolicy()->InsertRule): every data path deletes
     *        the filter entries it matches.
     * \param rule the rule
     * \param position its priority (0 = first)
     */
    void InsertPolicyRule(const OncachePolicyRule& rule, std::size_t position = 0);

    /**
     * \brief Remove a host: delete its pods, and on every other host its neighbour entry and
     *        egress level-2 entry.
     * \param host the host index
     */
    void RemoveHost(uint32_t host);

    /// \return the number of hosts (removed ones included)
    uint32_t GetNHosts() const;

    /**
     * \param host a host index
     * \return its node
     */
    Ptr<Node> GetHost(uint32_t host) const;

    /**
     * \param host a host index
     * \return its data path
     */
    Ptr<OncacheHostDatapath> GetDatapath(uint32_t host) const;

    /// \return every pod IP, in creation order (deleted pods excluded)
    std::vector<Ipv4Address> GetPodAddresses() const;

    /**
     * \param address a pod IP
     * \return the pod node
     */
    Ptr<Node> GetPod(Ipv4Address address) const;

    /**
     * \param address a pod IP
     * \return the index of the host that runs it
     */
    uint32_t GetPodHost(Ipv4Address address) const;

    /**
     * \param address a pod IP
     * \return the pod end of its veth
     */
    Ptr<OncacheVethNetDevice> GetPodDevice(Ipv4Address address) const;

    /**
     * \return the cluster's network policy, the one object every data path enforces for the
     *         cluster's lifetime. Change it in place (InsertRule, Clear, DefaultAllow): each
     *         change invalidates the filter entries it may affect on every host.
     */
    Ptr<OncachePolicy> GetPolicy() const;

  protected:
    void DoDispose() override;

  private:
    /// A host.
    struct HostRecord
    {
        Ptr<Node> node;                    //!< host node
        Ptr<OncacheHostDatapath> datapath; //!< its data path
        bool removed = false;              //!< removed by RemoveHost
    };

    /// A pod.
    struct PodRecord
    {
        Ptr<Node> node;                     //!< pod node
        uint32_t host = 0;                  //!< host index
        Ptr<OncacheVethNetDevice> podVeth;  //!< eth0
        Ptr<OncacheVethNetDevice> hostVeth; //!< host end
        uint32_t appCore = 0;               //!< application core
        uint32_t order = 0;                 //!< creation order
    };

    /**
     * \param address a pod IP
     * \return its record
     * \throws std::invalid_argument for an unknown pod
     */
    PodRecord& FindPod(Ipv4Address address);

    /**
     * \param host a host index
     * \throws std::out_of_range for an unknown or removed host
     */
    void CheckHost(uint32_t host) const;

    /**
     * \brief Install routes to a pod on every other host.
     * \param address the pod IP
     * \param host its host index
     */
    void AnnouncePod(Ipv4Address address, uint32_t host);

    std::vector<HostRecord> m_hosts;      //!< hosts
    std::map<uint32_t, PodRecord> m_pods; //!< pods by IP
    uint32_t m_nextOrder;                 //!< pod creation counter
    Ptr<OncachePolicy> m_policy;          //!< network policy (fixed for the cluster's life)
};

} // namespace ns3

#endif /* ONCACHE_CLUSTER_H */
