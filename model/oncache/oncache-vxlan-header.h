/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_VXLAN_HEADER_H
#define ONCACHE_VXLAN_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief The 8-byte VXLAN header (RFC 7348): flags (I bit 0x08), 24 reserved bits, the 24-bit
 *        VXLAN network identifier (VNI) and 8 reserved bits.
 *
 * Together with the outer Ethernet (14), IPv4 (20) and UDP (8) headers it makes the 50-byte
 * VXLAN overhead; the encapsulated frame starts with the inner Ethernet header.
 */
class OncacheVxlanHeader : public Header
{
  public:
    /// The IANA VXLAN UDP port.
    static constexpr uint16_t PORT = 4789;
    /// The "I" flag: the VNI is valid.
    static constexpr uint8_t FLAG_VNI_VALID = 0x08;
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 8;
    /// Bytes a VXLAN encapsulation adds to an inner IP packet (outer Eth+IPv4+UDP+VXLAN).
    static constexpr uint32_t OVERHEAD = 50;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheVxlanHeader();

    /**
     * \param vni the 24-bit network identifier
     */
    void SetVni(uint32_t vni);

    /// \return the 24-bit network identifier
    uint32_t GetVni() const;

    /// \return the flags byte
    uint8_t GetFlags() const;

    /// \return true when the I flag is set (a well-formed VXLAN header)
    bool IsValid() const;

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_flags; //!< flags byte
    uint32_t m_vni;  //!< 24-bit VNI
};

} // namespace ns3

#endif /* ONCACHE_VXLAN_HEADER_H */
