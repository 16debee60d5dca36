/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-kv-helper.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/oncache-check.h"
#include "ns3/oncache-kv-client.h"
#include "ns3/oncache-kv-server.h"
#include "ns3/oncache-limits.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheKvHelper");

OncacheKvHelper::OncacheKvHelper(Ipv4Address server, uint16_t port)
{
    m_client.SetTypeId(OncacheKvClient::GetTypeId());
    m_client.Set("Remote", AddressValue(InetSocketAddress(server, port)));
    m_server.SetTypeId(OncacheKvServer::GetTypeId());
    m_server.Set("Port", UintegerValue(port));
}

void
OncacheKvHelper::SetClientAttribute(const std::string& name, const AttributeValue& value)
{
    m_client.Set(name, value);
}

void
OncacheKvHelper::SetServerAttribute(const std::string& name, const AttributeValue& value)
{
    m_server.Set(name, value);
}

void
OncacheKvHelper::SetRequestSize(uint32_t bytes)
{
    m_client.Set("RequestSize", UintegerValue(bytes));
    m_server.Set("RequestSize", UintegerValue(bytes));
}

void
OncacheKvHelper::Validate() const
{
    // The objects as Install makes them: the factories' values over the attribute defaults.
    Ptr<Application> client = m_client.Create<Application>();
    Ptr<Application> server = m_server.Create<Application>();
    // The server frames requests by its RequestSize and reads the response size from each.
    uint64_t bytes = OncacheRequireSameUinteger(client,
                                                server,
                                                "RequestSize",
                                                "OncacheKvHelper::SetRequestSize");
    OncacheRequireOneSend("RequestSize",
                          static_cast<uint32_t>(bytes),
                          TcpSocketFactory::GetTypeId());
    client->Dispose();
    server->Dispose();
}

ApplicationContainer
OncacheKvHelper::InstallServer(Ptr<Node> node) const
{
    Validate();
    Ptr<OncacheKvServer> app = m_server.Create<OncacheKvServer>();
    node->AddApplication(app);
    return ApplicationContainer(app);
}

ApplicationContainer
OncacheKvHelper::Install(const NodeContainer& nodes) const
{
    Validate();
    ApplicationContainer apps;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<OncacheKvClient> app = m_client.Create<OncacheKvClient>();
        (*it)->AddApplication(app);
        apps.Add(app);
    }
    return apps;
}

int64_t
OncacheKvHelper::AssignStreams(const ApplicationContainer& clients, int64_t stream)
{
    int64_t used = 0;
    for (auto it = clients.Begin(); it != clients.End(); ++it)
    {
        Ptr<OncacheKvClient> client = DynamicCast<OncacheKvClient>(*it);
        if (client)
        {
            used += client->AssignStreams(stream + used);
        }
    }
    return used;
}

} // namespace ns3
