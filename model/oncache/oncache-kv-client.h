/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_KV_CLIENT_H
#define ONCACHE_KV_CLIENT_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief A closed-loop memcached-like key-value client (memtier/mutilate style).
 *
 * Concurrency TCP connections to an OncacheKvServer each keep one request outstanding: a GET
 * request of RequestSize bytes that names the value size it wants (drawn from ValueSize), then
 * the response (value plus ResponseOverhead bytes of "VALUE ... END" framing), then
 * ProcessingTime of the client's own CPU on its pod's application core, then the next request.
 * Every completed request fires the Transaction trace with its latency and value size.
 */
class OncacheKvClient : public Application
{
  public:
    /**
     * \brief Signature of the Transaction trace source.
     * \param latency from sending the request to receiving the whole response
     * \param valueBytes the value size of the request
     */
    typedef void (*TransactionTracedCallback)(Time latency, uint32_t valueBytes);

    /// Bytes at the start of a request that carry the wanted response size.
    static constexpr uint32_t HEADER_BYTES = 4;

    /// The largest value size: a ValueSize draw above it is cut to it.
    static constexpr uint32_t MAX_VALUE_BYTES = 16 * 1024 * 1024;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheKvClient();

    /// \return the completed requests
    uint64_t GetTransactions() const;

    /**
     * \brief Assign fixed random variable stream numbers.
     * \param stream first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /// One connection.
    struct Connection
    {
        Ptr<Socket> socket;      //!< TCP socket
        uint32_t expected = 0;   //!< response bytes of the outstanding request
        uint32_t received = 0;   //!< response bytes received
        uint32_t valueBytes = 0; //!< value size of the outstanding request
        Time start;              //!< when the request was sent
        bool connected = false;  //!< connection established
    };

    void StartApplication() override;
    void StopApplication() override;

    /**
     * \brief Send the next request on a connection.
     * \param index the connection
     */
    void SendRequest(std::size_t index);

    /**
     * \param socket a connected socket
     */
    void Connected(Ptr<Socket> socket);

    /**
     * \param socket a socket whose connection failed
     */
    void ConnectFailed(Ptr<Socket> socket);

    /**
     * \param socket a socket with response bytes
     */
    void Receive(Ptr<Socket> socket);

    /**
     * \param socket a socket
     * \return its connection index
     */
    std::size_t Find(Ptr<Socket> socket) const;

    Address m_remote;                                  //!< server address
    uint32_t m_concurrency;                            //!< connections
    uint32_t m_requestSize;                            //!< request bytes
    uint32_t m_responseOverhead;                       //!< response framing bytes
    Ptr<RandomVariableStream> m_valueSize;             //!< value sizes
    Time m_processingTime;                             //!< client CPU per request
    uint64_t m_maxTransactions;                        //!< stop after this many (0: never)
    std::vector<Connection> m_connections;             //!< the connections
    uint64_t m_transactions;                           //!< completed requests
    uint64_t m_sent;                                   //!< requests sent
    bool m_running;                                    //!< between start and stop
    TracedCallback<Time, uint32_t> m_transactionTrace; //!< completed requests
};

} // namespace ns3

#endif /* ONCACHE_KV_CLIENT_H */
