/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_KV_SERVER_H
#define ONCACHE_KV_SERVER_H

#include "ns3/application.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief A memcached-like key-value server for OncacheKvClient.
 *
 * Reads fixed-size requests (RequestSize, as the client's) from each TCP connection; every
 * request names its response size in its first bytes. Each request costs ProcessingTime
 * (memcached's own CPU: parse, hash lookup, response build) on the pod's application core
 * before its response is sent. A response larger than the free TCP send buffer goes out in
 * pieces as the buffer drains, as a non-blocking memcached writes it.
 */
class OncacheKvServer : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheKvServer();

    /// \return the requests answered
    uint64_t GetResponses() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /**
     * \param socket the new connection
     * \param from the client
     */
    void Accept(Ptr<Socket> socket, const Address& from);

    /**
     * \param socket a connection with request bytes
     */
    void Receive(Ptr<Socket> socket);

    /**
     * \brief Send as much of a connection's unsent response bytes as its send buffer takes
     *        (also its send callback).
     * \param socket the connection
     * \param available the free send-buffer bytes (unused: read from the socket)
     */
    void Flush(Ptr<Socket> socket, uint32_t available);

    /**
     * \param socket a closed connection
     */
    void PeerClosed(Ptr<Socket> socket);

    uint16_t m_port;                                       //!< listening port
    uint32_t m_requestSize;                                //!< request bytes
    Time m_processingTime;                                 //!< CPU per request
    Ptr<Socket> m_listener;                                //!< listening socket
    std::map<Ptr<Socket>, std::vector<uint8_t>> m_partial; //!< connection -> partial request
    std::map<Ptr<Socket>, uint64_t> m_unsent;              //!< connection -> unsent bytes
    uint64_t m_responses;                                  //!< answered requests
};

} // namespace ns3

#endif /* ONCACHE_KV_SERVER_H */
