/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_HELPER_H
#define PFC_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-switch-buffer.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

/**
 * \ingroup pfc
 * \brief Builds lossless Ethernet links of PfcNetDevice / PfcChannel, and the
 *        switch buffers whose ports they are, as PointToPointHelper does for p2p links.
 *
 * Call InstallSwitchBuffer on a switch before its links: Install makes every new device on a
 * node with a PfcSwitchBuffer one of its ports. Devices get no queue disc (the device
 * holds the queues so that it can pause them). Bad attribute combinations make Install and
 * InstallSwitchBuffer's ports throw std::invalid_argument with one line.
 */
class PfcHelper : public PcapHelperForDevice
{
  public:
    PfcHelper();

    /**
     * \brief Set an attribute of every device Install creates.
     * \param name the attribute
     * \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every channel Install creates.
     * \param name the attribute
     * \param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every switch buffer InstallSwitchBuffer creates.
     * \param name the attribute
     * \param value its value
     */
    void SetBufferAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Give a switch its shared buffer (aggregated to the node).
     * \param node the switch
     * \return the buffer
     */
    Ptr<PfcSwitchBuffer> InstallSwitchBuffer(Ptr<Node> node) const;

    /**
     * \brief Connect two nodes with a new cable.
     * \param a one end
     * \param b the other end
     * \return the devices, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    ObjectFactory m_deviceFactory;  //!< devices
    ObjectFactory m_channelFactory; //!< channels
    ObjectFactory m_bufferFactory;  //!< switch buffers
};

} // namespace ns3

#endif /* PFC_HELPER_H */
