/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ocs-switch.h"

#include "ocs-port-channel.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OcsSwitch");

NS_OBJECT_ENSURE_REGISTERED(OcsSwitch);

TypeId
OcsSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OcsSwitch")
            .SetParent<Object>()
            .SetGroupName("Ocs")
            .AddConstructor<OcsSwitch>()
            .AddAttribute("Delay",
                          "Propagation delay of one hop between a device and the switch. A "
                          "frame through a circuit crosses two hops. A new value applies to "
                          "frames sent after it is set.",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&OcsSwitch::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ReconfigurationTime",
                          "Dark time of a circuit set-up: from the request until the circuit "
                          "carries frames, both of its ports drop what reaches them. A new "
                          "value applies to requests made after it is set.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&OcsSwitch::m_reconfigurationTime),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("CircuitUp",
                            "A circuit came up (its dark time is over): its two ports.",
                            MakeTraceSourceAccessor(&OcsSwitch::m_circuitUpTrace),
                            "ns3::OcsSwitch::CircuitTracedCallback")
            .AddTraceSource("CircuitDown",
                            "A circuit was torn down (before any dark time of the request "
                            "that tore it down): its two ports.",
                            MakeTraceSourceAccessor(&OcsSwitch::m_circuitDownTrace),
                            "ns3::OcsSwitch::CircuitTracedCallback")
            .AddTraceSource("Drop",
                            "A frame was dropped at the switch: the frame, its input port and "
                            "the reason.",
                            MakeTraceSourceAccessor(&OcsSwitch::m_dropTrace),
                            "ns3::OcsSwitch::DropTracedCallback")
            .AddTraceSource("Forward",
                            "A frame passed through a circuit: the frame, its input and "
                            "output ports.",
                            MakeTraceSourceAccessor(&OcsSwitch::m_forwardTrace),
                            "ns3::OcsSwitch::ForwardTracedCallback");
    return tid;
}

OcsSwitch::OcsSwitch()
{
    NS_LOG_FUNCTION(this);
}

OcsSwitch::~OcsSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
OcsSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& port : m_ports)
    {
        port.upEvent.Cancel();
        port.channel = nullptr;
        port.device = nullptr;
    }
    m_ports.clear();
    Object::DoDispose();
}

uint32_t
OcsSwitch::AddPort(Ptr<PointToPointNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(!device, "OcsSwitch::AddPort: no device given");
    NS_ABORT_MSG_IF(device->GetChannel(),
                    "OcsSwitch::AddPort: the device is already attached to a channel");
    NS_ABORT_MSG_IF(!device->GetNode(), "OcsSwitch::AddPort: the device is on no node");
    NS_ABORT_MSG_IF(m_ports.size() >= NO_PORT, "OcsSwitch::AddPort: too many ports");
    auto number = static_cast<uint32_t>(m_ports.size());
    Port port;
    port.channel = CreateObject<OcsPortChannel>();
    port.channel->SetOcs(this, number);
    port.device = device;
    port.lastChange = Simulator::Now();
    m_ports.push_back(port);
    device->Attach(port.channel);
    return number;
}

uint32_t
OcsSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<PointToPointNetDevice>
OcsSwitch::GetDevice(uint32_t port) const
{
    return port < m_ports.size() ? m_ports[port].device : nullptr;
}

Ptr<OcsPortChannel>
OcsSwitch::GetPortChannel(uint32_t port) const
{
    return port < m_ports.size() ? m_ports[port].channel : nullptr;
}

OcsSwitch::PortState
OcsSwitch::GetPortState(uint32_t port) const
{
    return port < m_ports.size() ? m_ports[port].state : PORT_IDLE;
}

uint32_t
OcsSwitch::GetPeer(uint32_t port) const
{
    if (port >= m_ports.size() || m_ports[port].state != PORT_UP)
    {
        return NO_PORT;
    }
    return m_ports[port].peer;
}

uint32_t
OcsSwitch::GetRemotePort(uint32_t port) const
{
    if (port >= m_ports.size())
    {
        return NO_PORT;
    }
    return m_ports[port].state == PORT_UP ? m_ports[port].peer : m_ports[port].lastPeer;
}

