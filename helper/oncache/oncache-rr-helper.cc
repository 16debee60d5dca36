/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-rr-helper.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/oncache-check.h"
#include "ns3/oncache-limits.h"
#include "ns3/oncache-rr-client.h"
#include "ns3/oncache-rr-server.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheRrHelper");

OncacheRrHelper::OncacheRrHelper(const std::string& protocol, Ipv4Address server, uint16_t port)
{
    TypeId factory;
    ONCACHE_REQUIRE(TypeId::LookupByNameFailSafe(protocol, &factory),
                    std::invalid_argument,
                    "Protocol: unknown socket factory '" << protocol << "'");
    m_client.SetTypeId(OncacheRrClient::GetTypeId());
    m_server.SetTypeId(OncacheRrServer::GetTypeId());
    m_client.Set("Protocol", TypeIdValue(factory));
    m_server.Set("Protocol", TypeIdValue(factory));
    m_client.Set("Remote", AddressValue(InetSocketAddress(server, port)));
    m_server.Set("Port", UintegerValue(port));
}

void
OncacheRrHelper::SetClientAttribute(const std::string& name, const AttributeValue& value)
{
    m_client.Set(name, value);
}

void
OncacheRrHelper::SetServerAttribute(const std::string& name, const AttributeValue& value)
{
    m_server.Set(name, value);
}

void
OncacheRrHelper::SetSizes(uint32_t request, uint32_t response)
{
    m_client.Set("RequestSize", UintegerValue(request));
    m_client.Set("ResponseSize", UintegerValue(response));
    m_server.Set("RequestSize", UintegerValue(request));
    m_server.Set("ResponseSize", UintegerValue(response));
}

void
OncacheRrHelper::Validate() const
{
    // The objects as Install makes them: the factories' values over the attribute defaults.
    Ptr<Application> client = m_client.Create<Application>();
    Ptr<Application> server = m_server.Create<Application>();
    TypeIdValue protocol;
    TypeIdValue serverProtocol;
    client->GetAttribute("Protocol", protocol);
    server->GetAttribute("Protocol", serverProtocol);
    ONCACHE_REQUIRE(protocol.Get() == serverProtocol.Get(),
                    std::invalid_argument,
                    "Protocol: the OncacheRrClient's " << protocol.Get().GetName()
                                                       << " differs from the OncacheRrServer's "
                                                       << serverProtocol.Get().GetName());
    // The client counts response bytes and the TCP server request bytes: with different
    // sizes on the two sides no transaction completes as configured.
    for (const std::string name : {"RequestSize", "ResponseSize"})
    {
        uint64_t bytes =
            OncacheRequireSameUinteger(client, server, name, "OncacheRrHelper::SetSizes");
        OncacheRequireOneSend(name, static_cast<uint32_t>(bytes), protocol.Get());
    }
    client->Dispose();
    server->Dispose();
}

ApplicationContainer
OncacheRrHelper::InstallServer(Ptr<Node> node) const
{
    Validate();
    Ptr<Application> app = m_server.Create<Application>();
    node->AddApplication(app);
    return ApplicationContainer(app);
}

ApplicationContainer
OncacheRrHelper::InstallClients(const NodeContainer& nodes) const
{
    Validate();
    ApplicationContainer apps;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<Application> app = m_client.Create<Application>();
        (*it)->AddApplication(app);
        apps.Add(app);
    }
    return apps;
}

} // namespace ns3
