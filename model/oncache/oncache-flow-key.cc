/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-flow-key.h"

#include "ns3/hash.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/udp-header.h"

#include <algorithm>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheFlowKey");

OncacheFlowKey
OncacheFlowKey::Reversed() const
{
    OncacheFlowKey r;
    r.srcAddress = dstAddress;
    r.dstAddress = srcAddress;
    r.srcPort = dstPort;
    r.dstPort = srcPort;
    r.protocol = protocol;
    return r;
}

OncacheFlowKey
OncacheFlowKey::Canonical() const
{
    if (std::tie(srcAddress, srcPort) <= std::tie(dstAddress, dstPort))
    {
        return *this;
    }
    return Reversed();
}

uint32_t
OncacheFlowKey::Hash() const
{
    uint8_t bytes[13];
    for (int i = 0; i < 4; ++i)
    {
        bytes[i] = static_cast<uint8_t>(srcAddress >> (8 * i));
        bytes[4 + i] = static_cast<uint8_t>(dstAddress >> (8 * i));
    }
    bytes[8] = static_cast<uint8_t>(srcPort);
    bytes[9] = static_cast<uint8_t>(srcPort >> 8);
    bytes[10] = static_cast<uint8_t>(dstPort);
    bytes[11] = static_cast<uint8_t>(dstPort >> 8);
    bytes[12] = protocol;
    return Hash32(reinterpret_cast<const char*>(bytes), sizeof(bytes));
}

std::ostream&
operator<<(std::ostream& os, const OncacheFlowKey& key)
{
    os << Ipv4Address(key.srcAddress) << ":" << key.srcPort << ">" << Ipv4Address(key.dstAddress)
       << ":" << key.dstPort << "/" << static_cast<uint32_t>(key.protocol);
    return os;
}

OncacheFlowKey
OncacheParseFlow(Ptr<const Packet> ipPacket, Ipv4Header& header, uint32_t* payloadBytes)
{
    Ptr<Packet> copy = ipPacket->Copy();
    copy->RemoveHeader(header);
    OncacheFlowKey key;
    key.srcAddress = header.GetSource().Get();
    key.dstAddress = header.GetDestination().Get();
    key.protocol = header.GetProtocol();
    uint32_t payload = std::min<uint32_t>(header.GetPayloadSize(), copy->GetSize());
    if (header.GetFragmentOffset() == 0 && key.protocol == 6 && copy->GetSize() >= 20)
    {
        // Only the fixed part: a first fragment may end inside the options (a 68-byte MTU
        // leaves 48 bytes of a header of up to 60), and TcpHeader would read past its end.
        uint8_t fixed[20];
        copy->CopyData(fixed, sizeof(fixed));
        key.srcPort = static_cast<uint16_t>(fixed[0] << 8 | fixed[1]);
        key.dstPort = static_cast<uint16_t>(fixed[2] << 8 | fixed[3]);
        payload -= std::min<uint32_t>(payload, (fixed[12] >> 4) * 4U); // data offset, words
    }
    else if (header.GetFragmentOffset() == 0 && key.protocol == 17 && copy->GetSize() >= 8)
    {
        UdpHeader udp;
        copy->PeekHeader(udp);
        key.srcPort = udp.GetSourcePort();
        key.dstPort = udp.GetDestinationPort();
        payload -= std::min<uint32_t>(payload, 8U);
    }
    if (payloadBytes)
    {
        *payloadBytes = payload;
    }
    return key;
}

} // namespace ns3
