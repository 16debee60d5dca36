/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_SWITCH_BUFFER_H
#define PFC_SWITCH_BUFFER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class PfcNetDevice;

/**
 * \ingroup pfc
 * \brief The shared-buffer MMU of one switch (IEEE 802.1Qbb; the HPCC simulator's SwitchMmu): byte
 * accounting per ingress (port, priority) — a priority group (PG) — from the moment a frame arrives
 *        until its first bit leaves the egress port, admission, and PFC generation.
 *
 * Every PfcNetDevice of the switch is a port (AddPort). A PG holds u bytes (reserve
 * included) and h headroom bytes; S is the switch-wide shared use. With r = ReserveBytes,
 * sigma = max(0, u - r) and the threshold T of the port:
 *  - Dynamic: T = Alpha * (BufferSize - H - R - S), H the sum of the ports' headroom, R =
 *    ports * r (HPCC's SwitchMmu, alpha = 2^-shift);
 *  - Static: T = StaticXoff.
 * A frame of x bytes is dropped only when it fits neither the PG's headroom (h + x > H_p)
 * nor the shared threshold (sigma + x > T) — with PFC off (lossy) the headroom is not used —
 * or the whole buffer. Admitted bytes go to the reserve, then to the shared pool, then (when
 * sigma would pass T) to headroom; leaving bytes are released from headroom first, then
 * shared, then reserve.
 *
 * PFC (PfcEnabled): when a PG is not paused and (h > 0 or sigma >= T) the switch sends a PFC
 * frame with PauseQuanta for that priority out of the ingress port (XOFF), and sends it again
 * every PauseRefresh while the PG stays paused. When h = 0 and sigma + ResumeOffset <= T
 * (Dynamic) or sigma <= StaticXon (Static) it sends quanta 0 (XON). XOFF is checked when a
 * frame is admitted, XON when one leaves.
 *
 * The control priority of the ports (PfcNetDevice::ControlPriority) bypasses the MMU.
 * Per-packet work is a few array updates: state is flat vectors indexed port * 8 + priority.
 */
class PfcSwitchBuffer : public Object
{
  public:
    static constexpr uint32_t NO_PORT = UINT32_MAX; //!< a frame that did not arrive on a port
    static constexpr uint32_t PRIORITIES = 8;       //!< priorities per port

    /// How the XOFF threshold is computed.
    enum ThresholdMode
    {
        DYNAMIC, //!< Alpha times the free shared buffer (HPCC)
        STATIC   //!< fixed StaticXoff / StaticXon per PG (Broadcom-style, [BOB])
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcSwitchBuffer();

    /**
     * \brief Make a device a port of this switch. Its headroom is Headroom bytes, or, when
     *        Headroom is 0, 2 * rate * delay + 3 frames of Mtu (one waiting at this end before
     *        the PFC frame, one in flight upstream, one being admitted) + the PFC frame
     *        (IEEE 802.1Qbb, in-simulator form). Throws std::invalid_argument (one line) when
     *        the attributes are inconsistent (see Validate).
     * \param device the device (attached to its channel)
     * \return the port index
     */
    uint32_t AddPort(Ptr<PfcNetDevice> device);

    /// Throw std::invalid_argument, one line, for the first inconsistent attribute.
    void Validate() const;

    /**
     * \brief Admit a frame that arrived on a port (called by the egress device).
     * \param packet the frame (for the Drop trace)
     * \param port ingress port
     * \param priority its priority
     * \param bytes its size
     * \return false: dropped (the Drop trace has fired)
     */
    bool Admit(Ptr<const Packet> packet, uint32_t port, uint8_t priority, uint32_t bytes);
    /**
     * \brief Release a frame that starts leaving its egress port.
     * \param port its ingress port
     * \param priority its priority
     * \param bytes its size
     */
    void Release(uint32_t port, uint8_t priority, uint32_t bytes);

    /**
     * \brief The ingress device sets the port of the frame it hands up, for the synchronous
     *        forwarding call that ends in the egress device's Send (NO_PORT after it).
     * \param port the ingress port
     */
    void SetCurrentIngress(uint32_t port)
    {
        m_currentIngress = port;
    }

