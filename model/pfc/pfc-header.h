/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "ns3/header.h"

#include <array>

namespace ns3
{

/**
 * \ingroup pfc
 * \brief The MAC-control payload of an 802.1Qbb priority flow control (PFC) frame, the bytes
 *        after the Ethernet header (EtherType 0x8808): opcode 0x0101, the class-enable vector
 *        (one bit per priority, low byte), eight 16-bit pause times (priority 0 first) in
 *        quanta of 512 bit times, and 26 bytes of zero pad, 46 bytes in all, so that with the
 *        14-byte Ethernet header and the FCS the frame is 64 bytes (IEEE 802.1Qbb).
 */
class PfcHeader : public Header
{
  public:
    static constexpr uint16_t ETHER_TYPE = 0x8808;    //!< MAC control
    static constexpr uint16_t OPCODE = 0x0101;        //!< priority-based flow control
    static constexpr uint32_t PRIORITIES = 8;         //!< time fields in a frame
    static constexpr uint32_t SERIALIZED_SIZE = 46;   //!< opcode to the end of the pad
    static constexpr uint32_t BITS_PER_QUANTUM = 512; //!< one pause quantum

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * \brief Set one priority's pause time and its class-enable bit.
     * \param priority 0 to 7
     * \param quanta pause time in quanta (0: resume)
     */
    void SetPause(uint8_t priority, uint16_t quanta);
    /// \return the opcode read (OPCODE when written by this class)
    uint16_t GetOpcode() const;
    /// \return the class-enable vector
    uint16_t GetClassEnable() const;
    /**
     * \param priority 0 to 7
     * \return the pause time of a priority in quanta
     */
    uint16_t GetQuanta(uint8_t priority) const;

  private:
    uint16_t m_opcode = OPCODE;                  //!< opcode
    uint16_t m_classEnable = 0;                  //!< one bit per priority
    std::array<uint16_t, PRIORITIES> m_quanta{}; //!< pause times
};

} // namespace ns3

#endif /* PFC_HEADER_H */
