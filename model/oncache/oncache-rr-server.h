/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_RR_SERVER_H
#define ONCACHE_RR_SERVER_H

#include "ns3/application.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"

#include <list>
#include <map>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief The server of OncacheRrClient: answers every RequestSize bytes received (TCP, per
 *        connection) or every datagram (UDP) with ResponseSize bytes.
 */
class OncacheRrServer : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheRrServer();

    /// \return the requests answered so far
    uint64_t GetResponses() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /**
     * \param socket a new TCP connection
     * \param from its peer
     */
    void Accept(Ptr<Socket> socket, const Address& from);

    /**
     * \param socket a socket with data to read
     */
    void Receive(Ptr<Socket> socket);

    /**
     * \param socket a TCP connection closed by the peer
     */
    void PeerClosed(Ptr<Socket> socket);

    uint16_t m_port;                           //!< listening port
    TypeId m_protocol;                         //!< socket factory
    uint32_t m_requestSize;                    //!< request bytes (TCP)
    uint32_t m_responseSize;                   //!< response bytes
    Time m_processingTime;                     //!< application CPU time per request
    Ptr<Socket> m_listener;                    //!< listening socket
    std::map<Ptr<Socket>, uint32_t> m_pending; //!< TCP connection -> unanswered bytes
    uint64_t m_responses;                      //!< answered requests
};

} // namespace ns3

#endif /* ONCACHE_RR_SERVER_H */
