/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-cluster.h"

#include "oncache-check.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheCluster");

NS_OBJECT_ENSURE_REGISTERED(OncacheCluster);

TypeId
OncacheCluster::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OncacheCluster")
                            .SetParent<Object>()
                            .SetGroupName("Oncache")
                            .AddConstructor<OncacheCluster>();
    return tid;
}

OncacheCluster::OncacheCluster()
    : m_nextOrder(0),
      m_policy(CreateObject<OncachePolicy>())
{
    NS_LOG_FUNCTION(this);
}

void
OncacheCluster::DoDispose()
{
    m_hosts.clear();
    m_pods.clear();
    m_policy = nullptr;
    Object::DoDispose();
}

uint32_t
OncacheCluster::AddHost(const Ptr<Node>& node, const Ptr<OncacheHostDatapath>& datapath)
{
    NS_LOG_FUNCTION(this << node);
    Ipv4Address ip = datapath->GetHostIp();
    ONCACHE_REQUIRE(datapath->GetPolicy() == m_policy,
                    std::invalid_argument,
                    "host " << ip << " enforces a policy other than the cluster's");
    ONCACHE_REQUIRE(m_pods.count(ip.Get()) == 0,
                    std::invalid_argument,
                    "host address " << ip << " overlaps a pod address");
    for (auto& other : m_hosts)
    {
        ONCACHE_REQUIRE(other.datapath->GetHostIp() != ip,
                        std::invalid_argument,
                        "host address " << ip << " is used twice");
        other.datapath->SetNeighbour(ip, datapath->GetNicMac(), datapath->GetVtepMac());
        datapath->SetNeighbour(other.datapath->GetHostIp(),
                               other.datapath->GetNicMac(),
                               other.datapath->GetVtepMac());
    }
    HostRecord record;
    record.node = node;
    record.datapath = datapath;
    m_hosts.push_back(record);
    return static_cast<uint32_t>(m_hosts.size() - 1);
}

void
OncacheCluster::CheckHost(uint32_t host) const
{
    ONCACHE_REQUIRE(host < m_hosts.size() && !m_hosts[host].removed,
                    std::out_of_range,
                    "host " << host << " does not exist");
}

void
OncacheCluster::AnnouncePod(Ipv4Address address, uint32_t host)
{
    Ipv4Address hostIp = m_hosts[host].datapath->GetHostIp();
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        if (h != host && !m_hosts[h].removed)
        {
            m_hosts[h].datapath->SetRoute(address, hostIp);
        }
    }
}

void
OncacheCluster::AddPod(uint32_t host,
                       const Ptr<Node>& pod,
                       Ipv4Address address,
                       const Ptr<OncacheVethNetDevice>& podVeth,
                       const Ptr<OncacheVethNetDevice>& hostVeth,
                       uint32_t appCore)
{
    NS_LOG_FUNCTION(this << host << address);
    CheckHost(host);
    ONCACHE_REQUIRE(m_pods.count(address.Get()) == 0,
                    std::invalid_argument,
                    "pod address " << address << " overlaps an existing pod");
    for (const auto& h : m_hosts)
    {
        ONCACHE_REQUIRE(h.datapath->GetHostIp() != address,
                        std::invalid_argument,
                        "pod address " << address << " overlaps a host address");
    }
    m_hosts[host].datapath->AttachPod(address, hostVeth, appCore);
    PodRecord record;
    record.node = pod;
    record.host = host;
    record.podVeth = podVeth;
    record.hostVeth = hostVeth;
    record.appCore = appCore;
    record.order = m_nextOrder++;
    m_pods[address.Get()] = record;
    AnnouncePod(address, host);
}

OncacheCluster::PodRecord&
OncacheCluster::FindPod(Ipv4Address address)
{
    auto it = m_pods.find(address.Get());
    ONCACHE_REQUIRE(it != m_pods.end(),
                    std::invalid_argument,
                    "pod " << address << " does not exist");
    return it->second;
}

void
OncacheCluster::DeletePod(Ipv4Address address)
{
    NS_LOG_FUNCTION(this << address);
    PodRecord& pod = FindPod(address);
    Ptr<OncacheHostDatapath> home = m_hosts[pod.host].datapath;
    home->DetachPod(address);
    pod.podVeth->SetPeer(nullptr);
    pod.hostVeth->SetPeer(nullptr);
    for (auto& h : m_hosts)
    {
        h.datapath->RemoveRoute(address); // and its egress level-1 entry
    }
    m_pods.erase(address.Get());
}

