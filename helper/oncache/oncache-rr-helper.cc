/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-rr-helper.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/oncache-rr-client.h"
#include "ns3/oncache-rr-server.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheRrHelper");

OncacheRrHelper::OncacheRrHelper(const std::string& protocol, Ipv4Address server, uint16_t port)
{
    m_client.SetTypeId(OncacheRrClient::GetTypeId());
    m_server.SetTypeId(OncacheRrServer::GetTypeId());
    m_client.Set("Protocol", TypeIdValue(TypeId::LookupByName(protocol)));
    m_server.Set("Protocol", TypeIdValue(TypeId::LookupByName(protocol)));
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

ApplicationContainer
OncacheRrHelper::InstallServer(Ptr<Node> node) const
{
    Ptr<Application> app = m_server.Create<Application>();
    node->AddApplication(app);
    return ApplicationContainer(app);
}

ApplicationContainer
OncacheRrHelper::InstallClients(const NodeContainer& nodes) const
{
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
