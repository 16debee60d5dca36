/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLOS_ECMP_ROUTING_HELPER_H
#define CLOS_ECMP_ROUTING_HELPER_H

#include "ns3/ipv4-routing-helper.h"
#include "ns3/object-factory.h"

namespace ns3
{

/**
 * \ingroup clos
 * \brief Creates ClosEcmpRouting on switches, for InternetStackHelper::SetRoutingHelper.
 */
class ClosEcmpRoutingHelper : public Ipv4RoutingHelper
{
  public:
    ClosEcmpRoutingHelper();

    /// \return a copy of this helper (called by InternetStackHelper)
    ClosEcmpRoutingHelper* Copy() const override;

    /**
     * \param node the node to route for
     * \return a new ClosEcmpRouting with this helper's attributes
     */
    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node> node) const override;

    /**
     * \brief Set an attribute of the routing objects created from now on.
     * \param name attribute name
     * \param value attribute value
     */
    void Set(const std::string& name, const AttributeValue& value);

  private:
    ObjectFactory m_factory; //!< makes ClosEcmpRouting
};

} // namespace ns3

#endif /* CLOS_ECMP_ROUTING_HELPER_H */
