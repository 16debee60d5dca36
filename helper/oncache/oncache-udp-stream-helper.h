/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_UDP_STREAM_HELPER_H
#define ONCACHE_UDP_STREAM_HELPER_H

#include "ns3/application-container.h"
#include "ns3/ipv4-address.h"
#include "ns3/object-factory.h"
#include "ns3/oncache-cluster.h"

#include <string>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief Installs an iperf3 -u -b 0 like stream: an OncacheUdpStreamClient on a client pod,
 *        fed back by its host's EgressDone trace source, and an OncacheUdpStreamServer on the
 *        server pod.
 */
class OncacheUdpStreamHelper
{
  public:
    /**
     * \param server the receiving pod's address
     * \param port the UDP port
     */
    OncacheUdpStreamHelper(Ipv4Address server, uint16_t port);

    /**
     * \brief Set an Attribute of the clients ("PacketSize", "Window").
     * \param name attribute name
     * \param value attribute value
     */
    void SetClientAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param cluster the cluster
     * \return the OncacheUdpStreamServer installed on the server pod
     */
    ApplicationContainer InstallServer(Ptr<OncacheCluster> cluster) const;

    /**
     * \param cluster the cluster
     * \param client the sending pod's address
     * \return the client application
     * \throws std::invalid_argument for a PacketSize above one UDP datagram (65,507 bytes)
     */
    ApplicationContainer InstallClient(Ptr<OncacheCluster> cluster, Ipv4Address client) const;

  private:
    Ipv4Address m_server;   //!< receiver pod
    uint16_t m_port;        //!< UDP port
    ObjectFactory m_client; //!< client factory
};

} // namespace ns3

#endif /* ONCACHE_UDP_STREAM_HELPER_H */
