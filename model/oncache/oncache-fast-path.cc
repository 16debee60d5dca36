/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-fast-path.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// EtherType of IPv4.
constexpr uint16_t kEtherTypeIpv4 = 0x0800;
/// IP protocol numbers.
constexpr uint8_t kTcp = 6;
constexpr uint8_t kUdp = 17;
/// The IPv4 flags/fragment-offset bits that make a fragment: MF and the offset.
constexpr uint16_t kFragmentBits = 0x3fff;
/// The fragment-offset bits (in 8-byte units).
constexpr uint16_t kOffsetBits = 0x1fff;
/// Where the inner IPv4 header of a VXLAN frame starts in the outer UDP datagram: UDP 8,
/// VXLAN 8, inner Ethernet 14.
constexpr uint32_t kInnerIpInUdp = ONCACHE_UDP_LEN + ONCACHE_VXLAN_LEN + ONCACHE_ETH_LEN;

/// \return the big-endian 16-bit value at off
uint16_t
Get16(const std::vector<uint8_t>& b, uint32_t off)
{
    return static_cast<uint16_t>(b[off] << 8 | b[off + 1]);
}

/// Store a big-endian 16-bit value at off.
void
Put16(std::vector<uint8_t>& b, uint32_t off, uint16_t value)
{
    b[off] = static_cast<uint8_t>(value >> 8);
    b[off + 1] = static_cast<uint8_t>(value);
}

/// \return the 4 bytes at off as stored (network order kept)
uint32_t
GetRaw32(const std::vector<uint8_t>& b, uint32_t off)
{
    uint32_t value;
    std::memcpy(&value, &b[off], 4);
    return value;
}

/// \return the one's-complement sum a + b, folded to 16 bits
uint16_t
OnesAdd(uint32_t a, uint32_t b)
{
    uint32_t sum = a + b;
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(sum);
}

/// \return the RFC 791 checksum of the 20-byte IPv4 header at off (its checksum field skipped)
uint16_t
Ipv4HeaderChecksum(const std::vector<uint8_t>& b, uint32_t off)
{
    uint16_t sum = 0;
    for (uint32_t i = 0; i < ONCACHE_IPV4_LEN; i += 2)
    {
        if (i != 10)
        {
            sum = OnesAdd(sum, Get16(b, off + i));
        }
    }
    return static_cast<uint16_t>(~sum);
}

/// \return true when all six bytes are zero
bool
MacIsZero(const uint8_t* mac)
{
    return std::all_of(mac, mac + 6, [](uint8_t x) { return x == 0; });
}
} // namespace

std::size_t
OncacheAbiFlowKeyHash::operator()(const oncache_flow_key& key) const
{
    // FNV-1a over the 16 key bytes.
    const auto* bytes = reinterpret_cast<const uint8_t*>(&key);
    uint64_t hash = 14695981039346656037ULL;
    for (std::size_t i = 0; i < sizeof(key); ++i)
    {
        hash = (hash ^ bytes[i]) * 1099511628211ULL;
    }
    return static_cast<std::size_t>(hash);
}

OncacheFastPath::OncacheFastPath(uint32_t egressIpEntries,
                                 uint32_t egressEntries,
                                 uint32_t ingressEntries,
                                 uint32_t filterEntries)
    : m_egressIp(egressIpEntries, "EgressIpCacheSize"),
      m_egress(egressEntries, "EgressCacheSize"),
      m_ingress(ingressEntries, "IngressCacheSize"),
      m_filter(filterEntries, "FilterCacheSize")
{
}

void
OncacheFastPath::SetDevice(uint32_t ifindex, const oncache_dev_info& dev)
{
    m_devices[ifindex] = dev;
}

void
OncacheFastPath::AddLocalPod(uint32_t pod, uint32_t vethIfindex)
{
    oncache_ingress_info entry{};
    entry.ifindex = vethIfindex;
    m_ingress.Insert(pod, entry);
}

bool
OncacheFastPath::DeleteLocalPod(uint32_t pod)
{
    return m_ingress.Erase(pod);
}

bool
OncacheFastPath::DeleteRemotePod(uint32_t pod)
{
    return m_egressIp.Erase(pod);
}

bool
OncacheFastPath::DeleteHost(uint32_t host)
{
    return m_egress.Erase(host);
}

bool
OncacheFastPath::DeleteFlow(const oncache_flow_key& key)
{
    return m_filter.Erase(key);
}

