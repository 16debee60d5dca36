/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_HEADER_H
#define ROCE_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/// The UDP destination port of RoCEv2 (IBTA RoCEv2 annex A17).
constexpr uint16_t ROCE_UDP_PORT = 4791;

/**
 * \ingroup roce
 * \brief The InfiniBand Base Transport Header (12 bytes, IBTA Vol. 1 ch. 9), serialized
 *        byte-exact: OpCode; SE, M, PadCnt, TVer; P_Key; FECN, BECN, 6 reserved bits;
 *        DestQP (24 bits); AckReq, 7 reserved bits; PSN (24 bits).
 */
class RoceBth : public Header
{
  public:
    /// The RC opcodes the model uses (IBTA Vol. 1 ch. 9).
    enum Opcode : uint8_t
    {
        RC_WRITE_FIRST = 0x06,
        RC_WRITE_MIDDLE = 0x07,
        RC_WRITE_LAST = 0x08,
        RC_WRITE_ONLY = 0x0A,
        RC_ACKNOWLEDGE = 0x11,
        CNP = 0x81,
    };

    /// Largest 24-bit value (DestQP, PSN).
    static constexpr uint32_t MASK24 = 0xFFFFFF;

    RoceBth();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint8_t opcode = RC_WRITE_ONLY; //!< OpCode
    bool solicited = false;         //!< SE
    bool migReq = false;            //!< M
    uint8_t padCnt = 0;             //!< PadCnt (0..3): pad bytes after the payload
    uint8_t tver = 0;               //!< TVer (4 bits)
    uint16_t pKey = 0xFFFF;         //!< P_Key
    bool fecn = false;              //!< F
    bool becn = false;              //!< B (1 in CNPs)
    uint32_t destQp = 0;            //!< DestQP (24 bits)
    bool ackReq = false;            //!< A
    uint32_t psn = 0;               //!< PSN (24 bits)

    /// \return true for the RDMA WRITE opcodes that carry a RETH (FIRST, ONLY)
    bool HasReth() const
    {
        return opcode == RC_WRITE_FIRST || opcode == RC_WRITE_ONLY;
    }
};

/**
 * \ingroup roce
 * \brief The RDMA Extended Transport Header (16 bytes: VA 8, R_Key 4, DMA length 4) on
 *        RDMA WRITE FIRST and ONLY (IBTA RoCEv2 annex A17).
 */
class RoceReth : public Header
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint64_t virtualAddress = 0; //!< VA
    uint32_t rKey = 0;           //!< R_Key
    uint32_t dmaLength = 0;      //!< DMA length (the message's bytes)
};

/**
 * \ingroup roce
 * \brief The ACK Extended Transport Header (4 bytes: syndrome 8 bits, MSN 24 bits) on
 *        ACKNOWLEDGE packets (IBTA Vol. 1 ch. 9).
 */
class RoceAeth : public Header
{
  public:
    /// Syndrome of a positive ACK with unlimited credits (000 11111).
    static constexpr uint8_t SYNDROME_ACK = 0x1F;
    /// Syndrome of a NAK, PSN sequence error (011 00000).
    static constexpr uint8_t SYNDROME_NAK_SEQ = 0x60;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// \return true when the syndrome is a NAK (bits 7:5 = 011)
    bool IsNak() const
    {
        return (syndrome >> 5) == 0x3;
    }

    uint8_t syndrome = SYNDROME_ACK; //!< Syndrome
    uint32_t msn = 0;                //!< MSN (24 bits): messages completed at the responder
};

/**
 * \ingroup roce
 * \brief The 16 reserved zero bytes that follow the BTH of a CNP (IBTA Vol. 1 ch. 9).
 *        Deserialize reads them; IsZero says whether they were all zero.
 */
class RoceCnpPadding : public Header
{
  public:
    /// Size of the padding.
    static constexpr uint32_t SIZE = 16;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    bool allZero = true; //!< after Deserialize: the 16 bytes were all zero
};

} // namespace ns3

#endif /* ROCE_HEADER_H */
