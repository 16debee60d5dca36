/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_UDP_STREAM_CLIENT_H
#define ONCACHE_UDP_STREAM_CLIENT_H

#include "oncache-flow-key.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/socket.h"

namespace ns3
{

/**
 * \ingroup oncache
 * \brief An iperf3 -u -b 0 like sender: sends UDP datagrams as fast as its CPU allows.
 *
 * As iperf3, it first sends a small connect message and starts the stream when
 * OncacheUdpStreamServer answers (so conntrack sees a reply). A real sender blocks in sendto()
 * while the kernel runs the egress path on its core. Here the application keeps Window datagrams in
 * the pod's egress path: it sends the next one each time the host's data path reports, through its
 * EgressDone trace source, that one of its datagrams finished egress processing.
 * OncacheUdpStreamHelper makes that connection.
 */
class OncacheUdpStreamClient : public Application
{
  public:
    /**
     * The UDP super-datagram payload (UDP GSO/GRO batch) the micro-benchmark streams with;
     * fitted to CS244's bare-metal 1-flow UDP throughput (doc: calibration table). Needs
     * SuperSegmentBytes on the topology helper.
     */
    static constexpr uint32_t GSO_SIZE = 8740;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheUdpStreamClient();

    /**
     * \brief EgressDone sink: one of the pod's packets left the application core.
     * \param host the host index
     * \param flow the packet's flow
     */
    void EgressDone(uint32_t host, const OncacheFlowKey& flow);

    /**
     * \brief TxComplete sink: one of the pod's packets was freed by the host (its send-buffer
     *        space returns to the socket).
     * \param host the host index
     * \param flow the packet's flow
     */
    void TxComplete(uint32_t host, const OncacheFlowKey& flow);

    /// \return the datagrams sent so far
    uint64_t GetSent() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Send datagrams while the window and the send buffer allow.
    void TrySend();

    /**
     * \param flow a flow seen by the host's data path
     * \return true when it is this client's (its address and port)
     */
    bool IsMine(const OncacheFlowKey& flow) const;

    /**
     * \param socket the socket with the server's connect reply
     */
    void Receive(Ptr<Socket> socket);

    Address m_remote;           //!< receiver address
    uint32_t m_packetSize;      //!< datagram payload bytes
    uint32_t m_window;          //!< datagrams in the egress path at once
    Ptr<Socket> m_socket;       //!< UDP socket
    uint16_t m_localPort;       //!< bound port (to recognise its own datagrams)
    Ipv4Address m_localAddress; //!< the pod's address (to recognise its own datagrams)
    uint32_t m_inFlight;        //!< datagrams in the egress path
    uint32_t m_sendBuffer;      //!< send-buffer bytes (SO_SNDBUF)
    uint64_t m_unfreed;         //!< bytes sent and not yet freed by the host
    uint64_t m_sent;            //!< datagrams sent
    bool m_running;             //!< between start and stop
    bool m_connected;           //!< the server answered the connect message
};

} // namespace ns3

#endif /* ONCACHE_UDP_STREAM_CLIENT_H */
