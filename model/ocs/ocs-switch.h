/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef OCS_SWITCH_H
#define OCS_SWITCH_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class Packet;
class PointToPointNetDevice;
class OcsPortChannel;

/**
 * \ingroup ocs
 * \brief A packet-level optical circuit switch (OCS): P ports joined by one-to-one circuits.
 *
 * Each port is a OcsPortChannel with one ordinary PointToPointNetDevice attached
 * (AddPort). A circuit joins two ports both ways. The switch is layer 1: a frame that
 * enters port a is delivered to the device on the port that a's circuit joins, with no
 * queue, no lookup and no second serialisation. A frame whose first bit leaves the sender at
 * t0 reaches the switch at t0 + Delay, its last bit at t0 + Delay + txTime (txTime: the
 * sender's serialisation), and it is received at t0 + txTime + 2 Delay.
 *
 * A frame is judged when its last bit reaches the switch, by the state of its input port:
 * - in an up circuit, unchanged since the frame's first bit arrived: forwarded;
 * - changed while the frame's bits were passing (first bit at t_f, a change at t > t_f):
 *   dropped, reason CUT;
 * - dark (a circuit is being set up on it): dropped, reason DARK;
 * - idle (no circuit): dropped, reason UNMAPPED.
 *
 * Setting up a circuit takes ReconfigurationTime, during which both of its ports are dark;
 * tearing one down is immediate. Only the ports named by a request change: other circuits
 * carry traffic throughout.
 *
 * Requests that cannot be carried out (a port out of range, already in a circuit or being
 * reconfigured, a port joined to itself, a disconnect of a port without a circuit) are
 * refused as a whole: the call returns false with one line saying why and nothing changes.
 * They are never fatal, so a caller may try and fall back.
 *
 * The attached devices stay "link up" (PointToPointNetDevice has no public way to take its
 * link down in ns-3.37); OcsHelper::FollowCircuits takes the IPv4 interfaces down and
 * up with the circuits instead.
 */
class OcsSwitch : public Object
{
  public:
    /// Why a frame was dropped.
    enum DropReason
    {
        UNMAPPED = 0, //!< its input port has no circuit
        DARK = 1,     //!< its input port is being reconfigured
        CUT = 2       //!< its input port's circuit changed while the frame was passing
    };

    /// A port's circuit state.
    enum PortState
    {
        PORT_IDLE, //!< no circuit
        PORT_DARK, //!< a circuit is being set up on it (dark time)
        PORT_UP    //!< in a circuit
    };

    /// A port number meaning "none".
    static constexpr uint32_t NO_PORT = UINT32_MAX;

    /// One circuit: two ports.
    using Circuit = std::pair<uint32_t, uint32_t>;

    /// \return the object TypeId
    static TypeId GetTypeId();

    OcsSwitch();
    ~OcsSwitch() override;

    /**
     * \brief Adds a port and attaches the device to it (the device gets the port's channel).
     * \param device a PointToPointNetDevice not attached to any channel yet
     * \return the new port's number (ports are numbered 0, 1, ... in the order added)
     */
    uint32_t AddPort(Ptr<PointToPointNetDevice> device);

    /// \return the number of ports
    uint32_t GetNPorts() const;

    /// \param port a port \return the device attached to it (null if out of range)
    Ptr<PointToPointNetDevice> GetDevice(uint32_t port) const;

    /// \param port a port \return its channel (null if out of range)
    Ptr<OcsPortChannel> GetPortChannel(uint32_t port) const;

    /// \param port a port \return its state (PORT_IDLE if out of range)
    PortState GetPortState(uint32_t port) const;

    /// \param port a port \return the port its up circuit joins, or NO_PORT
    uint32_t GetPeer(uint32_t port) const;

    /**
     * \param port a port
     * \return the port its up circuit joins; else the port its last circuit joined (frames
     *         from it may still be on the fibre); else NO_PORT
     */
    uint32_t GetRemotePort(uint32_t port) const;

    /// \return the up circuits, each as (lower port, higher port), by lower port
    std::vector<Circuit> GetCircuits() const;

    /**
     * \brief Sets up a circuit between two idle ports; both are dark for ReconfigurationTime.
     * \param a a port
     * \param b another port
     * \param error if not null, receives the reason on refusal
     * \return true if accepted
     */
    bool Connect(uint32_t a, uint32_t b, std::string* error = nullptr);