std::size_t
OncacheFastPath::DeleteFlows(const std::function<bool(const oncache_flow_key&)>& match)
{
    return m_filter.EraseIf(
        [&match](const oncache_flow_key& key, const oncache_filter_action&) { return match(key); });
}

bool
OncacheFastPath::ReadIpv4(const Frame& frame, uint32_t off, Ipv4View& ip)
{
    const std::vector<uint8_t>& b = frame.bytes;
    if (b.size() < off + ONCACHE_IPV4_LEN || (b[off] >> 4) != 4 || (b[off] & 0x0f) < 5)
    {
        return false;
    }
    ip.ihl = b[off] & 0x0f;
    ip.tos = b[off + 1];
    ip.fragment = (Get16(b, off + 6) & kFragmentBits) != 0;
    ip.protocol = b[off + 9];
    ip.saddr = GetRaw32(b, off + 12);
    ip.daddr = GetRaw32(b, off + 16);
    return true;
}

bool
OncacheFastPath::ReadPodFrame(const Frame& frame, Ipv4View& ip)
{
    return frame.bytes.size() >= ONCACHE_ETH_LEN && Get16(frame.bytes, 12) == kEtherTypeIpv4 &&
           ReadIpv4(frame, ONCACHE_ETH_LEN, ip);
}

const oncache_dev_info*
OncacheFastPath::ReadVxlan(const Frame& frame,
                           uint32_t ifindex,
                           Ipv4View& outer,
                           Ipv4View& inner) const
{
    const std::vector<uint8_t>& b = frame.bytes;
    // The outer headers and the inner Ethernet and IPv4 headers (without options) must all be
    // in the frame.
    if (b.size() < ONCACHE_INNER_IP_OFF + ONCACHE_IPV4_LEN || Get16(b, 12) != kEtherTypeIpv4 ||
        !ReadIpv4(frame, ONCACHE_OUTER_IP_OFF, outer) || outer.ihl != 5 || outer.protocol != kUdp ||
        outer.fragment)
    {
        return nullptr;
    }
    const uint16_t port = Get16(b, ONCACHE_OUTER_UDP_OFF + 2);
    if ((port != ONCACHE_VXLAN_PORT && port != ONCACHE_VXLAN_PORT_LINUX) ||
        !(b[ONCACHE_VXLAN_OFF] & ONCACHE_VXLAN_FLAG_VNI) ||
        Get16(b, ONCACHE_INNER_ETH_OFF + 12) != kEtherTypeIpv4 ||
        !ReadIpv4(frame, ONCACHE_INNER_IP_OFF, inner))
    {
        return nullptr;
    }
    auto dev = m_devices.find(ifindex);
    if (dev == m_devices.end())
    {
        return nullptr;
    }
    const uint32_t vni = static_cast<uint32_t>(b[ONCACHE_VXLAN_OFF + 4]) << 16 |
                         static_cast<uint32_t>(b[ONCACHE_VXLAN_OFF + 5]) << 8 |
                         b[ONCACHE_VXLAN_OFF + 6];
    return vni == dev->second.vni ? &dev->second : nullptr;
}

bool
OncacheFastPath::ReadPorts(const Frame& frame,
                           uint32_t off,
                           uint8_t protocol,
                           uint16_t& src,
                           uint16_t& dst)
{
    src = 0;
    dst = 0;
    if (protocol != kTcp && protocol != kUdp)
    {
        return true;
    }
    if (frame.bytes.size() < off + 4)
    {
        return false;
    }
    std::memcpy(&src, &frame.bytes[off], 2);
    std::memcpy(&dst, &frame.bytes[off + 2], 2);
    return true;
}

void
OncacheFastPath::WriteMarks(Frame& frame, uint32_t off, uint8_t marks)
{
    std::vector<uint8_t>& b = frame.bytes;
    if (b.size() < off + ONCACHE_IPV4_LEN)
    {
        return;
    }
    const uint8_t tos = static_cast<uint8_t>((b[off + 1] & ~ONCACHE_MARK_MASK) | marks);
    if (tos == b[off + 1])
    {
        return;
    }
    // RFC 1624, eqn. 3: HC' = ~(~HC + ~m + m'), m the 16-bit word holding the TOS byte.
    const uint16_t oldWord = Get16(b, off);
    const uint16_t newWord = static_cast<uint16_t>((oldWord & 0xff00) | tos);
    uint16_t sum =
        OnesAdd(static_cast<uint16_t>(~Get16(b, off + 10)), static_cast<uint16_t>(~oldWord));
    sum = OnesAdd(sum, newWord);
    Put16(b, off + 10, static_cast<uint16_t>(~sum));
    b[off + 1] = tos;
}

