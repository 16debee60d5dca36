/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-policy.h"

#include "oncache-check.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncachePolicy");

NS_OBJECT_ENSURE_REGISTERED(OncachePolicy);

bool
OncachePolicyRule::Matches(const OncacheFlowKey& flow) const
{
    return srcMask.IsMatch(srcAddress, Ipv4Address(flow.srcAddress)) &&
           dstMask.IsMatch(dstAddress, Ipv4Address(flow.dstAddress)) &&
           (srcPort == 0 || srcPort == flow.srcPort) && (dstPort == 0 || dstPort == flow.dstPort) &&
           (protocol == 0 || protocol == flow.protocol);
}

bool
OncachePolicyRule::MatchesEitherWay(const OncacheFlowKey& flow) const
{
    return Matches(flow) || Matches(flow.Reversed());
}

TypeId
OncachePolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncachePolicy")
            .SetParent<Object>()
            .SetGroupName("Oncache")
            .AddConstructor<OncachePolicy>()
            .AddAttribute("DefaultAllow",
                          "The verdict for a packet that matches no rule: true allows it.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&OncachePolicy::SetDefaultAllow,
                                              &OncachePolicy::GetDefaultAllow),
                          MakeBooleanChecker())
            .AddTraceSource("Changed",
                            "The policy changed; the argument matches every flow whose verdict "
                            "may have changed.",
                            MakeTraceSourceAccessor(&OncachePolicy::m_changedTrace),
                            "ns3::OncachePolicy::ChangedTracedCallback");
    return tid;
}

OncachePolicy::OncachePolicy()
    : m_defaultAllow(true)
{
    NS_LOG_FUNCTION(this);
}

void
OncachePolicy::InsertRule(const OncachePolicyRule& rule, std::size_t position)
{
    NS_LOG_FUNCTION(this << position);
    ONCACHE_REQUIRE(position <= m_rules.size(),
                    std::out_of_range,
                    "policy rule position " << position << " is past the " << m_rules.size()
                                            << " rules");
    m_rules.insert(m_rules.begin() + position, rule);
    m_changedTrace(rule);
}

const std::vector<OncachePolicyRule>&
OncachePolicy::GetRules() const
{
    return m_rules;
}

void
OncachePolicy::Clear()
{
    NS_LOG_FUNCTION(this);
    if (!m_rules.empty())
    {
        m_rules.clear();
        m_changedTrace(OncachePolicyRule()); // any flow a removed rule matched
    }
}

void
OncachePolicy::SetDefaultAllow(bool allow)
{
    NS_LOG_FUNCTION(this << allow);
    if (allow != m_defaultAllow)
    {
        m_defaultAllow = allow;
        m_changedTrace(OncachePolicyRule()); // any flow no rule matches
    }
}

bool
OncachePolicy::GetDefaultAllow() const
{
    return m_defaultAllow;
}

bool
OncachePolicy::IsAllowed(const OncacheFlowKey& flow) const
{
    for (const auto& rule : m_rules)
    {
        if (rule.Matches(flow))
        {
            return rule.allow;
        }
    }
    return m_defaultAllow;
}

} // namespace ns3
