/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_HELPER_H
#define ROCE_HELPER_H

#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/roce-nic.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup roce
 * \brief Installs a RoceNic (RoCEv2 queue pairs over UDP port 4791) on nodes that have
 *        the Internet stack and an IPv4 address.
 */
class RoceHelper
{
  public:
    RoceHelper();

    /**
     * \brief Set an attribute of every NIC installed from now on.
     * \param name the attribute of ns3::RoceNic
     * \param value its value
     */
    void SetNicAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Aggregate a started NIC to each node. Bad attributes throw
     *        std::invalid_argument with one line, before any node is touched.
     * \param nodes the nodes
     * \return the NICs, in node order
     */
    std::vector<Ptr<RoceNic>> Install(const NodeContainer& nodes) const;

  private:
    ObjectFactory m_factory; //!< NIC factory
};

} // namespace ns3

#endif /* ROCE_HELPER_H */