void
OncacheFastPath::ClearForeignMarks(Frame& frame)
{
    std::vector<uint8_t>& b = frame.bytes;
    const uint32_t ip = ONCACHE_OUTER_IP_OFF;
    if (b.size() < ip + ONCACHE_IPV4_LEN || Get16(b, 12) != kEtherTypeIpv4 || (b[ip] >> 4) != 4 ||
        (b[ip] & 0x0f) < 5 || b[ip + 9] != kUdp)
    {
        return;
    }
    const uint32_t l4 = ip + (b[ip] & 0x0f) * 4;
    const uint32_t offset = (Get16(b, ip + 6) & kOffsetBits) * 8u;
    uint32_t inner = 0;
    if (offset == 0)
    {
        // The UDP header and the inner EtherType tell a VXLAN frame carrying IPv4.
        if (b.size() < l4 + ONCACHE_UDP_LEN)
        {
            return;
        }
        const uint16_t port = Get16(b, l4 + 2);
        if ((port != ONCACHE_VXLAN_PORT && port != ONCACHE_VXLAN_PORT_LINUX) ||
            b.size() < l4 + kInnerIpInUdp || Get16(b, l4 + kInnerIpInUdp - 2) != kEtherTypeIpv4)
        {
            return;
        }
        inner = l4 + kInnerIpInUdp;
    }
    else if (offset < kInnerIpInUdp + 2)
    {
        // A later fragment that holds the inner TOS byte: only after a first fragment shorter
        // than a legal MTU gives; the port is not in this fragment.
        inner = l4 + kInnerIpInUdp - offset;
    }
    else
    {
        return;
    }
    if (b.size() < inner + 2 || !(b[inner + 1] & ONCACHE_MARK_MASK))
    {
        return;
    }
    const uint8_t tos = static_cast<uint8_t>(b[inner + 1] & ~ONCACHE_MARK_MASK);
    if (b.size() >= inner + 12)
    {
        // RFC 1624, eqn. 3, as in WriteMarks.
        const uint16_t oldWord = Get16(b, inner);
        const uint16_t newWord = static_cast<uint16_t>((oldWord & 0xff00) | tos);
        uint16_t sum = OnesAdd(static_cast<uint16_t>(~Get16(b, inner + 10)),
                               static_cast<uint16_t>(~oldWord));
        sum = OnesAdd(sum, newWord);
        Put16(b, inner + 10, static_cast<uint16_t>(~sum));
    }
    b[inner + 1] = tos;
}

void
OncacheFastPath::SetFilterBit(const oncache_flow_key& key, bool egress)
{
    oncache_filter_action* action = m_filter.Lookup(key);
    oncache_filter_action updated = action ? *action : oncache_filter_action{0, 0};
    (egress ? updated.egress : updated.ingress) = 1;
    m_filter.Insert(key, updated);
}

