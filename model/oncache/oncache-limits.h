/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_LIMITS_H
#define ONCACHE_LIMITS_H

#include "oncache-mode.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup oncache
 * The smallest IP MTU of any link (RFC 791: a 60-byte header, the longest IPv4 allows, and an
 * 8-byte fragment): the smallest pod MTU, as OncacheVethNetDevice's Mtu checker has it.
 */
constexpr uint32_t ONCACHE_MIN_IP_MTU = 68;

/// \ingroup oncache
/// The largest IPv4 packet: the 16-bit Total Length field.
constexpr uint32_t ONCACHE_MAX_IP_PACKET = 65535;

/**
 * \ingroup oncache
 * The most CPU cores a host may have: Debian's kernel limit (CONFIG_NR_CPUS=8192). Each core
 * is a queue, so this also bounds the memory of OncacheHostCpu.
 */
constexpr uint32_t ONCACHE_MAX_CORES = 8192;

/**
 * \ingroup oncache
 * The longest CPU time of one step of the cost model and of an application's ProcessingTime,
 * and the longest LinkDelay: 1 s, the minimum TCP retransmission timeout (RFC 6298), and
 * about 10^5 times the calibrated values. With it, every sum of costs a packet pays and every
 * event time stays exact in ns-3's 64-bit nanoseconds.
 */
inline Time
OncacheMaxStepTime()
{
    return Seconds(1);
}

/**
 * \ingroup oncache
 * The largest RxCopyNsPerByte: a copy of the largest IP packet then takes at most
 * OncacheMaxStepTime().
 */
constexpr double ONCACHE_MAX_COPY_NS_PER_BYTE = 1e9 / 65535;

/**
 * \ingroup oncache
 * \brief The bytes of IP packet a mode adds to a pod's packet on the wire: 0 on bare metal,
 *        OncacheVxlanHeader::OVERHEAD (outer Ethernet, IPv4, UDP and VXLAN) otherwise.
 * \param mode the data path
 * \return the encapsulation bytes
 */
uint32_t OncacheEncapsulationBytes(OncacheMode mode);

/**
 * \ingroup oncache
 * \brief The smallest underlay (NIC) IP MTU of a mode: a pod's ONCACHE_MIN_IP_MTU plus the
 *        mode's encapsulation, 68 on bare metal and 118 in the overlay modes.
 * \param mode the data path
 * \return the minimum
 */
uint32_t OncacheMinUnderlayMtu(OncacheMode mode);

/**
 * \ingroup oncache
 * \brief The largest UDP payload of one IPv4 datagram: ONCACHE_MAX_IP_PACKET minus the IPv4
 *        (20) and UDP (8) headers, 65,507 bytes; ns-3's UDP socket refuses larger sends.
 * \return the bytes
 */
uint32_t OncacheMaxUdpPayload();

/**
 * \ingroup oncache
 * \brief The bytes one Send() on a new TCP socket accepts: ns-3's TCP refuses (and drops) a
 *        write larger than its send buffer, whose size is ns3::TcpSocket::SndBufSize's
 *        current default.
 * \return the bytes
 */
uint32_t OncacheTcpSendBuffer();

/**
 * \ingroup oncache
 * \brief Require that a message of `bytes` goes out in one Send() of `protocol` (the request
 *        and response applications send each message with one call).
 * \param attribute the attribute that set the size, named in the error
 * \param bytes the message size
 * \param protocol ns3::TcpSocketFactory or ns3::UdpSocketFactory
 * \throws std::invalid_argument otherwise
 */
void OncacheRequireOneSend(const std::string& attribute, uint32_t bytes, TypeId protocol);

/**
 * \ingroup oncache
 * \brief Require that a client and its server agree on an integer attribute (a message size
 *        that both sides frame by).
 * \param client the client application
 * \param server the server application
 * \param attribute the attribute, named in the error
 * \param hint how to set both, for the error (e.g. "OncacheRrHelper::SetSizes")
 * \return the common value
 * \throws std::invalid_argument otherwise
 */
uint64_t OncacheRequireSameUinteger(Ptr<Object> client,
                                    Ptr<Object> server,
                                    const std::string& attribute,
                                    const std::string& hint);

/**
 * \ingroup oncache
 * \brief The slowest usable link: one that serialises a frame of `frameBytes` (IP MTU plus
 *        Ethernet header, FCS, preamble and gap) within 1 s, the minimum and initial TCP
 *        retransmission timeout (RFC 6298; ns3::TcpSocketBase::MinRto). A slower link has
 *        every TCP segment time out before it is on the wire; 0 bps divides by zero.
 * \param frameBytes the largest frame on the wire
 * \return the rate
 */
DataRate OncacheMinLinkRate(uint32_t frameBytes);

} // namespace ns3

#endif /* ONCACHE_LIMITS_H */
