/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "clos-packet-parser.h"

namespace ns3
{

namespace
{
constexpr uint16_t PPP_IPV4 = 0x0021; //!< PPP protocol number of IPv4
constexpr uint8_t PROTO_TCP = 6;      //!< IP protocol number of TCP
constexpr uint8_t PROTO_UDP = 17;     //!< IP protocol number of UDP
constexpr uint16_t ROCE_PORT = 4791;  //!< UDP destination port of RoCEv2
constexpr uint8_t ROCE_ACK = 0x11;    //!< BTH opcode of an RC ACK or NAK
constexpr uint8_t ROCE_CNP = 0x81;    //!< BTH opcode of a CNP

/// \return the big-endian 16-bit value at b
uint16_t
Read16(const uint8_t* b)
{
    return static_cast<uint16_t>(b[0] << 8 | b[1]);
}

/// \return the big-endian 32-bit value at b
uint32_t
Read32(const uint8_t* b)
{
    return static_cast<uint32_t>(b[0]) << 24 | static_cast<uint32_t>(b[1]) << 16 |
           static_cast<uint32_t>(b[2]) << 8 | b[3];
}

/// \return true when the protocol carries ports
bool
HasPorts(uint8_t protocol)
{
    return protocol == PROTO_TCP || protocol == PROTO_UDP;
}
} // namespace

bool
ClosParsePacket(Ptr<const Packet> packet, ClosParsedPacket& parsed)
{
    uint8_t b[2 + 60 + 14]; // PPP, the longest IPv4 header, TCP up to its flags
    uint32_t n = packet->CopyData(b, sizeof(b));
    const uint8_t* ip = b;
    if (n >= 2 && Read16(b) == PPP_IPV4)
    {
        ip += 2;
        n -= 2;
    }
    if (n < 20 || (ip[0] >> 4) != 4)
    {
        return false;
    }
    uint32_t ihl = (ip[0] & 0x0Fu) * 4u;
    ClusterFiveTuple& t = parsed.tuple;
    t = ClusterFiveTuple();
    t.protocol = ip[9];
    t.srcAddress = Read32(ip + 12);
    t.dstAddress = Read32(ip + 16);
    parsed.ipBytes = Read16(ip + 2);
    parsed.tcpNoPayload = false;
    parsed.roceControl = false;
    bool firstFragment = (Read16(ip + 6) & 0x1FFFu) == 0;
    if (HasPorts(t.protocol) && firstFragment && n >= ihl + 4)
    {
        t.srcPort = Read16(ip + ihl);
        t.dstPort = Read16(ip + ihl + 2);
        if (t.protocol == PROTO_TCP && n >= ihl + 13)
        {
            uint32_t tcpHeader = (ip[ihl + 12] >> 4) * 4u;
            parsed.tcpNoPayload = parsed.ipBytes <= ihl + tcpHeader;
        }
        else if (t.protocol == PROTO_UDP && t.dstPort == ROCE_PORT && n >= ihl + 9)
        {
            const uint8_t opcode = ip[ihl + 8]; // the BTH's first byte, after UDP's 8
            parsed.roceControl = opcode == ROCE_ACK || opcode == ROCE_CNP;
        }
    }
    return true;
}

ClusterFiveTuple
ClosExtractFiveTuple(const Ipv4Header& header, Ptr<const Packet> payload)
{
    ClusterFiveTuple t;
    t.srcAddress = header.GetSource().Get();
    t.dstAddress = header.GetDestination().Get();
    t.protocol = header.GetProtocol();
    if (payload && HasPorts(t.protocol) && header.GetFragmentOffset() == 0 &&
        payload->GetSize() >= 4)
    {
        uint8_t ports[4];
        payload->CopyData(ports, 4);
        t.srcPort = Read16(ports);
        t.dstPort = Read16(ports + 2);
    }
    return t;
}

} // namespace ns3
