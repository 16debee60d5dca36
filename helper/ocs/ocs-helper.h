/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef OCS_HELPER_H
#define OCS_HELPER_H

#include "ns3/attribute.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/ocs-switch.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ocs
 * \brief Builds a OcsSwitch with one new PointToPointNetDevice per given node, and lets the
 * nodes' IPv4 interfaces follow its circuits.
 */
class OcsHelper
{
  public:
    /// Devices ns3::PointToPointNetDevice with a ns3::DropTailQueue<Packet>; the switch
    /// ns3::OcsSwitch with its default attributes.
    OcsHelper();

    /**
     * \param name an attribute of ns3::PointToPointNetDevice (DataRate, Mtu, ...)
     * \param value its value for the devices Install() creates
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param name an attribute of the devices' ns3::DropTailQueue<Packet> (MaxSize)
     * \param value its value
     */
    void SetQueueAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param name an attribute of ns3::OcsSwitch (Delay, ReconfigurationTime)
     * \param value its value for the switches Install() creates
     */
    void SetOcsAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Creates a switch with one port per node: port i holds a new device on nodes[i].
     * No circuit is up. Like PointToPointHelper, the devices get a new MAC address, a queue
     * and a NetDeviceQueueInterface (so traffic control can be installed on them).
     * \param nodes the nodes, in port order (a node may appear more than once)
     * \return the switch
     */
    Ptr<OcsSwitch> Install(const NodeContainer& nodes) const;

    /// \param ocs a switch \return its devices in port order
    static NetDeviceContainer GetDevices(Ptr<OcsSwitch> ocs);

    /**
     * \brief Makes the IPv4 interfaces of the switch's devices follow its circuits: an
     * interface is up exactly while its port is in an up circuit. It is taken down when its
     * circuit is torn down, before any dark time starts, and up when a circuit comes up, so
     * routing that honours interface state (e.g. Ipv4StaticRouting) stops using a port before
     * it goes dark. Call it after addresses are assigned: ports without an up circuit are taken
     * down at once. Devices whose node has no IPv4 (or no interface for them) are skipped.
     * \param ocs the switch
     */
    static void FollowCircuits(Ptr<OcsSwitch> ocs);

  private:
    /// Sets the IPv4 interface of one port up or down (if it has one).
    static void SetInterface(const OcsSwitch* ocs, uint32_t port, bool up);
    /// CircuitUp / CircuitDown sink: sets both ports' interfaces.
    static void OnCircuit(const OcsSwitch* ocs, bool up, uint32_t a, uint32_t b);

    ObjectFactory m_deviceFactory; //!< devices
    ObjectFactory m_queueFactory;  //!< device queues
    ObjectFactory m_ocsFactory;    //!< switches
};

} // namespace ns3

#endif /* OCS_HELPER_H */