std::vector<OcsSwitch::Circuit>
OcsSwitch::GetCircuits() const
{
    std::vector<Circuit> circuits;
    for (uint32_t a = 0; a < m_ports.size(); ++a)
    {
        if (m_ports[a].state == PORT_UP && a < m_ports[a].peer)
        {
            circuits.emplace_back(a, m_ports[a].peer);
        }
    }
    return circuits;
}

std::string
OcsSwitch::CheckPort(uint32_t port) const
{
    if (port < m_ports.size())
    {
        return "";
    }
    std::ostringstream why;
    why << "port " << port << " is out of range (the switch has " << m_ports.size() << " ports)";
    return why.str();
}

bool
OcsSwitch::Refuse(const std::string& request, const std::string& why, std::string* error)
{
    ++m_refused;
    std::string line = "OCS request " + request + " refused: " + why;
    NS_LOG_WARN(line);
    if (error)
    {
        *error = line;
    }
    return false;
}

bool
OcsSwitch::Connect(uint32_t a, uint32_t b, std::string* error)
{
    NS_LOG_FUNCTION(this << a << b);
    std::ostringstream request;
    request << "Connect(" << a << ", " << b << ")";
    for (uint32_t port : {a, b})
    {
        std::string why = CheckPort(port);
        if (!why.empty())
        {
            return Refuse(request.str(), why, error);
        }
    }
    if (a == b)
    {
        return Refuse(request.str(), "a port cannot be joined to itself", error);
    }
    for (uint32_t port : {a, b})
    {
        const Port& p = m_ports[port];
        if (p.state != PORT_IDLE)
        {
            std::ostringstream why;
            why << "port " << port
                << (p.state == PORT_UP ? " is already in a circuit with port "
                                       : " is being reconfigured into a circuit with port ")
                << p.peer;
            return Refuse(request.str(), why.str(), error);
        }
    }
    StartCircuit(a, b);
    return true;
}

bool
OcsSwitch::Disconnect(uint32_t a, std::string* error)
{
    NS_LOG_FUNCTION(this << a);
    std::ostringstream request;
    request << "Disconnect(" << a << ")";
    std::string why = CheckPort(a);
    if (!why.empty())
    {
        return Refuse(request.str(), why, error);
    }
    if (m_ports[a].state == PORT_IDLE)
    {
        return Refuse(request.str(), "port " + std::to_string(a) + " has no circuit", error);
    }
    if (m_ports[a].state == PORT_DARK)
    {
        return Refuse(request.str(), "port " + std::to_string(a) + " is being reconfigured", error);
    }
    TearDown(a);
    return true;
}

bool
OcsSwitch::Reconfigure(const std::vector<Circuit>& circuits, std::string* error)
{
    NS_LOG_FUNCTION(this << circuits.size());
    std::set<uint32_t> named;
    for (std::size_t i = 0; i < circuits.size(); ++i)
    {
        const Circuit& c = circuits[i];
        std::ostringstream request;
        request << "Reconfigure, circuit " << i << " (" << c.first << ", " << c.second << ")";
        for (uint32_t port : {c.first, c.second})
        {
            std::string why = CheckPort(port);
            if (!why.empty())
            {
                return Refuse(request.str(), why, error);
            }
        }
        if (c.first == c.second)
        {
            return Refuse(request.str(), "a port cannot be joined to itself", error);
        }
        for (uint32_t port : {c.first, c.second})
        {
            if (!named.insert(port).second)
            {
                return Refuse(request.str(),
                              "port " + std::to_string(port) + " is named twice in the batch",
                              error);
            }
            if (m_ports[port].state == PORT_DARK)
            {
                return Refuse(request.str(),
                              "port " + std::to_string(port) + " is being reconfigured",
                              error);
            }
        }
    }
    // All checked: now carry it out. Tear-downs first, so that every CircuitDown precedes
    // the dark time of the batch.
    std::vector<Circuit> toSetUp;
    for (const Circuit& c : circuits)
    {
        if (GetPeer(c.first) == c.second)
        {
            continue; // already up: untouched
        }
        TearDown(c.first);
        TearDown(c.second);
        toSetUp.push_back(c);
    }
    for (const Circuit& c : toSetUp)
    {
        StartCircuit(c.first, c.second);
    }
    return true;
}