void
OncacheCluster::MigratePod(Ipv4Address address, uint32_t newHost)
{
    NS_LOG_FUNCTION(this << address << newHost);
    CheckHost(newHost);
    PodRecord& pod = FindPod(address);
    ONCACHE_REQUIRE(pod.host != newHost,
                    std::invalid_argument,
                    "pod " << address << " already runs on host " << newHost);
    Ptr<OncacheHostDatapath> oldHome = m_hosts[pod.host].datapath;
    Ptr<OncacheHostDatapath> newHome = m_hosts[newHost].datapath;
    oldHome->DetachPod(address); // and its ingress and filter entries
    pod.hostVeth->SetPeer(nullptr);

    Ptr<OncacheVethNetDevice> hostVeth = CreateObject<OncacheVethNetDevice>();
    hostVeth->SetMtu(pod.podVeth->GetMtu());
    m_hosts[newHost].node->AddDevice(hostVeth);
    OncacheVethNetDevice::Connect(pod.podVeth, hostVeth);
    uint32_t appCore = pod.appCore % newHome->GetCpu()->GetCores();
    newHome->AttachPod(address, hostVeth, appCore);
    pod.host = newHost;
    pod.hostVeth = hostVeth;
    pod.appCore = appCore;
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        m_hosts[h].datapath->RemoveRoute(address); // and its egress level-1 entry
    }
    AnnouncePod(address, newHost);
}

void
OncacheCluster::InsertPolicyRule(const OncachePolicyRule& rule, std::size_t position)
{
    NS_LOG_FUNCTION(this << position);
    m_policy->InsertRule(rule, position); // the data paths listen to its Changed trace
}

void
OncacheCluster::RemoveHost(uint32_t host)
{
    NS_LOG_FUNCTION(this << host);
    CheckHost(host);
    std::vector<Ipv4Address> pods;
    for (const auto& [ip, record] : m_pods)
    {
        if (record.host == host)
        {
            pods.emplace_back(ip);
        }
    }
    for (auto ip : pods)
    {
        DeletePod(ip);
    }
    Ipv4Address hostIp = m_hosts[host].datapath->GetHostIp();
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        if (h != host)
        {
            m_hosts[h].datapath->RemoveNeighbour(hostIp); // and its egress level-2 entry
        }
    }
    m_hosts[host].removed = true;
}

uint32_t
OncacheCluster::GetNHosts() const
{
    return static_cast<uint32_t>(m_hosts.size());
}

Ptr<Node>
OncacheCluster::GetHost(uint32_t host) const
{
    ONCACHE_REQUIRE(host < m_hosts.size(), std::out_of_range, "host " << host << " does not exist");
    return m_hosts[host].node;
}

Ptr<OncacheHostDatapath>
OncacheCluster::GetDatapath(uint32_t host) const
{
    ONCACHE_REQUIRE(host < m_hosts.size(), std::out_of_range, "host " << host << " does not exist");
    return m_hosts[host].datapath;
}

std::vector<Ipv4Address>
OncacheCluster::GetPodAddresses() const
{
    std::vector<std::pair<uint32_t, Ipv4Address>> ordered;
    for (const auto& [ip, record] : m_pods)
    {
        ordered.emplace_back(record.order, Ipv4Address(ip));
    }
    std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;
    });
    std::vector<Ipv4Address> addresses;
    for (const auto& entry : ordered)
    {
        addresses.push_back(entry.second);
    }
    return addresses;
}

Ptr<Node>
OncacheCluster::GetPod(Ipv4Address address) const
{
    auto it = m_pods.find(address.Get());
    ONCACHE_REQUIRE(it != m_pods.end(),
                    std::invalid_argument,
                    "pod " << address << " does not exist");
    return it->second.node;
}

uint32_t
OncacheCluster::GetPodHost(Ipv4Address address) const
{
    auto it = m_pods.find(address.Get());
    ONCACHE_REQUIRE(it != m_pods.end(),
                    std::invalid_argument,
                    "pod " << address << " does not exist");
    return it->second.host;
}

Ptr<OncacheVethNetDevice>
OncacheCluster::GetPodDevice(Ipv4Address address) const
{
    auto it = m_pods.find(address.Get());
    ONCACHE_REQUIRE(it != m_pods.end(),
                    std::invalid_argument,
                    "pod " << address << " does not exist");
    return it->second.podVeth;
}

Ptr<OncachePolicy>
OncacheCluster::GetPolicy() const
{
    return m_policy;
}

} // namespace ns3
