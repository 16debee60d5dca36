/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "clos-ecmp-routing.h"

#include "clos-packet-parser.h"

#include "ns3/enum.h"
#include "ns3/ipv4-route.h"
#include "ns3/log.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClosEcmpRouting");

NS_OBJECT_ENSURE_REGISTERED(ClosEcmpRouting);

namespace
{
/// \return the key of a (source, destination) pin
uint64_t
PairKey(uint32_t src, uint32_t dst)
{
    return (static_cast<uint64_t>(src) << 32) | dst;
}
} // namespace

TypeId
ClosEcmpRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClosEcmpRouting")
            .SetParent<Ipv4RoutingProtocol>()
            .SetGroupName("Clos")
            .AddConstructor<ClosEcmpRouting>()
            .AddAttribute(
                "HashAlgorithm",
                "The hash function applied to the 5-tuple to choose among equal-cost "
                "next hops.",
                EnumValue(CLUSTER_HASH_CRC32),
                MakeEnumAccessor(&ClosEcmpRouting::m_algorithm),
                MakeEnumChecker(CLUSTER_HASH_CRC32, "Crc32", CLUSTER_HASH_XOR_FOLD, "XorFold"))
            .AddAttribute(
                "Mode",
                "How a member of an equal-cost group is chosen: PerFlowEcmp hashes the "
                "5-tuple (every packet of a flow takes one path); PerPacketSpray sends "
                "each packet to a random member (reorders TCP, for comparison only).",
                EnumValue(PER_FLOW_ECMP),
                MakeEnumAccessor(&ClosEcmpRouting::m_mode),
                MakeEnumChecker(PER_FLOW_ECMP, "PerFlowEcmp", PER_PACKET_SPRAY, "PerPacketSpray"))
            .AddAttribute(
                "Salt",
                "The per-switch hash salt. The fabric helper draws one per switch "
                "from its random stream, so it is reproducible from RngSeed/RngRun.",
                UintegerValue(0),
                MakeUintegerAccessor(&ClosEcmpRouting::SetSalt, &ClosEcmpRouting::GetSalt),
                MakeUintegerChecker<uint32_t>())
            .AddTraceSource("NoRoute",
                            "A packet was dropped because no route matched its destination.",
                            MakeTraceSourceAccessor(&ClosEcmpRouting::m_noRouteTrace),
                            "ns3::ClosEcmpRouting::NoRouteTracedCallback");
    return tid;
}

ClosEcmpRouting::ClosEcmpRouting()
    : m_salt(0),
      m_algorithm(CLUSTER_HASH_CRC32),
      m_mode(PER_FLOW_ECMP),
      m_sprayState(1)
{
    NS_LOG_FUNCTION(this);
}

ClosEcmpRouting::~ClosEcmpRouting()
{
    NS_LOG_FUNCTION(this);
}

void
ClosEcmpRouting::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ipv4 = nullptr;
    m_routes.clear();
    Ipv4RoutingProtocol::DoDispose();
}

void
ClosEcmpRouting::AddRoute(Ipv4Address network,
                          Ipv4Mask mask,
                          const std::vector<uint32_t>& interfaces)
{
    NS_LOG_FUNCTION(this << network << mask << interfaces.size());
    auto length = static_cast<uint8_t>(mask.GetPrefixLength());
    auto table = std::find_if(m_tables.begin(), m_tables.end(), [length](const PrefixTable& t) {
        return t.length == length;
    });
    if (table == m_tables.end())
    {
        m_tables.push_back(PrefixTable{length, mask.Get(), {}});
        std::sort(m_tables.begin(), m_tables.end(), [](const PrefixTable& a, const PrefixTable& b) {
            return a.length > b.length;
        });
        table = std::find_if(m_tables.begin(), m_tables.end(), [length](const PrefixTable& t) {
            return t.length == length;
        });
    }
    if (interfaces.empty())
    {
        table->groups[network.Get() & mask.Get()] = UNREACHABLE;
        return;
    }
    // Identical groups are shared, so a leaf with many prefixes keeps one uplink group.
    auto group = std::find(m_groups.begin(), m_groups.end(), interfaces);
    if (group == m_groups.end())
    {
        m_groups.push_back(interfaces);
        group = m_groups.end() - 1;
    }
    table->groups[network.Get() & mask.Get()] = static_cast<uint32_t>(group - m_groups.begin());
}

void
ClosEcmpRouting::PinSource(Ipv4Address source, uint32_t interface)
{
    NS_LOG_FUNCTION(this << source << interface);
    m_srcPins[source.Get()] = interface;
}

void
ClosEcmpRouting::PinPair(Ipv4Address source, Ipv4Address destination, uint32_t interface)
{
    NS_LOG_FUNCTION(this << source << destination << interface);
    m_pairPins[PairKey(source.Get(), destination.Get())] = interface;
}