void
OcsSwitch::TearDown(uint32_t port)
{
    Port& p = m_ports[port];
    if (p.state != PORT_UP)
    {
        return;
    }
    uint32_t peer = p.peer;
    Port& q = m_ports[peer];
    NS_LOG_INFO("circuit " << port << " <-> " << peer << " down");
    Time now = Simulator::Now();
    for (Port* x : {&p, &q})
    {
        x->state = PORT_IDLE;
        x->peer = NO_PORT;
        x->lastChange = now;
    }
    m_circuitDownTrace(std::min(port, peer), std::max(port, peer));
}

void
OcsSwitch::StartCircuit(uint32_t a, uint32_t b)
{
    NS_LOG_INFO("circuit " << a << " <-> " << b << " dark for " << m_reconfigurationTime);
    Time now = Simulator::Now();
    m_ports[a].peer = b;
    m_ports[b].peer = a;
    for (uint32_t port : {a, b})
    {
        m_ports[port].state = PORT_DARK;
        m_ports[port].lastChange = now;
    }
    if (m_reconfigurationTime.IsZero())
    {
        CircuitUp(a, b);
        return;
    }
    m_ports[a].upEvent =
        Simulator::Schedule(m_reconfigurationTime, &OcsSwitch::CircuitUp, this, a, b);
}

void
OcsSwitch::CircuitUp(uint32_t a, uint32_t b)
{
    NS_LOG_INFO("circuit " << a << " <-> " << b << " up");
    Time now = Simulator::Now();
    for (uint32_t port : {a, b})
    {
        m_ports[port].state = PORT_UP;
        m_ports[port].lastPeer = m_ports[port].peer;
        m_ports[port].lastChange = now;
    }
    m_circuitUpTrace(std::min(a, b), std::max(a, b));
}

void
OcsSwitch::Ingress(uint32_t port, Ptr<const Packet> p, const Time& txTime)
{
    NS_LOG_FUNCTION(this << port << p << txTime);
    Time firstBit = Simulator::Now() + m_delay;
    Simulator::Schedule(m_delay + txTime,
                        &OcsSwitch::LastBit,
                        this,
                        port,
                        p->Copy(),
                        firstBit,
                        m_delay);
}

void
OcsSwitch::LastBit(uint32_t port, Ptr<Packet> frame, const Time& firstBit, const Time& delay)
{
    NS_LOG_FUNCTION(this << port << frame);
    if (port >= m_ports.size())
    {
        return; // disposed meanwhile
    }
    const Port& in = m_ports[port];
    if (in.lastChange > firstBit)
    {
        DropFrame(frame, port, CUT);
        return;
    }
    if (in.state == PORT_DARK)
    {
        DropFrame(frame, port, DARK);
        return;
    }
    if (in.state == PORT_IDLE)
    {
        DropFrame(frame, port, UNMAPPED);
        return;
    }
    Ptr<PointToPointNetDevice> out = m_ports[in.peer].device;
    ++m_forwardedFrames;
    m_forwardedBytes += frame->GetSize();
    m_forwardTrace(frame, port, in.peer);
    // The bits leave the switch as they arrive: the last one reaches the receiver one hop on.
    Simulator::ScheduleWithContext(out->GetNode()->GetId(),
                                   delay,
                                   &PointToPointNetDevice::Receive,
                                   out,
                                   frame);
}

void
OcsSwitch::DropFrame(Ptr<const Packet> frame, uint32_t port, DropReason why)
{
    NS_LOG_LOGIC("drop at port " << port << ": " << DropReasonName(why));
    ++m_droppedFrames[why];
    m_droppedBytes[why] += frame->GetSize();
    m_dropTrace(frame, port, why);
}

uint64_t
OcsSwitch::GetDroppedFrames(DropReason reason) const
{
    return m_droppedFrames.at(reason);
}

uint64_t
OcsSwitch::GetDroppedBytes(DropReason reason) const
{
    return m_droppedBytes.at(reason);
}

uint64_t
OcsSwitch::GetForwardedFrames() const
{
    return m_forwardedFrames;
}

uint64_t
OcsSwitch::GetForwardedBytes() const
{
    return m_forwardedBytes;
}

uint64_t
OcsSwitch::GetRefusedRequests() const
{
    return m_refused;
}

std::string
OcsSwitch::DropReasonName(DropReason reason)
{
    switch (reason)
    {
    case UNMAPPED:
        return "unmapped";
    case DARK:
        return "dark";
    case CUT:
        return "cut";
    }
    return "unknown";
}

} // namespace ns3
