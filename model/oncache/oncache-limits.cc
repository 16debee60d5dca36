/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-limits.h"

#include "oncache-check.h"
#include "oncache-vxlan-header.h"

#include "ns3/ipv4-header.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/tcp-socket.h"
#include "ns3/udp-header.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

uint32_t
OncacheEncapsulationBytes(OncacheMode mode)
{
    return mode == ONCACHE_MODE_BARE_METAL ? 0 : OncacheVxlanHeader::OVERHEAD;
}

uint32_t
OncacheMinUnderlayMtu(OncacheMode mode)
{
    return ONCACHE_MIN_IP_MTU + OncacheEncapsulationBytes(mode);
}

uint32_t
OncacheMaxUdpPayload()
{
    return ONCACHE_MAX_IP_PACKET - Ipv4Header().GetSerializedSize() -
           UdpHeader().GetSerializedSize();
}

uint32_t
OncacheTcpSendBuffer()
{
    TypeId::AttributeInformation info;
    const bool found = TcpSocket::GetTypeId().LookupAttributeByName("SndBufSize", &info);
    ONCACHE_REQUIRE(found, std::logic_error, "ns3::TcpSocket has no SndBufSize");
    Ptr<const UintegerValue> value = DynamicCast<const UintegerValue>(info.initialValue);
    return static_cast<uint32_t>(value->Get());
}

void
OncacheRequireOneSend(const std::string& attribute, uint32_t bytes, TypeId protocol)
{
    if (protocol == UdpSocketFactory::GetTypeId())
    {
        ONCACHE_REQUIRE(bytes <= OncacheMaxUdpPayload(),
                        std::invalid_argument,
                        attribute << " " << bytes << " exceeds the " << OncacheMaxUdpPayload()
                                  << " bytes of a UDP datagram");
        return;
    }
    ONCACHE_REQUIRE(protocol == TcpSocketFactory::GetTypeId(),
                    std::invalid_argument,
                    "Protocol must be ns3::TcpSocketFactory or ns3::UdpSocketFactory, got "
                        << protocol.GetName());
    ONCACHE_REQUIRE(bytes <= OncacheTcpSendBuffer(),
                    std::invalid_argument,
                    attribute << " " << bytes << " exceeds the TCP send buffer ("
                              << OncacheTcpSendBuffer()
                              << " bytes, ns3::TcpSocket::SndBufSize), which one write must fit");
}

DataRate
OncacheMinLinkRate(uint32_t frameBytes)
{
    return DataRate(uint64_t{frameBytes} * 8); // bits per 1 s of minimum RTO
}

uint64_t
OncacheRequireSameUinteger(Ptr<Object> client,
                           Ptr<Object> server,
                           const std::string& attribute,
                           const std::string& hint)
{
    UintegerValue clientValue;
    UintegerValue serverValue;
    client->GetAttribute(attribute, clientValue);
    server->GetAttribute(attribute, serverValue);
    auto name = [](Ptr<Object> o) { return o->GetInstanceTypeId().GetName().substr(5); };
    ONCACHE_REQUIRE(clientValue.Get() == serverValue.Get(),
                    std::invalid_argument,
                    attribute << ": the " << name(client) << "'s " << clientValue.Get()
                              << " differs from the " << name(server) << "'s " << serverValue.Get()
                              << " (set both, e.g. with " << hint << ")");
    return clientValue.Get();
}

} // namespace ns3
