/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_UDP_STREAM_SERVER_H
#define ONCACHE_UDP_STREAM_SERVER_H

#include "ns3/application.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <set>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief The receiver of OncacheUdpStreamClient (iperf3 -s for UDP): counts the bytes received,
 *        and answers the first datagram of each sender, as iperf3 answers its UDP connect
 *        message (which also lets conntrack see the flow as established).
 */
class OncacheUdpStreamServer : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheUdpStreamServer();

    /// \return the payload bytes received so far
    uint64_t GetTotalRx() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /**
     * \param socket the socket with datagrams to read
     */
    void Receive(Ptr<Socket> socket);

    uint16_t m_port;                                 //!< listening port
    Ptr<Socket> m_socket;                            //!< UDP socket
    std::set<std::pair<uint32_t, uint16_t>> m_peers; //!< senders already answered
    uint64_t m_totalRx;                              //!< payload bytes received
    TracedCallback<Ptr<const Packet>> m_rxTrace;     //!< received datagrams
};

} // namespace ns3

#endif /* ONCACHE_UDP_STREAM_SERVER_H */
