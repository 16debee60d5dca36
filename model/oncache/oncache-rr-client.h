/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_RR_CLIENT_H
#define ONCACHE_RR_CLIENT_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup oncache
 * Default application CPU time per transaction of the RR client and server (ProcessingTime),
 * in ns; fitted to the paper's CPU per transaction (doc: calibration table).
 */
constexpr int64_t ONCACHE_RR_PROCESSING_NS = 3280;

/**
 * \ingroup oncache
 * \brief A netperf-like closed-loop request/response client: TCP_RR, UDP_RR, and TCP_CRR (a
 *        new connection per transaction), with configurable request and response sizes (so it
 *        also serves as a memcached-like key-value request generator).
 *
 * It sends one request, waits for the whole response, records the transaction and sends the
 * next. It pairs with OncacheRrServer.
 *
 * UDP has no retransmission, so a lost request or response would stall the loop for good. Like
 * sockperf's ping-pong, the UDP client counts a transaction as lost when no full response
 * arrived within the UdpTimeout attribute and moves on to the next request (no retransmission,
 * no latency sample). It sends the next request from a new socket (a new source port), so a
 * response that arrives after its timeout is not mistaken for the next one.
 */
class OncacheRrClient : public Application
{
  public:
    /**
     * \brief Signature of the Transaction trace source.
     * \param latency the time from the request's first byte sent to the response's last
     *        byte received (including the connection set-up in CRR mode)
     */
    typedef void (*TransactionTracedCallback)(Time latency);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheRrClient();

    /// \return the transactions completed so far
    uint64_t GetTransactions() const;

    /// \return the UDP transactions given up after UdpTimeout (always 0 for TCP)
    uint64_t GetLostTransactions() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Open a socket and connect it (TCP) or send the first request (UDP).
    void Open();

    /// Send one request.
    void SendRequest();

    /**
     * \param socket the connected socket
     */
    void Connected(Ptr<Socket> socket);

    /**
     * \param socket the socket that failed to connect
     */
    void ConnectFailed(Ptr<Socket> socket);

    /**
     * \param socket the socket with data to read
     */
    void Receive(Ptr<Socket> socket);

    /// After the client's processing: the next transaction (or connection).
    void Next();

    /// UDP: no full response within UdpTimeout; count the loss and send the next request.
    void Timeout();

    Address m_remote;                        //!< server address
    TypeId m_protocol;                       //!< socket factory
    uint32_t m_requestSize;                  //!< request bytes
    uint32_t m_responseSize;                 //!< response bytes
    bool m_connectPerTransaction;            //!< TCP_CRR
    uint64_t m_maxTransactions;              //!< stop after this many (0: never)
    Time m_processingTime;                   //!< application CPU time per transaction
    Ptr<Socket> m_socket;                    //!< current socket
    uint32_t m_received;                     //!< response bytes received so far
    Time m_start;                            //!< start of the current transaction
    uint64_t m_transactions;                 //!< completed transactions
    bool m_running;                          //!< between start and stop
    Time m_udpTimeout;                       //!< UDP loss timeout (0: wait for ever)
    EventId m_timeoutEvent;                  //!< pending UDP loss timeout
    uint64_t m_lost;                         //!< UDP transactions given up
    TracedCallback<Time> m_transactionTrace; //!< completed transactions
};

} // namespace ns3

#endif /* ONCACHE_RR_CLIENT_H */
