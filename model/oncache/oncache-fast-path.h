/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_FAST_PATH_H
#define ONCACHE_FAST_PATH_H

#include "oncache-lru-cache.h"

#include "ns3/oncache-abi.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <vector>

/// Filter keys are equal when all their bytes are (the layout has no padding).
inline bool
operator==(const oncache_flow_key& a, const oncache_flow_key& b)
{
    return std::memcmp(&a, &b, sizeof(a)) == 0;
}

namespace ns3
{

/**
 * \ingroup oncache
 * \brief Hash functor of the eBPF filter key (oncache_flow_key).
 */
struct OncacheAbiFlowKeyHash
{
    /**
     * \param key a filter key
     * \return its hash
     */
    std::size_t operator()(const oncache_flow_key& key) const;
};

/**
 * \ingroup oncache
 * \brief ONCache's decision logic and caches: the model of the four eBPF programs and their
 *        maps (the ONCache authors' tc_masq, tc_restore, tc_init_e and tc_init_in), on
 *        Ethernet frames as bytes.
 *
 * Plain C++ with no simulator dependency: OncacheHostDatapath feeds it the frames of its
 * packets and applies the bytes it returns; the differential test (test/oncache-bpf/) feeds it
 * the same frames as the real programs in bpf/oncache/oncache.bpf.c and compares verdicts,
 * bytes and cache contents. Both share only oncache-abi.h (map layouts and constants); the
 * decisions are written independently here.
 *
 * A frame is the packet as the program sees it: an Ethernet header, then IPv4. Every entry
 * point reads only the bytes a program reads and rewrites the frame in place (marks, the
 * encapsulation from the template, the decapsulation). A Frame may hold only the first bytes
 * of a longer packet (Frame::length is the whole length) when those cover every header the
 * programs read: kEgressHeadBytes after the Ethernet header for a pod's frame,
 * kVxlanHeadBytes for a VXLAN frame.
 *
 * Marks: the two lowest DSCP bits of the inner TOS byte belong to ONCache. The first program a
 * pod's packet meets overwrites both: the miss mark on a miss, nothing otherwise, so a pod's
 * own DSCP bits never count as a mark (at the price of not preserving those two bits).
 */
class OncacheFastPath
{
  public:
    /// Bytes after the Ethernet header that cover every header of a pod's frame (IPv4 with
    /// the longest options, then the ports).
    static constexpr uint32_t kEgressHeadBytes = 64;
    /// Bytes after the outer Ethernet header that cover every header of a VXLAN frame.
    /// (The outer IPv4 header may carry up to 40 bytes of options: the marks of such a frame are
    /// cleared too.)
    static constexpr uint32_t kVxlanHeadBytes = ONCACHE_ENCAP_LEN - ONCACHE_ETH_LEN + 40 + 64;

    /// A frame: its first bytes (or all of them) and its whole length.
    struct Frame
    {
        std::vector<uint8_t> bytes; //!< the frame from its Ethernet header on
        uint32_t length = 0;        //!< the whole frame's length (skb->len)
    };

    /// What a fast-path program did with a frame.
    enum Verdict
    {
        VERDICT_PASS,    //!< not for ONCache (non-IPv4, not this overlay, ...): untouched
        VERDICT_MISS,    //!< fell back with the miss mark
        VERDICT_REVERSE, //!< fell back on a failed reverse check, no mark
        VERDICT_HIT,     //!< rewritten and redirected
        VERDICT_SPOOF    //!< fell back on a failed source check, no mark
    };

    /// The outcome of a fast-path program.
    struct Result
    {
        Verdict verdict = VERDICT_PASS; //!< what happened
        bool redirect = false;          //!< TC_ACT_REDIRECT (else TC_ACT_OK)
        uint32_t ifindex = 0;           //!< redirect target: the NIC or the pod's host veth
    };

