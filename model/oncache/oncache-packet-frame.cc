/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-packet-frame.h"

#include "ns3/header.h"

#include <algorithm>

namespace ns3
{

namespace
{
/**
 * \brief Raw bytes at the front of a packet: the headers OncacheFastPath rewrote, written back
 *        as they are (the packet keeps its uid and tags).
 */
class OncacheFrameBytes : public Header
{
  public:
    /**
     * \param begin first byte
     * \param end one past the last byte
     */
    OncacheFrameBytes(const uint8_t* begin, const uint8_t* end)
        : m_bytes(begin, end)
    {
    }

    /// \return the type ID
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::OncacheFrameBytes").SetParent<Header>().SetGroupName("Oncache");
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return static_cast<uint32_t>(m_bytes.size());
    }

    void Serialize(Buffer::Iterator start) const override
    {
        start.Write(m_bytes.data(), static_cast<uint32_t>(m_bytes.size()));
    }

    uint32_t Deserialize(Buffer::Iterator start) override
    {
        start.Read(m_bytes.data(), static_cast<uint32_t>(m_bytes.size()));
        return static_cast<uint32_t>(m_bytes.size());
    }

    void Print(std::ostream& os) const override
    {
        os << m_bytes.size() << " header bytes";
    }

  private:
    std::vector<uint8_t> m_bytes; //!< the bytes
};

} // namespace

OncacheFastPath::Frame
OncacheMakeFrame(Ptr<const Packet> packet, Mac48Address dst, Mac48Address src, uint32_t head)
{
    OncacheFastPath::Frame frame;
    const uint32_t copied = std::min(packet->GetSize(), head);
    frame.bytes.resize(ONCACHE_ETH_LEN + copied);
    dst.CopyTo(frame.bytes.data());
    src.CopyTo(frame.bytes.data() + 6);
    frame.bytes[12] = 0x08; // EtherType IPv4
    frame.bytes[13] = 0x00;
    packet->CopyData(frame.bytes.data() + ONCACHE_ETH_LEN, copied);
    frame.length = ONCACHE_ETH_LEN + packet->GetSize();
    return frame;
}

uint32_t
OncacheFrameCopied(const OncacheFastPath::Frame& frame)
{
    return static_cast<uint32_t>(frame.bytes.size()) - ONCACHE_ETH_LEN;
}

void
OncacheApplyFrame(Ptr<Packet> packet, const OncacheFastPath::Frame& frame, uint32_t copied)
{
    packet->RemoveAtStart(copied);
    packet->AddHeader(OncacheFrameBytes(frame.bytes.data() + ONCACHE_ETH_LEN,
                                        frame.bytes.data() + frame.bytes.size()));
}

Mac48Address
OncacheMacFromBytes(const uint8_t* bytes)
{
    Mac48Address mac;
    mac.CopyFrom(bytes);
    return mac;
}

Mac48Address
OncacheFrameMac(const OncacheFastPath::Frame& frame, uint32_t offset)
{
    return OncacheMacFromBytes(frame.bytes.data() + offset);
}

} // namespace ns3