OncacheFastPath::Result
OncacheFastPath::Egress(Frame& frame, uint32_t flowHash, uint32_t ifindex)
{
    Result result;
    Ipv4View ip;
    if (!ReadPodFrame(frame, ip))
    {
        return result; // not IPv4: untouched
    }
    // Source check: a local pod's address may leave on the fast path only from that pod's veth
    // (the kernel path's anti-spoofing); a spoof falls back without a mark.
    const oncache_ingress_info* local = m_ingress.Lookup(ip.saddr);
    if (local && local->ifindex != ifindex)
    {
        result.verdict = VERDICT_SPOOF;
        WriteMarks(frame, ONCACHE_ETH_LEN, 0);
        return result;
    }
    oncache_flow_key key{};
    key.laddr = ip.saddr;
    key.raddr = ip.daddr;
    key.proto = ip.protocol;
    result.verdict = VERDICT_MISS;
    const oncache_filter_action* action = nullptr;
    const uint32_t* host = nullptr;
    const oncache_egress_info* egress = nullptr;
    if (!ip.fragment &&
        ReadPorts(frame, ONCACHE_ETH_LEN + ip.ihl * 4, ip.protocol, key.lport, key.rport) &&
        (action = m_filter.Lookup(key)) && action->ingress && action->egress &&
        (host = m_egressIp.Lookup(ip.daddr)) && (egress = m_egress.Lookup(*host)))
    {
        // Reverse check: the local pod's MACs must be learned, else the other direction still
        // needs the overlay: fall back without the miss mark.
        result.verdict = local && !MacIsZero(local->dmac) ? VERDICT_HIT : VERDICT_REVERSE;
    }
    if (result.verdict != VERDICT_HIT)
    {
        WriteMarks(frame, ONCACHE_ETH_LEN, result.verdict == VERDICT_MISS ? ONCACHE_MISS_MARK : 0);
        return result;
    }
    // Hit: clear the marks, then the template replaces the Ethernet header and 50 bytes of
    // encapsulation go in front of the inner IPv4 header; only lengths, the outer checksum and
    // the source port change.
    WriteMarks(frame, ONCACHE_ETH_LEN, 0);
    std::vector<uint8_t>& b = frame.bytes;
    b.insert(b.begin() + ONCACHE_ETH_LEN, ONCACHE_ENCAP_LEN, 0);
    std::copy(egress->tmpl, egress->tmpl + ONCACHE_TEMPLATE_LEN, b.begin());
    frame.length += ONCACHE_ENCAP_LEN;
    Put16(b, ONCACHE_OUTER_IP_OFF + 2, static_cast<uint16_t>(frame.length - ONCACHE_ETH_LEN));
    Put16(b, ONCACHE_OUTER_IP_OFF + 10, Ipv4HeaderChecksum(b, ONCACHE_OUTER_IP_OFF));
    Put16(b,
          ONCACHE_OUTER_UDP_OFF,
          static_cast<uint16_t>(ONCACHE_SPORT_BASE + (flowHash & ONCACHE_SPORT_MASK)));
    Put16(b,
          ONCACHE_OUTER_UDP_OFF + 4,
          static_cast<uint16_t>(frame.length - ONCACHE_ETH_LEN - ONCACHE_IPV4_LEN));
    result.redirect = true;
    result.ifindex = egress->ifindex;
    return result;
}

OncacheFastPath::Result
OncacheFastPath::Ingress(Frame& frame, uint32_t ifindex)
{
    Result result;
    Ipv4View outer;
    Ipv4View inner;
    const oncache_dev_info* dev = ReadVxlan(frame, ifindex, outer, inner);
    if (!dev || outer.daddr != dev->ip || !std::equal(dev->mac, dev->mac + 6, frame.bytes.begin()))
    {
        // Not taken, but the kernel may decapsulate it: no sender-set mark may survive.
        ClearForeignMarks(frame);
        return result;
    }
    // Source check: a remote pod's packet must come from the host egress level 1 holds for it.
    const uint32_t* sourceHost = m_egressIp.Lookup(inner.saddr);
    if (sourceHost && *sourceHost != outer.saddr)
    {
        result.verdict = VERDICT_SPOOF;
        WriteMarks(frame, ONCACHE_INNER_IP_OFF, 0);
        return result;
    }
    oncache_flow_key key{};
    key.laddr = inner.daddr;
    key.raddr = inner.saddr;
    key.proto = inner.protocol;
    result.verdict = VERDICT_MISS;
    const oncache_filter_action* action = nullptr;
    const oncache_ingress_info* pod = nullptr;
    if (!inner.fragment &&
        ReadPorts(frame,
                  ONCACHE_INNER_IP_OFF + inner.ihl * 4,
                  inner.protocol,
                  key.rport,
                  key.lport) &&
        (action = m_filter.Lookup(key)) && action->ingress && action->egress &&
        (pod = m_ingress.Lookup(inner.daddr)) && !MacIsZero(pod->dmac))
    {
        // Reverse check: the remote pod must be in egress level 1.
        result.verdict = sourceHost ? VERDICT_HIT : VERDICT_REVERSE;
    }
    if (result.verdict != VERDICT_HIT)
    {
        WriteMarks(frame,
                   ONCACHE_INNER_IP_OFF,
                   result.verdict == VERDICT_MISS ? ONCACHE_MISS_MARK : 0);
        return result;
    }
    // Hit: drop the outer IPv4, UDP, VXLAN and inner Ethernet headers, write the pod's MACs
    // over the outer Ethernet addresses (its EtherType is IPv4 already).
    std::vector<uint8_t>& b = frame.bytes;
    b.erase(b.begin() + ONCACHE_ETH_LEN, b.begin() + ONCACHE_ETH_LEN + ONCACHE_ENCAP_LEN);
    frame.length -= ONCACHE_ENCAP_LEN;
    std::copy(pod->dmac, pod->dmac + 6, b.begin());
    std::copy(pod->smac, pod->smac + 6, b.begin() + 6);
    result.redirect = true;
    result.ifindex = pod->ifindex;
    return result;
}