void
ClosEcmpRouting::UnpinSource(Ipv4Address source)
{
    NS_LOG_FUNCTION(this << source);
    m_srcPins.erase(source.Get());
}

void
ClosEcmpRouting::UnpinPair(Ipv4Address source, Ipv4Address destination)
{
    NS_LOG_FUNCTION(this << source << destination);
    m_pairPins.erase(PairKey(source.Get(), destination.Get()));
}

void
ClosEcmpRouting::ClearPins()
{
    NS_LOG_FUNCTION(this);
    m_srcPins.clear();
    m_pairPins.clear();
}

void
ClosEcmpRouting::SetSalt(uint32_t salt)
{
    NS_LOG_FUNCTION(this << salt);
    m_salt = salt;
    m_sprayState = salt | 1u; // xorshift needs a non-zero state
}

uint32_t
ClosEcmpRouting::GetSalt() const
{
    return m_salt;
}

int32_t
ClosEcmpRouting::LookupGroup(uint32_t destination) const
{
    for (const auto& table : m_tables)
    {
        auto it = table.groups.find(destination & table.mask);
        if (it != table.groups.end())
        {
            return it->second == UNREACHABLE ? -1 : static_cast<int32_t>(it->second);
        }
    }
    return -1;
}

int32_t
ClosEcmpRouting::PinnedMember(uint32_t group, const ClusterFiveTuple& tuple) const
{
    int32_t pinned = -1;
    if (!m_pairPins.empty())
    {
        auto it = m_pairPins.find(PairKey(tuple.srcAddress, tuple.dstAddress));
        if (it != m_pairPins.end())
        {
            pinned = static_cast<int32_t>(it->second);
        }
    }
    if (pinned < 0 && !m_srcPins.empty())
    {
        auto it = m_srcPins.find(tuple.srcAddress);
        if (it != m_srcPins.end())
        {
            pinned = static_cast<int32_t>(it->second);
        }
    }
    if (pinned < 0)
    {
        return -1;
    }
    const auto& members = m_groups[group];
    bool isMember =
        std::find(members.begin(), members.end(), static_cast<uint32_t>(pinned)) != members.end();
    return isMember ? pinned : -1;
}

uint32_t
ClosEcmpRouting::ChooseMember(uint32_t group, const ClusterFiveTuple& tuple)
{
    const auto& members = m_groups[group];
    if (members.size() == 1)
    {
        return members.front();
    }
    int32_t pinned = PinnedMember(group, tuple);
    if (pinned >= 0)
    {
        return static_cast<uint32_t>(pinned);
    }
    if (m_mode == PER_PACKET_SPRAY)
    {
        // xorshift32 seeded from the salt: a random member per packet, reproducible from
        // the seed. (Round robin would lock synchronised flows onto fixed members.)
        m_sprayState ^= m_sprayState << 13;
        m_sprayState ^= m_sprayState >> 17;
        m_sprayState ^= m_sprayState << 5;
        return members[ClusterHashToIndex(m_sprayState, static_cast<uint32_t>(members.size()))];
    }
    uint32_t hash = ClusterHashFiveTuple(tuple, m_salt, m_algorithm);
    return members[ClusterHashToIndex(hash, static_cast<uint32_t>(members.size()))];
}

int32_t
ClosEcmpRouting::SelectInterface(const ClusterFiveTuple& tuple)
{
    NS_LOG_FUNCTION(this);
    int32_t group = LookupGroup(tuple.dstAddress);
    if (group < 0)
    {
        return -1;
    }
    return static_cast<int32_t>(ChooseMember(static_cast<uint32_t>(group), tuple));
}

Ptr<Ipv4Route>
ClosEcmpRouting::RouteVia(uint32_t interface)
{
    if (interface >= m_routes.size())
    {
        m_routes.resize(interface + 1);
    }
    Ptr<Ipv4Route>& route = m_routes[interface];
    if (!route)
    {
        route = Create<Ipv4Route>();
        route->SetOutputDevice(m_ipv4->GetNetDevice(interface));
        route->SetGateway(Ipv4Address::GetAny());
        route->SetSource(m_ipv4->GetAddress(interface, 0).GetLocal());
    }
    return route;
}

