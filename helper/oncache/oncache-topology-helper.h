/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_TOPOLOGY_HELPER_H
#define ONCACHE_TOPOLOGY_HELPER_H

#include "ns3/csma-helper.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/oncache-cluster.h"
#include "ns3/oncache-mode.h"

#include <string>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief Builds a container cluster: hosts with one Ethernet (CSMA) NIC each, joined directly
 *        (two hosts) or through a bridging switch (more hosts), and K pods per host, each pod
 *        a Node with its own TCP/IP stack joined to its host by an OncacheVethNetDevice pair.
 *
 * Addresses: host h has HostNetwork + h + 1 (a /24); pod k of host h has PodNetwork + 256 h +
 * k + 2, as a /32 with a default route through the veth. The pod MTU is the underlay MTU minus
 * 50 bytes (VXLAN) in the overlay modes and the underlay MTU on bare metal; with
 * SuperSegmentBytes > 0 both MTUs grow so that TCP can send GSO-like super-segments.
 */
class OncacheTopologyHelper : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheTopologyHelper();

    /**
     * \brief Build the cluster.
     * \return the cluster
     * \throws std::invalid_argument or std::out_of_range for inconsistent attributes
     */
    Ptr<OncacheCluster> Install();

    /**
     * \brief Create one more pod on a host of a cluster built by Install (e.g. to reuse the IP
     *        of a deleted pod elsewhere).
     * \param cluster the cluster
     * \param host the host index
     * \param address the pod IP
     * \return the pod node
     */
    Ptr<Node> AddPod(Ptr<OncacheCluster> cluster, uint32_t host, Ipv4Address address);

    /**
     * \brief Set an Attribute of every host's OncacheHostDatapath (e.g. "FilterCacheSize").
     * \param name attribute name
     * \param value attribute value
     */
    void SetDatapathAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an Attribute of the shared OncacheCostModel (e.g. "AppTx").
     * \param name attribute name
     * \param value attribute value
     */
    void SetCostModelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Write pcap traces of the hosts' NICs (Ethernet link type; VXLAN in overlay modes).
     *        Super-segments appear as the MTU-sized frames a TSO/GSO NIC would send.
     * \param prefix file name prefix; files are <prefix>-<node>-<device>.pcap
     */
    void EnablePcap(const std::string& prefix);

    /// \return the IP MTU of the pods' veths
    uint32_t GetPodMtu() const;

    /// \return the IP MTU of the hosts' NICs
    uint32_t GetNicMtu() const;

    /// \return the hosts' NICs, in host order (valid after Install)
    NetDeviceContainer GetNics() const;

    /**
     * \param host a host index
     * \param pod a pod index on that host
     * \return the address Install gives that pod
     */
    Ipv4Address GetPodAddress(uint32_t host, uint32_t pod) const;

  private:
    /// Throw for the first inconsistent attribute.
    void Validate() const;

    uint32_t m_hosts;                //!< host count
    uint32_t m_podsPerHost;          //!< pods per host
    OncacheMode m_mode;              //!< data path
    uint32_t m_coresPerHost;         //!< cores per host
    DataRate m_linkRate;             //!< NIC rate
    Time m_linkDelay;                //!< propagation delay of a link
    uint32_t m_underlayMtu;          //!< NIC MTU without super-segments
    uint32_t m_superSegmentBytes;    //!< GSO-like super-segment size, 0 = off
    Ipv4Address m_hostNetwork;       //!< host /24
    Ipv4Address m_podNetwork;        //!< pod /16
    uint32_t m_nicQueueFrames;       //!< NIC transmit queue in frames
    uint32_t m_channelSpeedup;       //!< channel rate over LinkRate
    bool m_configureTcp;             //!< set the TCP segment size from the pod MTU
    uint32_t m_delAckCount;          //!< TcpSocket::DelAckCount with ConfigureTcp
    ObjectFactory m_datapathFactory; //!< per-host data paths
    ObjectFactory m_costFactory;     //!< the cost model
    CsmaHelper m_csma;               //!< underlay devices
    NetDeviceContainer m_nics;       //!< host NICs
};

} // namespace ns3

#endif /* ONCACHE_TOPOLOGY_HELPER_H */
