/*
 * Frames for the ONCache eBPF tests: Ethernet, IPv4, TCP/UDP/ICMP and VXLAN built byte by
 * byte from the wire formats (RFC 791, 793, 768, 792, 7348), independently of the programs and
 * of the model. The emulated world: host A (NIC 198.18.0.11, pods a and a2) and a remote host
 * B (198.18.0.12, pod b).
 */
#ifndef ONCACHE_TEST_FRAMES_H
#define ONCACHE_TEST_FRAMES_H

#include "oncache-abi.h"

#include <arpa/inet.h>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace oncache_test
{

using Bytes = std::vector<uint8_t>;

inline const uint8_t kNicMacA[6] = {0x02, 0, 0, 0, 0, 0x11};
inline const uint8_t kNicMacB[6] = {0x02, 0, 0, 0, 0, 0x12};
inline const uint8_t kVtepMacA[6] = {0x02, 0x0c, 0, 0, 1, 0};
inline const uint8_t kVtepMacB[6] = {0x02, 0x0c, 0, 0, 2, 0};
inline const uint8_t kPodMacA[6] = {0x02, 0xaa, 0, 0, 1, 10};
inline const uint8_t kPodMacA2[6] = {0x02, 0xaa, 0, 0, 1, 11};
inline const uint8_t kPodMacB[6] = {0x02, 0xaa, 0, 0, 2, 10};
inline const uint8_t kGwMacA[6] = {0x02, 0xbb, 0, 0, 1, 1};
inline const uint32_t kHostA = htonl(0xc6120000 | 11); // 198.18.0.11
inline const uint32_t kHostB = htonl(0xc6120000 | 12); // 198.18.0.12
inline const uint32_t kPodA = htonl(0xc6130100 | 10);  // 198.19.1.10
inline const uint32_t kPodA2 = htonl(0xc6130100 | 11); // 198.19.1.11
inline const uint32_t kPodB = htonl(0xc6130200 | 10);  // 198.19.2.10
inline const uint32_t kVni = 1;
/// BPF_PROG_TEST_RUN runs tc programs on the loopback device: it plays the host NIC.
inline const uint32_t kNicIfindex = 1;
inline const uint32_t kVethA = 42;
inline const uint32_t kVethA2 = 43;
constexpr uint8_t kIcmp = 1;
constexpr uint8_t kTcp = 6;
constexpr uint8_t kUdp = 17;
constexpr uint8_t kSyn = 0x02;
constexpr uint8_t kRst = 0x04;
constexpr uint8_t kAck = 0x10;

inline void
Put16(Bytes& b, size_t off, uint16_t hostValue)
{
    b[off] = hostValue >> 8;
    b[off + 1] = hostValue & 0xff;
}

inline uint16_t
Get16(const Bytes& b, size_t off)
{
    return static_cast<uint16_t>(b[off] << 8 | b[off + 1]);
}

/// RFC 1071 over an IPv4 header: 0 when the stored checksum is right.
inline uint16_t
HeaderSum(const Bytes& b, size_t off, size_t len = 20)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < len; i += 2)
    {
        sum += Get16(b, off + i);
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

inline void
FixIpChecksum(Bytes& b, size_t off)
{
    Put16(b, off + 10, 0);
    Put16(b, off + 10, HeaderSum(b, off));
}

/// Set bits of the TOS byte of the IPv4 header at off, with its checksum recomputed.
inline void
SetTosBits(Bytes& b, size_t off, uint8_t bits)
{
    b[off + 1] |= bits;
    FixIpChecksum(b, off);
}

inline void
AppendEth(Bytes& b, const uint8_t* dst, const uint8_t* src, uint16_t type)
{
    b.insert(b.end(), dst, dst + 6);
    b.insert(b.end(), src, src + 6);
    b.push_back(type >> 8);
    b.push_back(type & 0xff);
}

/// An IPv4 header (no options, DF) with `payload` bytes after it; addresses in network order.
inline void
AppendIp(Bytes& b, uint32_t src, uint32_t dst, uint8_t proto, uint8_t tos, size_t payload)
{
    size_t off = b.size();
    b.resize(off + 20);
    b[off] = 0x45;
    b[off + 1] = tos;
    Put16(b, off + 2, static_cast<uint16_t>(20 + payload));
    Put16(b, off + 4, 0x1234);
    Put16(b, off + 6, 0x4000);
    b[off + 8] = 64;
    b[off + 9] = proto;
    std::memcpy(&b[off + 12], &src, 4);
    std::memcpy(&b[off + 16], &dst, 4);
    FixIpChecksum(b, off);
}

/// \return the frame: an Ethernet header (IPv4) before an IPv4 packet
inline Bytes
WithEth(const Bytes& ip, const uint8_t* dst, const uint8_t* src)
{
    Bytes b;
    AppendEth(b, dst, src, 0x0800);
    b.insert(b.end(), ip.begin(), ip.end());
    return b;
}

/// A pod-to-pod flow, oriented source to destination. Addresses in network order, ports in
/// host order (0 for ICMP).
struct Flow
{
    uint32_t src;
    uint32_t dst;
    uint16_t sport;
    uint16_t dport;
    uint8_t proto;

    Flow Reversed() const
    {
        return Flow{dst, src, dport, sport, proto};
    }

    /// \return the orientation-free form
    Flow Canonical() const
    {
        Flow r = Reversed();
        return std::tie(src, sport) < std::tie(r.src, r.sport) ? *this : r;
    }

    bool operator<(const Flow& o) const
    {
        return std::tie(src, dst, sport, dport, proto) <
               std::tie(o.src, o.dst, o.sport, o.dport, o.proto);
    }

    /// \return the filter key with the source as the local end
    oncache_flow_key Key() const
    {
        oncache_flow_key k{};
        k.laddr = src;
        k.raddr = dst;
        k.lport = htons(sport);
        k.rport = htons(dport);
        k.proto = proto;
        return k;
    }

    std::string ToString() const
    {
        char s[96];
        std::snprintf(s,
                      sizeof(s),
                      "%u.%u.%u.%u:%u>%u.%u.%u.%u:%u/%u",
                      src & 0xff,
                      src >> 8 & 0xff,
                      src >> 16 & 0xff,
                      src >> 24,
                      sport,
                      dst & 0xff,
                      dst >> 8 & 0xff,
                      dst >> 16 & 0xff,
                      dst >> 24,
                      dport,
                      proto);
        return s;
    }
};

/// An IPv4 packet of a flow: TCP (20-byte header with `tcpFlags`), UDP or an ICMP echo, each
/// with 20 bytes of payload.
inline Bytes
IpPacket(const Flow& f, uint8_t tos, uint8_t tcpFlags)
{
    const size_t l4 = f.proto == kTcp ? 20 : 8;
    Bytes b;
    AppendIp(b, f.src, f.dst, f.proto, tos, l4 + 20);
    size_t off = b.size();
    b.resize(off + l4 + 20);
    if (f.proto == kTcp || f.proto == kUdp)
    {
        Put16(b, off, f.sport);
        Put16(b, off + 2, f.dport);
    }
    if (f.proto == kTcp)
    {
        b[off + 12] = 0x50;
        b[off + 13] = tcpFlags;
    }
    else if (f.proto == kUdp)
    {
        Put16(b, off + 4, 8 + 20);
    }
    else
    {
        b[off] = 8; // echo request
    }
    for (size_t i = off + l4; i < b.size(); ++i)
    {
        b[i] = static_cast<uint8_t>(i);
    }
    return b;
}

/// \return the MAC of a pod of host A, or of pod b
inline const uint8_t*
MacOfPod(uint32_t ip)
{
    return ip == kPodA ? kPodMacA : ip == kPodA2 ? kPodMacA2 : kPodMacB;
}

/// A pod's frame.
inline Bytes
PodFrame(const Flow& f, uint8_t tos, uint8_t tcpFlags, const uint8_t* dst, const uint8_t* src)
{
    return WithEth(IpPacket(f, tos, tcpFlags), dst, src);
}

/// A VXLAN frame between hosts as the kernel's vxlan device builds it (UDP checksum 0).
inline Bytes
Vxlan(uint32_t outerSrc,
      uint32_t outerDst,
      const uint8_t* dstMac,
      const uint8_t* srcMac,
      const uint8_t* innerDstMac,
      const uint8_t* innerSrcMac,
      const Bytes& inner,
      uint32_t vni,
      uint16_t sport = 50000)
{
    Bytes b;
    AppendEth(b, dstMac, srcMac, 0x0800);
    const size_t innerFrame = ONCACHE_ETH_LEN + inner.size();
    AppendIp(b, outerSrc, outerDst, kUdp, 0, ONCACHE_UDP_LEN + ONCACHE_VXLAN_LEN + innerFrame);
    size_t udp = b.size();
    b.resize(udp + ONCACHE_UDP_LEN + ONCACHE_VXLAN_LEN);
    Put16(b, udp, sport);
    Put16(b, udp + 2, ONCACHE_VXLAN_PORT);
    Put16(b, udp + 4, static_cast<uint16_t>(16 + innerFrame));
    b[udp + 8] = ONCACHE_VXLAN_FLAG_VNI;
    b[udp + 12] = (vni >> 16) & 0xff;
    b[udp + 13] = (vni >> 8) & 0xff;
    b[udp + 14] = vni & 0xff;
    AppendEth(b, innerDstMac, innerSrcMac, 0x0800);
    b.insert(b.end(), inner.begin(), inner.end());
    return b;
}

} // namespace oncache_test

#endif /* ONCACHE_TEST_FRAMES_H */