    /**
     * \brief Tears down the up circuit of a port at once; both of its ports become idle.
     * \param a a port in an up circuit
     * \param error if not null, receives the reason on refusal
     * \return true if accepted
     */
    bool Disconnect(uint32_t a, std::string* error = nullptr);

    /**
     * \brief Moves circuits in one batch. Each pair is set up unless it is already up; a
     * port's old circuit, if any, is torn down first, and an old peer that is not in the
     * batch is left idle. Ports of pairs that were already up, and all ports outside the
     * batch, carry traffic throughout.
     * \param circuits pairs of distinct ports, each port at most once, none being reconfigured
     * \param error if not null, receives the reason on refusal
     * \return true if accepted
     */
    bool Reconfigure(const std::vector<Circuit>& circuits, std::string* error = nullptr);

    /**
     * \brief A frame's first bit leaves the device on a port (called by its channel).
     * \param port the input port
     * \param p the frame
     * \param txTime its serialisation time at the sender's rate
     */
    void Ingress(uint32_t port, Ptr<const Packet> p, const Time& txTime);

    /// \param reason a drop reason \return frames dropped for it
    uint64_t GetDroppedFrames(DropReason reason) const;
    /// \param reason a drop reason \return bytes (whole frames) dropped for it
    uint64_t GetDroppedBytes(DropReason reason) const;
    /// \return frames forwarded through circuits
    uint64_t GetForwardedFrames() const;
    /// \return bytes forwarded through circuits
    uint64_t GetForwardedBytes() const;
    /// \return requests refused
    uint64_t GetRefusedRequests() const;

    /// \param reason a drop reason \return its name ("unmapped", "dark", "cut")
    static std::string DropReasonName(DropReason reason);

    /// Signature of the CircuitUp and CircuitDown traces.
    typedef void (*CircuitTracedCallback)(uint32_t a, uint32_t b);
    /// Signature of the Drop trace.
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame, uint32_t port, DropReason why);
    /// Signature of the Forward trace.
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> frame, uint32_t from, uint32_t to);

  protected:
    void DoDispose() override;

  private:
    /// What the switch knows of one port.
    struct Port
    {
        Ptr<OcsPortChannel> channel;       //!< the port's fibre
        Ptr<PointToPointNetDevice> device; //!< the device on it
        PortState state = PORT_IDLE;       //!< circuit state
        uint32_t peer = NO_PORT;           //!< the other end (of the up or pending circuit)
        uint32_t lastPeer = NO_PORT;       //!< the other end of its last up circuit
        Time lastChange;                   //!< when the state last changed
        EventId upEvent;                   //!< the end of the dark time, while PORT_DARK
    };

    /// \return an empty string, or why the port cannot be named in a request
    std::string CheckPort(uint32_t port) const;
    /// Refuses a request: counts it, logs it, hands the reason out. \return false
    bool Refuse(const std::string& request, const std::string& why, std::string* error);
    /// Tears down the up circuit of a port (if any), tracing CircuitDown.
    void TearDown(uint32_t port);
    /// Starts the dark time of a new circuit between two idle ports.
    void StartCircuit(uint32_t a, uint32_t b);
    /// The dark time is over: the circuit is up.
    void CircuitUp(uint32_t a, uint32_t b);
    /// A frame's last bit reaches the switch: forward or drop it.
    void LastBit(uint32_t port, Ptr<Packet> frame, const Time& firstBit, const Time& delay);
    /// Counts and traces a drop.
    void DropFrame(Ptr<const Packet> frame, uint32_t port, DropReason why);

    std::vector<Port> m_ports;                 //!< by port number
    Time m_delay;                              //!< propagation delay, device <-> switch
    Time m_reconfigurationTime;                //!< dark time of a circuit set-up
    std::array<uint64_t, 3> m_droppedFrames{}; //!< by DropReason
    std::array<uint64_t, 3> m_droppedBytes{};  //!< by DropReason
    uint64_t m_forwardedFrames = 0;            //!< frames forwarded
    uint64_t m_forwardedBytes = 0;             //!< bytes forwarded
    uint64_t m_refused = 0;                    //!< requests refused

    TracedCallback<uint32_t, uint32_t> m_circuitUpTrace;                  //!< a circuit came up
    TracedCallback<uint32_t, uint32_t> m_circuitDownTrace;                //!< a circuit went down
    TracedCallback<Ptr<const Packet>, uint32_t, DropReason> m_dropTrace;  //!< a drop
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_forwardTrace; //!< a forward
};

} // namespace ns3

#endif /* OCS_SWITCH_H */
