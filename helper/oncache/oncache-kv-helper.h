/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_KV_HELPER_H
#define ONCACHE_KV_HELPER_H

#include "ns3/application-container.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief Installs a memcached-like OncacheKvServer on a pod and closed-loop OncacheKvClients
 *        on other pods.
 */
class OncacheKvHelper
{
  public:
    /**
     * \param server the server pod's address
     * \param port the server port (memcached's 11211 by default)
     */
    OncacheKvHelper(Ipv4Address server, uint16_t port = 11211);

    /**
     * \brief Set an Attribute of the clients (e.g. "Concurrency", "ValueSize").
     * \param name attribute name
     * \param value attribute value
     */
    void SetClientAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an Attribute of the server (e.g. "ProcessingTime").
     * \param name attribute name
     * \param value attribute value
     */
    void SetServerAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set the request size of both sides.
     * \param bytes request bytes
     */
    void SetRequestSize(uint32_t bytes);

    /**
     * \brief Throw unless the clients and the server (as created, attribute defaults included)
     *        use the same RequestSize and a request fits one TCP send (OncacheTcpSendBuffer).
     *        InstallServer and Install call it; programs may call it first.
     * \throws std::invalid_argument naming the attribute
     */
    void Validate() const;

    /**
     * \param node the server pod
     * \return the server application
     * \throws std::invalid_argument as Validate
     */
    ApplicationContainer InstallServer(Ptr<Node> node) const;

    /**
     * \param nodes the client pods
     * \return one client application per node
     * \throws std::invalid_argument as Validate
     */
    ApplicationContainer Install(const NodeContainer& nodes) const;

    /**
     * \brief Fix the random streams of the clients' value sizes.
     * \param clients clients made by Install
     * \param stream first stream index
     * \return the number of streams used
     */
    static int64_t AssignStreams(const ApplicationContainer& clients, int64_t stream);

  private:
    ObjectFactory m_client; //!< client factory
    ObjectFactory m_server; //!< server factory
};

} // namespace ns3

#endif /* ONCACHE_KV_HELPER_H */