    /**
     * \brief Create empty caches.
     * \param egressIpEntries capacity of egress level 1 (egressip_cache)
     * \param egressEntries capacity of egress level 2 (egress_cache)
     * \param ingressEntries capacity of the ingress cache
     * \param filterEntries capacity of the filter cache
     * \throws std::invalid_argument for a capacity of 0
     */
    OncacheFastPath(uint32_t egressIpEntries = ONCACHE_EGRESSIP_ENTRIES,
                    uint32_t egressEntries = ONCACHE_EGRESS_ENTRIES,
                    uint32_t ingressEntries = ONCACHE_INGRESS_ENTRIES,
                    uint32_t filterEntries = ONCACHE_FILTER_ENTRIES);

    /**
     * \brief Set the devmap entry of a host NIC.
     * \param ifindex the NIC's ifindex
     * \param dev its IP, MAC and the overlay's VNI
     */
    void SetDevice(uint32_t ifindex, const oncache_dev_info& dev);

    /**
     * \brief The agent's ingress entry of a local pod: its host veth, MACs not learned.
     * \param pod the pod's IP (network order)
     * \param vethIfindex its host-side veth
     */
    void AddLocalPod(uint32_t pod, uint32_t vethIfindex);

    /**
     * \param pod a local pod's IP (network order)
     * \return true when its ingress entry was deleted
     */
    bool DeleteLocalPod(uint32_t pod);

    /**
     * \param pod a remote pod's IP (network order)
     * \return true when its egress level-1 entry was deleted
     */
    bool DeleteRemotePod(uint32_t pod);

    /**
     * \param host a remote host's IP (network order)
     * \return true when its egress level-2 entry was deleted
     */
    bool DeleteHost(uint32_t host);

    /**
     * \param key a filter key
     * \return true when its entry was deleted
     */
    bool DeleteFlow(const oncache_flow_key& key);

    /**
     * \param match called for every filter key
     * \return the number of filter entries deleted (those it matched)
     */
    std::size_t DeleteFlows(const std::function<bool(const oncache_flow_key&)>& match);

    /**
     * \brief Egress fast path (the ONCache authors' tc_masq, on the host-side veth's ingress).
     * \param frame a pod's frame, rewritten in place
     * \param flowHash the skb hash of the inner flow (the outer UDP source port)
     * \param ifindex the host-side veth it arrived on: a source address whose ingress entry
     *        names another veth is a spoof (VERDICT_SPOOF, no fast path, no mark)
     * \return the verdict; on a hit the frame is VXLAN-encapsulated for the NIC
     */
    Result Egress(Frame& frame, uint32_t flowHash, uint32_t ifindex);

    /**
     * \brief Ingress fast path (the ONCache authors' tc_restore, on the host NIC's ingress). A
     *        frame from an outer source other than the host egress level 1 holds for the inner
     *        source is a spoof (VERDICT_SPOOF, no fast path, no mark); any frame it does not take
     *        that could be decapsulated by the kernel has its inner marks cleared.
     * \param frame a frame received on the NIC, rewritten in place
     * \param ifindex the NIC's ifindex
     * \return the verdict; on a hit the frame is the inner packet with the pod's MACs
     */
    Result Ingress(Frame& frame, uint32_t ifindex);

    /**
     * \brief Egress learning (the ONCache authors' tc_init_e, on the host NIC's egress).
     * \param frame a VXLAN frame leaving on the NIC; its marks are cleared
     * \param ifindex the NIC's ifindex
     * \return true when it learned
     */
    bool EgressLearn(Frame& frame, uint32_t ifindex);

    /**
     * \brief Ingress learning (the ONCache authors' tc_init_in, on the pod's eth0 ingress).
     * \param frame a frame entering a pod; its marks are cleared
     * \return true when it learned
     */
    bool IngressLearn(Frame& frame);

    /// \return egress level 1: remote pod IP -> remote host IP
    const OncacheLruCache<uint32_t, uint32_t>& GetEgressIpCache() const;
    /// \return egress level 2: remote host IP -> header template and NIC
    const OncacheLruCache<uint32_t, oncache_egress_info>& GetEgressCache() const;
    /// \return local pod IP -> veth and learned MACs
    const OncacheLruCache<uint32_t, oncache_ingress_info>& GetIngressCache() const;
    /// \return local/remote 5-tuple -> ingress and egress bits
    const OncacheLruCache<oncache_flow_key, oncache_filter_action, OncacheAbiFlowKeyHash>&
    GetFilterCache() const;