    /// \return the port of the frame being forwarded now, or NO_PORT
    uint32_t GetCurrentIngress() const
    {
        return m_currentIngress;
    }

    /// \return the number of ports
    uint32_t GetNPorts() const;
    /**
     * \param port a port
     * \return its headroom in bytes
     */
    uint64_t GetHeadroom(uint32_t port) const;
    /**
     * \param port a port
     * \param priority a priority
     * \return the bytes the PG holds (reserve, shared and headroom)
     */
    uint64_t GetIngressBytes(uint32_t port, uint8_t priority) const;
    /// \return the bytes the buffer holds
    uint64_t GetUsedBytes() const;
    /// \return the frames dropped at admission
    uint64_t GetDrops() const;
    /// \return the most headroom bytes one PG has held
    uint64_t GetMaxHeadroomUsed() const;
    /// \return the XOFF frames this switch sent (first pauses and refreshes)
    uint64_t GetPausesSent() const;
    /// \return the current XOFF threshold of a port (bytes of shared use)
    uint64_t GetThreshold(uint32_t port) const;

    /// Drop callback: the frame, its ingress port and priority.
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, uint32_t port, uint8_t priority);
    /// PFC state callback: port, priority, true on XOFF, false on XON.
    typedef void (*PfcStateTracedCallback)(uint32_t port, uint8_t priority, bool paused);

  private:
    /// State of one priority group.
    struct Pg
    {
        uint64_t used = 0;     //!< u: reserve + shared bytes
        uint64_t headroom = 0; //!< h: headroom bytes
        bool paused = false;   //!< XOFF sent, XON not yet
        EventId refresh;       //!< next XOFF refresh
    };

    /// \return the PG's shared use
    uint64_t Shared(const Pg& pg) const;
    /**
     * \brief Send XOFF (and schedule its refresh) or XON.
     * \param port port
     * \param priority priority
     * \param pause XOFF or XON
     */
    void SendPfc(uint32_t port, uint8_t priority, bool pause);
    /**
     * \brief Refresh a pause that still holds.
     * \param port port
     * \param priority priority
     */
    void Refresh(uint32_t port, uint8_t priority);
    void DoDispose() override;

    uint64_t m_bufferSize;    //!< B
    bool m_pfcEnabled;        //!< lossless (PFC) or lossy
    ThresholdMode m_mode;     //!< threshold mode
    double m_alpha;           //!< dynamic threshold factor
    uint64_t m_staticXoff;    //!< static XOFF (shared bytes)
    uint64_t m_staticXon;     //!< static XON (shared bytes)
    uint64_t m_reserve;       //!< r per PG
    uint64_t m_resumeOffset;  //!< delta (dynamic XON hysteresis)
    uint64_t m_headroomBytes; //!< fixed headroom per port (0: computed)
    uint32_t m_pauseQuanta;   //!< quanta of an XOFF frame
    Time m_pauseRefresh;      //!< XOFF refresh period (0: half the pause time)

    std::vector<Ptr<PfcNetDevice>> m_ports; //!< the ports
    std::vector<uint64_t> m_portHeadroom;   //!< H_p
    std::vector<Pg> m_pgs;                  //!< [port * 8 + priority]
    uint64_t m_totalHeadroom;               //!< H
    uint64_t m_shared;                      //!< S
    uint64_t m_usedBytes;                   //!< all bytes held
    uint32_t m_currentIngress;              //!< see SetCurrentIngress
    uint64_t m_drops;                       //!< admission drops
    uint64_t m_pausesSent;                  //!< XOFF frames sent
    uint64_t m_maxHeadroomUsed;             //!< largest h seen

    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t> m_dropTrace; //!< admission drop
    TracedCallback<uint32_t, uint8_t, bool> m_pfcStateTrace;          //!< XOFF / XON
};

} // namespace ns3

#endif /* PFC_SWITCH_BUFFER_H */
