/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_POLICY_H
#define ONCACHE_POLICY_H

#include "oncache-flow-key.h"

#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief One network-policy rule: a 5-tuple pattern (prefixes, ports, protocol; 0 = any) and
 *        a verdict.
 */
struct OncachePolicyRule
{
    Ipv4Address srcAddress = Ipv4Address::GetAny(); //!< source prefix
    Ipv4Mask srcMask = Ipv4Mask::GetZero();         //!< source prefix mask
    Ipv4Address dstAddress = Ipv4Address::GetAny(); //!< destination prefix
    Ipv4Mask dstMask = Ipv4Mask::GetZero();         //!< destination prefix mask
    uint16_t srcPort = 0;                           //!< source port, 0 = any
    uint16_t dstPort = 0;                           //!< destination port, 0 = any
    uint8_t protocol = 0;                           //!< IP protocol, 0 = any
    bool allow = true;                              //!< verdict

    /**
     * \param flow a source/destination oriented flow
     * \return true when the rule matches the flow
     */
    bool Matches(const OncacheFlowKey& flow) const;

    /**
     * \param flow a flow, in either orientation
     * \return true when the rule matches the flow or its reverse
     */
    bool MatchesEitherWay(const OncacheFlowKey& flow) const;
};

/**
 * \ingroup oncache
 * \brief The cluster's network policy, evaluated by the fallback overlay on both hosts of
 *        every packet it handles: the first matching rule wins, else the default verdict.
 *
 * The fast path never consults it. Every change (InsertRule, Clear, the DefaultAllow
 * Attribute) fires the Changed trace source with a pattern that matches every flow whose
 * verdict may have changed; each OncacheHostDatapath that reads the policy listens to it and
 * deletes the matching filter-cache entries, so the next packet of such a flow takes the
 * fallback and meets the new verdict.
 */
class OncachePolicy : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncachePolicy();

    /**
     * \brief Signature of the Changed trace source.
     * \param scope a pattern (its verdict unused) that matches, in either direction, every
     *        flow whose verdict may have changed: the inserted rule, or a rule that matches
     *        everything when every verdict may have changed (Clear, DefaultAllow)
     */
    typedef void (*ChangedTracedCallback)(const OncachePolicyRule& scope);

    /**
     * \brief Insert a rule.
     * \param rule the rule
     * \param position its index (0 = highest priority); at most the number of rules
     * \throws std::out_of_range for a position past the end
     */
    void InsertRule(const OncachePolicyRule& rule, std::size_t position);

    /// \return the rules, highest priority first
    const std::vector<OncachePolicyRule>& GetRules() const;

    /// Remove every rule.
    void Clear();

    /**
     * \param allow the verdict when no rule matches (the DefaultAllow Attribute)
     */
    void SetDefaultAllow(bool allow);

    /// \return the verdict when no rule matches
    bool GetDefaultAllow() const;

    /**
     * \param flow a source/destination oriented flow
     * \return true when the policy allows it
     */
    bool IsAllowed(const OncacheFlowKey& flow) const;

  private:
    std::vector<OncachePolicyRule> m_rules;                  //!< highest priority first
    bool m_defaultAllow;                                     //!< verdict when no rule matches
    TracedCallback<const OncachePolicyRule&> m_changedTrace; //!< fired on every change
};

} // namespace ns3

#endif /* ONCACHE_POLICY_H */
