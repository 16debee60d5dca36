/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-udp-stream-helper.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/oncache-limits.h"
#include "ns3/oncache-udp-stream-client.h"
#include "ns3/oncache-udp-stream-server.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheUdpStreamHelper");

OncacheUdpStreamHelper::OncacheUdpStreamHelper(Ipv4Address server, uint16_t port)
    : m_server(server),
      m_port(port)
{
    m_client.SetTypeId(OncacheUdpStreamClient::GetTypeId());
    m_client.Set("Remote", AddressValue(InetSocketAddress(server, port)));
}

void
OncacheUdpStreamHelper::SetClientAttribute(const std::string& name, const AttributeValue& value)
{
    m_client.Set(name, value);
}

ApplicationContainer
OncacheUdpStreamHelper::InstallServer(Ptr<OncacheCluster> cluster) const
{
    Ptr<OncacheUdpStreamServer> app = CreateObject<OncacheUdpStreamServer>();
    app->SetAttribute("Port", UintegerValue(m_port));
    cluster->GetPod(m_server)->AddApplication(app);
    return ApplicationContainer(app);
}

ApplicationContainer
OncacheUdpStreamHelper::InstallClient(Ptr<OncacheCluster> cluster, Ipv4Address client) const
{
    Ptr<OncacheUdpStreamClient> app = m_client.Create<OncacheUdpStreamClient>();
    UintegerValue size;
    app->GetAttribute("PacketSize", size);
    // A larger datagram is refused by the socket: the stream would stall without a word.
    OncacheRequireOneSend("PacketSize",
                          static_cast<uint32_t>(size.Get()),
                          UdpSocketFactory::GetTypeId());
    cluster->GetPod(client)->AddApplication(app);
    Ptr<OncacheHostDatapath> datapath = cluster->GetDatapath(cluster->GetPodHost(client));
    datapath->TraceConnectWithoutContext("EgressDone",
                                         MakeCallback(&OncacheUdpStreamClient::EgressDone, app));
    datapath->TraceConnectWithoutContext("TxComplete",
                                         MakeCallback(&OncacheUdpStreamClient::TxComplete, app));
    return ApplicationContainer(app);
}

} // namespace ns3