    /**
     * \brief Overwrite a filter entry (for tests: the differential test's negative control).
     * \param key the key
     * \param action the value
     */
    void SetFilterEntry(const oncache_flow_key& key, const oncache_filter_action& action);

  private:
    /// The IPv4 header fields the programs read.
    struct Ipv4View
    {
        uint8_t ihl = 0;       //!< header length in 32-bit words
        uint8_t tos = 0;       //!< TOS byte
        uint8_t protocol = 0;  //!< L4 protocol
        bool fragment = false; //!< MF set or a non-zero offset
        uint32_t saddr = 0;    //!< source (network order)
        uint32_t daddr = 0;    //!< destination (network order)
    };

    /**
     * \param frame a frame
     * \param off where an IPv4 header should start
     * \param ip receives its fields
     * \return false when the frame is too short or it is not IPv4 (version 4, IHL >= 5)
     */
    static bool ReadIpv4(const Frame& frame, uint32_t off, Ipv4View& ip);

    /**
     * \brief Read a pod's frame: Ethernet with the IPv4 EtherType, then IPv4.
     * \param frame the frame
     * \param ip receives the IPv4 fields
     * \return false when the frame is not such a frame
     */
    static bool ReadPodFrame(const Frame& frame, Ipv4View& ip);

    /**
     * \brief Read a VXLAN frame of this host's overlay on a NIC.
     * \param frame the frame
     * \param ifindex the NIC
     * \param outer receives the outer IPv4 fields
     * \param inner receives the inner IPv4 fields
     * \return the NIC's devmap entry, or nullptr when the frame is not for ONCache
     */
    const oncache_dev_info* ReadVxlan(const Frame& frame,
                                      uint32_t ifindex,
                                      Ipv4View& outer,
                                      Ipv4View& inner) const;

    /**
     * \brief Read the ports of a TCP or UDP packet (0 for other protocols).
     * \param frame the frame
     * \param off the L4 header's offset
     * \param protocol the L4 protocol
     * \param src receives the source port (network order)
     * \param dst receives the destination port (network order)
     * \return false when the ports lie beyond the frame
     */
    static bool ReadPorts(const Frame& frame,
                          uint32_t off,
                          uint8_t protocol,
                          uint16_t& src,
                          uint16_t& dst);

    /**
     * \brief Overwrite both mark bits of an IPv4 header's TOS, with an incremental checksum
     *        update; a header beyond the frame is left alone.
     * \param frame the frame
     * \param off the IPv4 header's offset
     * \param marks the new mark bits
     */
    static void WriteMarks(Frame& frame, uint32_t off, uint8_t marks);

    /**
     * \brief Clear the marks of the inner IPv4 header of a UDP frame to a VXLAN port that the
     *        ingress fast path does not take (outer options, outer fragments, another
     *        destination, another VNI): the kernel may still decapsulate it. A later outer
     *        fragment that holds the inner TOS byte (after a first fragment shorter than any
     *        legal MTU allows) has it cleared too, even when the header checksum is in another
     *        fragment: the reassembled header then fails its checksum.
     * \param frame a frame received on the NIC
     */
    static void ClearForeignMarks(Frame& frame);

    /**
     * \brief Set the egress or ingress bit of a filter entry, creating it when absent.
     * \param key the key
     * \param egress which bit
     */
    void SetFilterBit(const oncache_flow_key& key, bool egress);

    OncacheLruCache<uint32_t, uint32_t> m_egressIp;            //!< egressip_cache
    OncacheLruCache<uint32_t, oncache_egress_info> m_egress;   //!< egress_cache
    OncacheLruCache<uint32_t, oncache_ingress_info> m_ingress; //!< ingress_cache
    OncacheLruCache<oncache_flow_key, oncache_filter_action, OncacheAbiFlowKeyHash>
        m_filter;                                   //!< filter_cache
    std::map<uint32_t, oncache_dev_info> m_devices; //!< devmap
};

} // namespace ns3

#endif /* ONCACHE_FAST_PATH_H */