bool
OncacheFastPath::EgressLearn(Frame& frame, uint32_t ifindex)
{
    Ipv4View outer;
    Ipv4View inner;
    const oncache_dev_info* dev = ReadVxlan(frame, ifindex, outer, inner);
    if (!dev || outer.saddr != dev->ip || !(inner.tos & ONCACHE_MARK_MASK))
    {
        return false;
    }
    bool learned = false;
    oncache_flow_key key{};
    key.laddr = inner.saddr;
    key.raddr = inner.daddr;
    key.proto = inner.protocol;
    // Learn only from a local pod's packet that missed and is established, whose outer UDP
    // checksum is 0 (the fast path leaves the template's checksum as it is).
    if ((inner.tos & ONCACHE_MARK_MASK) == ONCACHE_MARK_MASK && !inner.fragment &&
        Get16(frame.bytes, ONCACHE_OUTER_UDP_OFF + 6) == 0 && m_ingress.Peek(inner.saddr) &&
        ReadPorts(frame,
                  ONCACHE_INNER_IP_OFF + inner.ihl * 4,
                  inner.protocol,
                  key.lport,
                  key.rport))
    {
        oncache_egress_info info{};
        std::copy(frame.bytes.begin(), frame.bytes.begin() + ONCACHE_TEMPLATE_LEN, info.tmpl);
        info.ifindex = ifindex;
        m_egress.Insert(outer.daddr, info, true);
        m_egressIp.Insert(inner.daddr, outer.daddr, true);
        SetFilterBit(key, true);
        learned = true;
    }
    WriteMarks(frame, ONCACHE_INNER_IP_OFF, 0);
    return learned;
}

bool
OncacheFastPath::IngressLearn(Frame& frame)
{
    Ipv4View ip;
    if (!ReadPodFrame(frame, ip) || !(ip.tos & ONCACHE_MARK_MASK))
    {
        return false;
    }
    bool learned = false;
    oncache_flow_key key{};
    key.laddr = ip.daddr;
    key.raddr = ip.saddr;
    key.proto = ip.protocol;
    // Learn only from a remote pod's packet: a local source (it has an ingress entry) came
    // over the host and carries that pod's MAC, not the gateway's.
    const oncache_ingress_info* pod = m_ingress.Peek(ip.daddr);
    if ((ip.tos & ONCACHE_MARK_MASK) == ONCACHE_MARK_MASK && !ip.fragment && pod &&
        !m_ingress.Peek(ip.saddr) &&
        ReadPorts(frame, ONCACHE_ETH_LEN + ip.ihl * 4, ip.protocol, key.rport, key.lport))
    {
        oncache_ingress_info entry = *pod;
        std::copy(frame.bytes.begin(), frame.bytes.begin() + 6, entry.dmac);
        std::copy(frame.bytes.begin() + 6, frame.bytes.begin() + 12, entry.smac);
        m_ingress.Insert(ip.daddr, entry);
        SetFilterBit(key, false);
        learned = true;
    }
    WriteMarks(frame, ONCACHE_ETH_LEN, 0);
    return learned;
}

const OncacheLruCache<uint32_t, uint32_t>&
OncacheFastPath::GetEgressIpCache() const
{
    return m_egressIp;
}

const OncacheLruCache<uint32_t, oncache_egress_info>&
OncacheFastPath::GetEgressCache() const
{
    return m_egress;
}

const OncacheLruCache<uint32_t, oncache_ingress_info>&
OncacheFastPath::GetIngressCache() const
{
    return m_ingress;
}

const OncacheLruCache<oncache_flow_key, oncache_filter_action, OncacheAbiFlowKeyHash>&
OncacheFastPath::GetFilterCache() const
{
    return m_filter;
}

void
OncacheFastPath::SetFilterEntry(const oncache_flow_key& key, const oncache_filter_action& action)
{
    m_filter.Insert(key, action);
}

} // namespace ns3
