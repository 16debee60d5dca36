/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_RR_HELPER_H
#define ONCACHE_RR_HELPER_H

#include "ns3/application-container.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief Installs request/response pairs (OncacheRrServer on the server pod, OncacheRrClient on
 *        client pods): netperf TCP_RR / UDP_RR / TCP_CRR, or key-value-like sizes.
 */
class OncacheRrHelper
{
  public:
    /**
     * \param protocol "ns3::TcpSocketFactory" or "ns3::UdpSocketFactory"
     * \param server the server pod's address
     * \param port the server port
     * \throws std::invalid_argument for an unknown protocol
     */
    OncacheRrHelper(const std::string& protocol, Ipv4Address server, uint16_t port);

    /**
     * \brief Set an Attribute of the clients (e.g. "RequestSize", "NewConnectionPerTransaction").
     * \param name attribute name
     * \param value attribute value
     */
    void SetClientAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an Attribute of the server (e.g. "ResponseSize").
     * \param name attribute name
     * \param value attribute value
     */
    void SetServerAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set the request and response sizes of both sides.
     * \param request request bytes
     * \param response response bytes
     */
    void SetSizes(uint32_t request, uint32_t response);

    /**
     * \brief Throw unless the client and the server (as created, attribute defaults included)
     *        use the same protocol, RequestSize and ResponseSize, and each size goes out in one
     *        send: a UDP datagram (OncacheMaxUdpPayload) or the TCP send buffer
     *        (OncacheTcpSendBuffer). Otherwise transactions never complete or complete at a
     *        meaningless rate. InstallServer and InstallClients call it; programs may call
     *        it first to refuse bad options before any run.
     * \throws std::invalid_argument naming the attribute
     */
    void Validate() const;

    /**
     * \param node the server pod
     * \return the server application
     * \throws std::invalid_argument when the client and server sizes or protocols differ, or
     *         a size does not fit one send (see Validate)
     */
    ApplicationContainer InstallServer(Ptr<Node> node) const;

    /**
     * \param nodes the client pods
     * \return one client application per node
     * \throws std::invalid_argument as InstallServer
     */
    ApplicationContainer InstallClients(const NodeContainer& nodes) const;

  private:
    ObjectFactory m_client; //!< client factory
    ObjectFactory m_server; //!< server factory
};

} // namespace ns3

#endif /* ONCACHE_RR_HELPER_H */
