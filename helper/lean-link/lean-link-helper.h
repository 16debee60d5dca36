/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAN_LINK_HELPER_H
#define LEAN_LINK_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/queue.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

/**
 * \ingroup lean-link
 * \brief Builds LeanLinkNetDevice pairs on a LeanLinkChannel the way PointToPointHelper
 *        builds PointToPointNetDevice pairs: same order of creation, a MAC address each, a
 *        device queue (ns3::DropTailQueue<Packet> unless SetQueue says otherwise) and a
 *        NetDeviceQueueInterface whose queue follows the device queue (flow control for the
 *        traffic-control layer). Pcap files are DLT_PPP, from the PromiscSniffer source.
 */
class LeanLinkHelper : public PcapHelperForDevice
{
  public:
    LeanLinkHelper();
    ~LeanLinkHelper() override = default;

    /**
     * \brief Set the device queue type and its attributes.
     * \param type a Queue<Packet> type name ("ns3::DropTailQueue" is completed to
     *        "ns3::DropTailQueue<Packet>")
     * \param args attribute name, value pairs
     */
    template <typename... Ts>
    void SetQueue(std::string type, Ts&&... args)
    {
        QueueBase::AppendItemTypeIfNotPresent(type, "Packet");
        m_queueFactory.SetTypeId(type);
        m_queueFactory.Set(std::forward<Ts>(args)...);
    }

    /**
     * \param name an attribute of ns3::LeanLinkNetDevice
     * \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param name an attribute of ns3::LeanLinkChannel
     * \param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Connect two nodes.
     * \param a one end
     * \param b the other end
     * \return the devices on a and b, in that order
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    ObjectFactory m_queueFactory;   //!< device queues
    ObjectFactory m_deviceFactory;  //!< devices
    ObjectFactory m_channelFactory; //!< channels
};

} // namespace ns3

#endif // LEAN_LINK_HELPER_H
