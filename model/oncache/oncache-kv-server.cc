/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-kv-server.h"

#include "oncache-host-datapath.h"
#include "oncache-kv-client.h"
#include "oncache-limits.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheKvServer");

NS_OBJECT_ENSURE_REGISTERED(OncacheKvServer);

TypeId
OncacheKvServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheKvServer")
            .SetParent<Application>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheKvServer>()
            .AddAttribute("Port",
                          "The TCP port to listen on.",
                          UintegerValue(11211),
                          MakeUintegerAccessor(&OncacheKvServer::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("RequestSize",
                          "The bytes of one request; must match the clients' RequestSize.",
                          UintegerValue(100),
                          MakeUintegerAccessor(&OncacheKvServer::m_requestSize),
                          MakeUintegerChecker<uint32_t>(OncacheKvClient::HEADER_BYTES))
            .AddAttribute("ProcessingTime",
                          "The server's own CPU time per request (parse, hash lookup, response "
                          "build), on its pod's application core before the response is sent.",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&OncacheKvServer::m_processingTime),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()));
    return tid;
}

OncacheKvServer::OncacheKvServer()
    : m_port(11211),
      m_requestSize(100),
      m_processingTime(MicroSeconds(2)),
      m_responses(0)
{
    NS_LOG_FUNCTION(this);
}

void
OncacheKvServer::DoDispose()
{
    m_listener = nullptr;
    m_partial.clear();
    m_unsent.clear();
    Application::DoDispose();
}

uint64_t
OncacheKvServer::GetResponses() const
{
    return m_responses;
}

void
OncacheKvServer::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    m_listener->SetAttribute("TcpNoDelay", BooleanValue(true));
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&OncacheKvServer::Accept, this));
}

void
OncacheKvServer::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& [socket, partial] : m_partial)
    {
        socket->Close();
    }
    m_partial.clear();
    m_unsent.clear();
    if (m_listener)
    {
        m_listener->Close();
    }
}

void
OncacheKvServer::Accept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    m_partial[socket].clear();
    m_unsent[socket] = 0;
    socket->SetRecvCallback(MakeCallback(&OncacheKvServer::Receive, this));
    socket->SetSendCallback(MakeCallback(&OncacheKvServer::Flush, this));
    socket->SetCloseCallbacks(MakeCallback(&OncacheKvServer::PeerClosed, this),
                              MakeCallback(&OncacheKvServer::PeerClosed, this));
}

void
OncacheKvServer::PeerClosed(Ptr<Socket> socket)
{
    socket->Close();
    m_partial.erase(socket);
    m_unsent.erase(socket);
}

void
OncacheKvServer::Receive(Ptr<Socket> socket)
{
    std::vector<uint8_t>& partial = m_partial[socket];
    while (Ptr<Packet> packet = socket->Recv())
    {
        std::size_t old = partial.size();
        partial.resize(old + packet->GetSize());
        packet->CopyData(partial.data() + old, packet->GetSize());
        std::size_t offset = 0;
        while (partial.size() - offset >= m_requestSize)
        {
            uint32_t response = 0;
            for (uint32_t i = 0; i < OncacheKvClient::HEADER_BYTES; ++i)
            {
                response |= static_cast<uint32_t>(partial[offset + i]) << (8 * i);
            }
            offset += m_requestSize;
            Ptr<OncacheKvServer> self = this;
            OncacheHostDatapath::RunOnAppCore(GetNode(),
                                              m_processingTime,
                                              [self, socket, response]() {
                                                  auto unsent = self->m_unsent.find(socket);
                                                  if (unsent != self->m_unsent.end())
                                                  {
                                                      unsent->second += response;
                                                      self->Flush(socket, 0);
                                                  }
                                                  ++self->m_responses;
                                              });
        }
        partial.erase(partial.begin(), partial.begin() + offset);
    }
}

void
OncacheKvServer::Flush(Ptr<Socket> socket, uint32_t /* available */)
{
    auto unsent = m_unsent.find(socket);
    while (unsent != m_unsent.end() && unsent->second > 0 && socket->GetTxAvailable() > 0)
    {
        const uint32_t bytes =
            static_cast<uint32_t>(std::min<uint64_t>(unsent->second, socket->GetTxAvailable()));
        if (socket->Send(Create<Packet>(bytes)) < 0)
        {
            return; // closed: nothing more goes out
        }
        unsent->second -= bytes;
    }
}

} // namespace ns3