Ptr<Ipv4Route>
ClosEcmpRouting::RouteOutput(Ptr<Packet> p,
                             const Ipv4Header& header,
                             Ptr<NetDevice> oif,
                             Socket::SocketErrno& sockerr)
{
    NS_LOG_FUNCTION(this << header.GetDestination());
    ClusterFiveTuple tuple = ClosExtractFiveTuple(header, p);
    int32_t group = LookupGroup(tuple.dstAddress);
    if (group < 0)
    {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    sockerr = Socket::ERROR_NOTERROR;
    // Locally originated packets copy the route, since the caller may set its source.
    Ptr<Ipv4Route> shared = RouteVia(ChooseMember(static_cast<uint32_t>(group), tuple));
    Ptr<Ipv4Route> route = Create<Ipv4Route>(*shared);
    route->SetDestination(header.GetDestination());
    return route;
}

bool
ClosEcmpRouting::RouteInput(Ptr<const Packet> p,
                            const Ipv4Header& header,
                            Ptr<const NetDevice> idev,
                            UnicastForwardCallback ucb,
                            MulticastForwardCallback mcb,
                            LocalDeliverCallback lcb,
                            ErrorCallback ecb)
{
    NS_LOG_FUNCTION(this << p << header.GetDestination());
    const int32_t interface = ForwardInterface(header, p);
    if (interface >= 0)
    {
        ucb(RouteVia(static_cast<uint32_t>(interface)), p, header);
        return true;
    }
    if (IsLocal(header.GetDestination()))
    {
        if (!lcb.IsNull())
        {
            lcb(p, header, m_ipv4->GetInterfaceForDevice(idev));
            return true;
        }
        return false;
    }
    if (header.GetDestination().IsMulticast())
    {
        return false; // a fabric switch does not forward multicast
    }
    NS_LOG_LOGIC("no route to " << header.GetDestination());
    m_noRouteTrace(p, header);
    ecb(p, header, Socket::ERROR_NOROUTETOHOST);
    return true;
}

bool
ClosEcmpRouting::IsLocal(Ipv4Address destination) const
{
    // Most packets a switch sees are for GPUs, below the lowest own address (the range test
    // saves the hash lookup per packet).
    const uint32_t d = destination.Get();
    return (d >= m_localMin && d <= m_localMax && m_localAddresses.count(d) != 0) ||
           destination.IsBroadcast();
}

int32_t
ClosEcmpRouting::ForwardInterface(const Ipv4Header& header, Ptr<const Packet> payload)
{
    const Ipv4Address destination = header.GetDestination();
    if (IsLocal(destination) || destination.IsMulticast())
    {
        return -1;
    }
    const int32_t group = LookupGroup(destination.Get());
    if (group < 0)
    {
        return -1;
    }
    const ClusterFiveTuple tuple = ClosExtractFiveTuple(header, payload);
    return static_cast<int32_t>(ChooseMember(static_cast<uint32_t>(group), tuple));
}

void
ClosEcmpRouting::NotifyInterfaceUp(uint32_t interface)
{
    NS_LOG_FUNCTION(this << interface);
}

void
ClosEcmpRouting::NotifyInterfaceDown(uint32_t interface)
{
    NS_LOG_FUNCTION(this << interface);
}

void
ClosEcmpRouting::NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    NS_LOG_FUNCTION(this << interface << address);
    m_localAddresses.insert(address.GetLocal().Get());
    UpdateLocalRange();
    if (interface < m_routes.size())
    {
        m_routes[interface] = nullptr; // rebuilt with the new source address
    }
}

void
ClosEcmpRouting::NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    NS_LOG_FUNCTION(this << interface << address);
    m_localAddresses.erase(address.GetLocal().Get());
    UpdateLocalRange();
    if (interface < m_routes.size())
    {
        m_routes[interface] = nullptr;
    }
}

void
ClosEcmpRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    NS_LOG_FUNCTION(this << ipv4);
    m_ipv4 = ipv4;
    m_localAddresses.insert(Ipv4Address::GetLoopback().Get());
    UpdateLocalRange();
}

void
ClosEcmpRouting::UpdateLocalRange()
{
    m_localMin = UINT32_MAX;
    m_localMax = 0;
    for (uint32_t a : m_localAddresses)
    {
        m_localMin = std::min(m_localMin, a);
        m_localMax = std::max(m_localMax, a);
    }
}

void
ClosEcmpRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const
{
    std::ostream& os = *stream->GetStream();
    os << "ClosEcmpRouting salt=" << m_salt
       << " mode=" << (m_mode == PER_FLOW_ECMP ? "PerFlowEcmp" : "PerPacketSpray") << "\n";
    for (const auto& table : m_tables)
    {
        std::vector<std::pair<uint32_t, uint32_t>> sorted(table.groups.begin(), table.groups.end());
        std::sort(sorted.begin(), sorted.end());
        for (const auto& [network, group] : sorted)
        {
            os << Ipv4Address(network) << "/" << static_cast<int>(table.length) << " ->";
            if (group == UNREACHABLE)
            {
                os << " unreachable\n";
                continue;
            }
            for (uint32_t interface : m_groups[group])
            {
                os << " if" << interface;
            }
            os << "\n";
        }
    }
    os << "pins: " << m_srcPins.size() << " by source, " << m_pairPins.size() << " by pair\n";
}

} // namespace ns3
