/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_VETH_NET_DEVICE_H
#define ONCACHE_VETH_NET_DEVICE_H

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup oncache
 * \brief One end of a virtual Ethernet pair joining a pod's network namespace (a Node with its
 *        own TCP/IP stack) to its host.
 *
 * A frame sent on one end is received on the other end at once: a veth costs CPU time, not
 * wire time, and that time is charged by the host's OncacheHostDatapath on its CPU model.
 * Frames carry IPv4 packets; the MAC addresses are logical (the device needs no ARP).
 */
class OncacheVethNetDevice : public NetDevice
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheVethNetDevice();

    /**
     * \brief Connect (or, with a null peer, disconnect) the other end. Does not touch the peer.
     * \param peer the other end
     */
    void SetPeer(const Ptr<OncacheVethNetDevice>& peer);

    /// \return the other end, null when disconnected
    Ptr<OncacheVethNetDevice> GetPeer() const;

    /**
     * \brief Connect two devices as a veth pair.
     * \param a one end
     * \param b the other end
     */
    static void Connect(const Ptr<OncacheVethNetDevice>& a, const Ptr<OncacheVethNetDevice>& b);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Deliver a frame sent by the peer.
     * \param packet the packet (IPv4 header first)
     * \param protocol the EtherType
     * \param from the sender's MAC
     * \param to the destination MAC
     */
    void Receive(Ptr<Packet> packet, uint16_t protocol, const Address& from, const Address& to);

    Ptr<Node> m_node;                                    //!< owner
    Ptr<OncacheVethNetDevice> m_peer;                    //!< other end
    Mac48Address m_address;                              //!< MAC
    uint32_t m_ifIndex;                                  //!< interface index
    uint16_t m_mtu;                                      //!< MTU (IP bytes)
    NetDevice::ReceiveCallback m_rxCallback;             //!< to the node
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< to promiscuous handlers
    TracedCallback<Ptr<const Packet>> m_macTxTrace;      //!< frames sent
    TracedCallback<Ptr<const Packet>> m_macRxTrace;      //!< frames received
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;  //!< frames sent while disconnected
};

} // namespace ns3

#endif /* ONCACHE_VETH_NET_DEVICE_H */
