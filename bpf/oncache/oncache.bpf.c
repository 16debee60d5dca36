// SPDX-License-Identifier: GPL-2.0-only
/*
 * ONCache datapath (the ONCache paper (NSDI '25): its caches and fast path): four tc
 * programs sharing five BTF-defined maps plus a counter array.
 *
 *   oncache_egress      egress fast path    clsact ingress of each pod's host-side veth
 *   oncache_egress_init egress learning     clsact egress of the host NIC
 *   oncache_ingress     ingress fast path   clsact ingress of the host NIC
 *   oncache_ingress_init ingress learning   clsact ingress of the pod's eth0 (pod netns)
 *
 * Safety rules, kept by every program: non-IPv4 frames pass untouched; the fast paths never
 * drop, on any doubt they return TC_ACT_OK and the kernel overlay (routing, iptables policy,
 * conntrack, vxlan) handles the packet. Packets are read with bpf_skb_load_bytes, so
 * non-linear skbs need no special case.
 *
 * Marks: ONCache owns the two lowest DSCP bits of pod traffic (as in the ONCache authors' code).
 * The first program a pod packet meets (the egress fast path, or the ingress fast path for traffic
 * from a remote pod) overwrites them: the miss mark when it fell back on a miss, nothing otherwise.
 * A pod's own DSCP value therefore never counts as a mark; the price is that those two DSCP bits of
 * pod traffic are not preserved (documented in doc/oncache/ebpf-datapath.rst). The ingress fast
 * path clears them also on every UDP frame to a VXLAN port it does not take (outer IP options,
 * outer fragments, another destination MAC or IP, another VNI): the kernel may still decapsulate
 * such a frame, and a sender's bits must not reach ingress learning.
 *
 * Source checks (what the kernel path's anti-spoofing gives): the egress fast path takes a
 * packet only from the host veth named by the ingress entry of its source address; the
 * ingress fast path takes a frame only from the underlay host egress level 1 holds for its
 * inner source. Either failure falls back without a mark (counted as *_SPOOF).
 */
#include "oncache-abi.h"

#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>

char LICENSE[] SEC("license") = "GPL";

struct
{
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, ONCACHE_EGRESSIP_ENTRIES);
    __type(key, __be32);
    __type(value, __be32);
    __uint(pinning, LIBBPF_PIN_BY_NAME);
} egressip_cache SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, ONCACHE_EGRESS_ENTRIES);
    __type(key, __be32);
    __type(value, struct oncache_egress_info);
    __uint(pinning, LIBBPF_PIN_BY_NAME);
} egress_cache SEC(".maps");

/* A plain hash: the agent owns the entries (one per local pod), learning only fills MACs. */
struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, ONCACHE_INGRESS_ENTRIES);
    __type(key, __be32);
    __type(value, struct oncache_ingress_info);
    __uint(pinning, LIBBPF_PIN_BY_NAME);
} ingress_cache SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, ONCACHE_FILTER_ENTRIES);
    __type(key, struct oncache_flow_key);
    __type(value, struct oncache_filter_action);
    __uint(pinning, LIBBPF_PIN_BY_NAME);
} filter_cache SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, ONCACHE_DEV_ENTRIES);
    __type(key, __u32);
    __type(value, struct oncache_dev_info);
    __uint(pinning, LIBBPF_PIN_BY_NAME);
} devmap SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, ONCACHE_STAT_COUNT);
    __type(key, __u32);
    __type(value, __u64);
    __uint(pinning, LIBBPF_PIN_BY_NAME);
} oncache_stats SEC(".maps");

#define IP_MF 0x2000
#define IP_OFFSET 0x1fff
/* Where the inner IPv4 header of a VXLAN frame starts in the outer UDP datagram. */
#define INNER_IP_IN_UDP (ONCACHE_UDP_LEN + ONCACHE_VXLAN_LEN + ONCACHE_ETH_LEN)

static __always_inline void
count(__u32 stat)
{
    __u64* value = bpf_map_lookup_elem(&oncache_stats, &stat);
    if (value)
    {
        *value += 1;
    }
}

static __always_inline int
is_fragment(const struct iphdr* ip)
{
    return (ip->frag_off & bpf_htons(IP_MF | IP_OFFSET)) != 0;
}

static __always_inline int
is_vxlan_port(__be16 port)
{
    return port == bpf_htons(ONCACHE_VXLAN_PORT) || port == bpf_htons(ONCACHE_VXLAN_PORT_LINUX);
}

static __always_inline int
mac_is_zero(const __u8* mac)
{
    return (mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5]) == 0;
}

static __always_inline int
mac_equal(const __u8* a, const __u8* b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4] &&
           a[5] == b[5];
}

/* Sets the two mark bits of the IPv4 header at ip_off to `marks`, keeping every other TOS bit,
 * with an incremental header checksum update. The change to the TOS word and to the checksum
 * cancel out in any enclosing (outer UDP) checksum. Returns 0, or a negative helper error. */
static __always_inline int
set_marks(struct __sk_buff* skb, __u32 ip_off, __u8 marks)
{
    __u8 word[2];
    if (bpf_skb_load_bytes(skb, ip_off, word, 2) < 0)
    {
        return -1;
    }
    __u8 tos = (word[1] & ~ONCACHE_MARK_MASK) | marks;
    if (tos == word[1])
    {
        return 0;
    }
    __u16 old_word = *(__u16*)word;
    word[1] = tos;
    __u16 new_word = *(__u16*)word;
    if (bpf_l3_csum_replace(skb, ip_off + 10, old_word, new_word, 2) < 0)
    {
        return -1;
    }
    return bpf_skb_store_bytes(skb, ip_off, word, 2, 0);
}

/* Clears the mark bits of the IPv4 header at ip_off, with the header checksum when it is in
 * this frame, else the TOS byte alone (a fragment that ends before the checksum: the
 * reassembled header then fails its checksum and the kernel drops it). */
static __always_inline void
clear_marks_anyway(struct __sk_buff* skb, __u32 ip_off)
{
    if (set_marks(skb, ip_off, 0) == 0)
    {
        return;
    }
    __u8 tos;
    if (bpf_skb_load_bytes(skb, ip_off + 1, &tos, 1) < 0 || !(tos & ONCACHE_MARK_MASK))
    {
        return;
    }
    tos &= ~ONCACHE_MARK_MASK;
    bpf_skb_store_bytes(skb, ip_off + 1, &tos, 1, 0);
}

/* Clears the inner marks of a frame on the host NIC that the ingress fast path does not take
 * but the kernel may decapsulate: UDP to a VXLAN port carrying IPv4, with any outer IPv4
 * header length, any destination, any VNI. A later outer fragment holds the inner TOS byte
 * only after a first fragment shorter than a legal MTU gives (the inner header starts 30
 * bytes into the datagram); its port is not in it, and it is cleared as well. */
static __always_inline void
clear_foreign_marks(struct __sk_buff* skb)
{
    struct iphdr outer;
    if (skb->protocol != bpf_htons(ETH_P_IP) ||
        bpf_skb_load_bytes(skb, ONCACHE_OUTER_IP_OFF, &outer, sizeof(outer)) < 0 ||
        outer.version != 4 || outer.ihl < 5 || outer.protocol != IPPROTO_UDP)
    {
        return;
    }
    __u32 l4 = ONCACHE_OUTER_IP_OFF + outer.ihl * 4;
    __u32 offset = (bpf_ntohs(outer.frag_off) & IP_OFFSET) * 8;
    if (offset == 0)
    {
        struct udphdr udp;
        __be16 proto;
        if (bpf_skb_load_bytes(skb, l4, &udp, sizeof(udp)) < 0 || !is_vxlan_port(udp.dest) ||
            bpf_skb_load_bytes(skb, l4 + INNER_IP_IN_UDP - 2, &proto, 2) < 0 ||
            proto != bpf_htons(ETH_P_IP))
        {
            return;
        }
        clear_marks_anyway(skb, l4 + INNER_IP_IN_UDP);
    }
    else if (offset < INNER_IP_IN_UDP + 2)
    {
        clear_marks_anyway(skb, l4 + INNER_IP_IN_UDP - offset);
    }
}

/* Fills the filter key's ports for TCP and UDP (ports 0 for any other protocol). */
static __always_inline int
load_ports(struct __sk_buff* skb, __u32 l4_off, __u8 proto, __be16* src, __be16* dst)
{
    *src = 0;
    *dst = 0;
    if (proto != IPPROTO_TCP && proto != IPPROTO_UDP)
    {
        return 0;
    }
    __be16 ports[2];
    if (bpf_skb_load_bytes(skb, l4_off, ports, sizeof(ports)) < 0)
    {
        return -1;
    }
    *src = ports[0];
    *dst = ports[1];
    return 0;
}

static __always_inline __u16
ipv4_checksum(const __u8* hdr)
{
    __u32 sum = 0;
#pragma unroll
    for (int i = 0; i < ONCACHE_IPV4_LEN; i += 2)
    {
        if (i != 10)
        {
            sum += *(const __u16*)(hdr + i);
        }
    }
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    return (__u16)~sum;
}

static __always_inline void
set_filter_bit(struct oncache_flow_key* key, int egress)
{
    struct oncache_filter_action* action = bpf_map_lookup_elem(&filter_cache, key);
    if (!action)
    {
        struct oncache_filter_action fresh = {0, 0};
        bpf_map_update_elem(&filter_cache, key, &fresh, BPF_NOEXIST);
        action = bpf_map_lookup_elem(&filter_cache, key);
        if (!action)
        {
            return;
        }
    }
    if (egress)
    {
        action->egress = 1;
    }
    else
    {
        action->ingress = 1;
    }
}

/* Egress fast path, clsact ingress of a pod's host-side veth (the authors' tc_masq). */
SEC("tc")

int
oncache_egress(struct __sk_buff* skb)
{
    struct ethhdr eth;
    struct iphdr ip;
    if (skb->protocol != bpf_htons(ETH_P_IP) || bpf_skb_load_bytes(skb, 0, &eth, sizeof(eth)) < 0 ||
        eth.h_proto != bpf_htons(ETH_P_IP) ||
        bpf_skb_load_bytes(skb, ONCACHE_ETH_LEN, &ip, sizeof(ip)) < 0 || ip.version != 4 ||
        ip.ihl < 5)
    {
        count(ONCACHE_STAT_EGRESS_PASS);
        return TC_ACT_OK;
    }
    __u32 hash = bpf_get_hash_recalc(skb);
    __u8 fallback_marks = ONCACHE_MISS_MARK;
    __u32 stat = ONCACHE_STAT_EGRESS_MISS;

    /* Source check: a local pod's address leaves on the fast path only from that pod's veth,
     * the device its ingress entry names (the kernel path's anti-spoofing). */
    struct oncache_ingress_info* local = bpf_map_lookup_elem(&ingress_cache, &ip.saddr);
    if (local && local->ifindex != skb->ifindex)
    {
        fallback_marks = 0;
        stat = ONCACHE_STAT_EGRESS_SPOOF;
        goto fallback;
    }

    struct oncache_flow_key key = {};
    key.laddr = ip.saddr;
    key.raddr = ip.daddr;
    key.proto = ip.protocol;
    if (is_fragment(&ip) ||
        load_ports(skb, ONCACHE_ETH_LEN + ip.ihl * 4, ip.protocol, &key.lport, &key.rport) < 0)
    {
        goto fallback;
    }
    struct oncache_filter_action* action = bpf_map_lookup_elem(&filter_cache, &key);
    if (!action || !action->ingress || !action->egress)
    {
        goto fallback;
    }
    __be32* host = bpf_map_lookup_elem(&egressip_cache, &ip.daddr);
    if (!host)
    {
        goto fallback;
    }
    struct oncache_egress_info* egress = bpf_map_lookup_elem(&egress_cache, host);
    if (!egress)
    {
        goto fallback;
    }
    /* Reverse check: the local pod's ingress entry must be learned, else the other direction
     * still needs conntrack: fall back without a miss mark. */
    if (!local || mac_is_zero(local->dmac))
    {
        fallback_marks = 0;
        stat = ONCACHE_STAT_EGRESS_REVERSE;
        goto fallback;
    }

    __u8 hdr[ONCACHE_TEMPLATE_LEN];
    __builtin_memcpy(hdr, egress->tmpl, ONCACHE_TEMPLATE_LEN);
    __u32 nic = egress->ifindex;
    if (set_marks(skb, ONCACHE_ETH_LEN, 0) < 0)
    {
        stat = ONCACHE_STAT_ERROR;
        goto fallback;
    }
    __u64 flags = BPF_F_ADJ_ROOM_FIXED_GSO | BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 |
                  BPF_F_ADJ_ROOM_ENCAP_L4_UDP | BPF_F_ADJ_ROOM_ENCAP_L2_ETH |
                  BPF_F_ADJ_ROOM_ENCAP_L2(ONCACHE_ETH_LEN);
    if (bpf_skb_adjust_room(skb, ONCACHE_ENCAP_LEN, BPF_ADJ_ROOM_MAC, flags) < 0)
    {
        stat = ONCACHE_STAT_ERROR;
        goto fallback;
    }
    /* Variable fields: outer IPv4 total length and checksum, UDP length, UDP source port. */
    __u32 len = skb->len;
    *(__be16*)(hdr + ONCACHE_OUTER_IP_OFF + 2) = bpf_htons(len - ONCACHE_ETH_LEN);
    *(__u16*)(hdr + ONCACHE_OUTER_IP_OFF + 10) = ipv4_checksum(hdr + ONCACHE_OUTER_IP_OFF);
    *(__be16*)(hdr + ONCACHE_OUTER_UDP_OFF) =
        bpf_htons(ONCACHE_SPORT_BASE + (hash & ONCACHE_SPORT_MASK));
    *(__be16*)(hdr + ONCACHE_OUTER_UDP_OFF + 4) =
        bpf_htons(len - ONCACHE_ETH_LEN - ONCACHE_IPV4_LEN);
    if (bpf_skb_store_bytes(skb, 0, hdr, ONCACHE_TEMPLATE_LEN, 0) < 0)
    {
        /* Undo the encapsulation room; the inner Ethernet header was not overwritten. */
        count(ONCACHE_STAT_ERROR);
        bpf_skb_adjust_room(skb, -ONCACHE_ENCAP_LEN, BPF_ADJ_ROOM_MAC, 0);
        return TC_ACT_OK;
    }
    count(ONCACHE_STAT_EGRESS_HIT);
    return bpf_redirect(nic, 0);

fallback:
    set_marks(skb, ONCACHE_ETH_LEN, fallback_marks);
    count(stat);
    return TC_ACT_OK;
}

/* The headers of a VXLAN frame on the host NIC. Two leading pad bytes put each IPv4 header on a
 * 4-byte boundary, so the wire layout loads into them with no gaps. */
struct vxlan_frame
{
    __u8 pad1[2];
    struct ethhdr outer_eth;       /* wire offset 0 */
    struct iphdr outer_ip;         /* 14 */
    struct udphdr udp;             /* 34 */
    __u8 vxlan[ONCACHE_VXLAN_LEN]; /* 42 */
    __u8 pad2[2];
    struct ethhdr inner_eth; /* 50 */
    struct iphdr inner_ip;   /* 64 */
};

_Static_assert(__builtin_offsetof(struct vxlan_frame, vxlan) + ONCACHE_VXLAN_LEN -
                       __builtin_offsetof(struct vxlan_frame, outer_eth) ==
                   ONCACHE_ENCAP_LEN,
               "outer headers are contiguous");
_Static_assert(__builtin_offsetof(struct vxlan_frame, inner_ip) -
                       __builtin_offsetof(struct vxlan_frame, inner_eth) ==
                   ONCACHE_ETH_LEN,
               "inner headers are contiguous");

/* Reads a frame on the host NIC as VXLAN of this host's overlay (outer IPv4 without options,
 * UDP to a VXLAN port, VNI flag and this host's VNI, inner IPv4). Returns the devmap entry, or
 * NULL when the frame is not such a packet: the caller then leaves it untouched. */
static __always_inline struct oncache_dev_info*
parse_vxlan(struct __sk_buff* skb, struct vxlan_frame* f)
{
    if (skb->protocol != bpf_htons(ETH_P_IP) ||
        bpf_skb_load_bytes(skb, 0, &f->outer_eth, ONCACHE_ENCAP_LEN) < 0 ||
        bpf_skb_load_bytes(skb,
                           ONCACHE_INNER_ETH_OFF,
                           &f->inner_eth,
                           ONCACHE_ETH_LEN + ONCACHE_IPV4_LEN) < 0)
    {
        return 0;
    }
    if (f->outer_eth.h_proto != bpf_htons(ETH_P_IP) || f->outer_ip.version != 4 ||
        f->outer_ip.ihl != 5 || f->outer_ip.protocol != IPPROTO_UDP || is_fragment(&f->outer_ip) ||
        !is_vxlan_port(f->udp.dest) || !(f->vxlan[0] & ONCACHE_VXLAN_FLAG_VNI) ||
        f->inner_eth.h_proto != bpf_htons(ETH_P_IP) || f->inner_ip.version != 4 ||
        f->inner_ip.ihl < 5)
    {
        return 0;
    }
    __u32 ifindex = skb->ifindex;
    struct oncache_dev_info* dev = bpf_map_lookup_elem(&devmap, &ifindex);
    if (!dev)
    {
        return 0;
    }
    __u32 vni = ((__u32)f->vxlan[4] << 16) | ((__u32)f->vxlan[5] << 8) | f->vxlan[6];
    if (vni != dev->vni)
    {
        return 0;
    }
    return dev;
}

/* Ingress fast path, clsact ingress of the host NIC (the authors' tc_restore). */
SEC("tc")

int
oncache_ingress(struct __sk_buff* skb)
{
    struct vxlan_frame f;
    struct oncache_dev_info* dev = parse_vxlan(skb, &f);
    if (!dev || f.outer_ip.daddr != dev->ip || !mac_equal(f.outer_eth.h_dest, dev->mac))
    {
        clear_foreign_marks(skb);
        count(ONCACHE_STAT_INGRESS_PASS);
        return TC_ACT_OK;
    }
    __u8 fallback_marks = ONCACHE_MISS_MARK;
    __u32 stat = ONCACHE_STAT_INGRESS_MISS;

    /* Source check: a remote pod's packet must come from the host that egress level 1 holds
     * for it, else any underlay host could inject as that pod. */
    __be32* source_host = bpf_map_lookup_elem(&egressip_cache, &f.inner_ip.saddr);
    if (source_host && *source_host != f.outer_ip.saddr)
    {
        fallback_marks = 0;
        stat = ONCACHE_STAT_INGRESS_SPOOF;
        goto fallback;
    }

    struct oncache_flow_key key = {};
    key.laddr = f.inner_ip.daddr;
    key.raddr = f.inner_ip.saddr;
    key.proto = f.inner_ip.protocol;
    if (is_fragment(&f.inner_ip) || load_ports(skb,
                                               ONCACHE_INNER_IP_OFF + f.inner_ip.ihl * 4,
                                               f.inner_ip.protocol,
                                               &key.rport,
                                               &key.lport) < 0)
    {
        goto fallback;
    }
    struct oncache_filter_action* action = bpf_map_lookup_elem(&filter_cache, &key);
    if (!action || !action->ingress || !action->egress)
    {
        goto fallback;
    }
    struct oncache_ingress_info* pod = bpf_map_lookup_elem(&ingress_cache, &f.inner_ip.daddr);
    if (!pod || mac_is_zero(pod->dmac))
    {
        goto fallback;
    }
    /* Reverse check: the remote pod must be in the egress cache. */
    if (!source_host)
    {
        fallback_marks = 0;
        stat = ONCACHE_STAT_INGRESS_REVERSE;
        goto fallback;
    }
    __u8 macs[12];
    __builtin_memcpy(macs, pod->dmac, 6);
    __builtin_memcpy(macs + 6, pod->smac, 6);
    __u32 veth = pod->ifindex;
    if (bpf_skb_adjust_room(skb, -ONCACHE_ENCAP_LEN, BPF_ADJ_ROOM_MAC, 0) < 0)
    {
        stat = ONCACHE_STAT_ERROR;
        goto fallback;
    }
    if (bpf_skb_store_bytes(skb, 0, macs, sizeof(macs), 0) < 0)
    {
        /* The frame is decapsulated but carries the outer MACs: it is addressed to this host's
         * NIC, so the host routes it to the pod through the slow path. */
        count(ONCACHE_STAT_ERROR);
        return TC_ACT_OK;
    }
    count(ONCACHE_STAT_INGRESS_HIT);
    return bpf_redirect_peer(veth, 0);

fallback:
    set_marks(skb, ONCACHE_INNER_IP_OFF, fallback_marks);
    count(stat);
    return TC_ACT_OK;
}

/* Egress learning, clsact egress of the host NIC (the authors' tc_init_e). */
SEC("tc")

int
oncache_egress_init(struct __sk_buff* skb)
{
    struct vxlan_frame f;
    struct oncache_dev_info* dev = parse_vxlan(skb, &f);
    if (!dev || f.outer_ip.saddr != dev->ip || !(f.inner_ip.tos & ONCACHE_MARK_MASK))
    {
        return TC_ACT_OK;
    }
    /* Learn only from a packet of a local pod (its ingress entry exists), marked both missed
     * and established, whose outer UDP checksum is 0 (the template keeps it 0). */
    if ((f.inner_ip.tos & ONCACHE_MARK_MASK) == ONCACHE_MARK_MASK && !is_fragment(&f.inner_ip) &&
        f.udp.check == 0 && bpf_map_lookup_elem(&ingress_cache, &f.inner_ip.saddr))
    {
        struct oncache_flow_key key = {};
        key.laddr = f.inner_ip.saddr;
        key.raddr = f.inner_ip.daddr;
        key.proto = f.inner_ip.protocol;
        if (load_ports(skb,
                       ONCACHE_INNER_IP_OFF + f.inner_ip.ihl * 4,
                       f.inner_ip.protocol,
                       &key.lport,
                       &key.rport) == 0)
        {
            struct oncache_egress_info info;
            if (bpf_skb_load_bytes(skb, 0, info.tmpl, ONCACHE_TEMPLATE_LEN) == 0)
            {
                info.ifindex = skb->ifindex;
                bpf_map_update_elem(&egress_cache, &f.outer_ip.daddr, &info, BPF_NOEXIST);
            }
            bpf_map_update_elem(&egressip_cache, &f.inner_ip.daddr, &f.outer_ip.daddr, BPF_NOEXIST);
            set_filter_bit(&key, 1);
            count(ONCACHE_STAT_LEARN_EGRESS);
        }
    }
    set_marks(skb, ONCACHE_INNER_IP_OFF, 0);
    return TC_ACT_OK;
}

/* Ingress learning, clsact ingress of the pod's eth0 inside the pod netns (the
 * authors' tc_init_in). */
SEC("tc")

int
oncache_ingress_init(struct __sk_buff* skb)
{
    struct ethhdr eth;
    struct iphdr ip;
    if (skb->protocol != bpf_htons(ETH_P_IP) || bpf_skb_load_bytes(skb, 0, &eth, sizeof(eth)) < 0 ||
        eth.h_proto != bpf_htons(ETH_P_IP) ||
        bpf_skb_load_bytes(skb, ONCACHE_ETH_LEN, &ip, sizeof(ip)) < 0 || ip.version != 4 ||
        ip.ihl < 5 || !(ip.tos & ONCACHE_MARK_MASK))
    {
        return TC_ACT_OK;
    }
    /* Learn only from a remote pod's packet: a local source (its own ingress entry exists) came
     * over the bridge and carries that pod's MAC, not the gateway's. */
    struct oncache_ingress_info* pod = bpf_map_lookup_elem(&ingress_cache, &ip.daddr);
    if ((ip.tos & ONCACHE_MARK_MASK) == ONCACHE_MARK_MASK && !is_fragment(&ip) && pod &&
        !bpf_map_lookup_elem(&ingress_cache, &ip.saddr))
    {
        struct oncache_flow_key key = {};
        key.laddr = ip.daddr;
        key.raddr = ip.saddr;
        key.proto = ip.protocol;
        if (load_ports(skb, ONCACHE_ETH_LEN + ip.ihl * 4, ip.protocol, &key.rport, &key.lport) == 0)
        {
            struct oncache_ingress_info learned = *pod;
            __builtin_memcpy(learned.dmac, eth.h_dest, 6);
            __builtin_memcpy(learned.smac, eth.h_source, 6);
            bpf_map_update_elem(&ingress_cache, &ip.daddr, &learned, BPF_EXIST);
            set_filter_bit(&key, 0);
            count(ONCACHE_STAT_LEARN_INGRESS);
        }
    }
    set_marks(skb, ONCACHE_ETH_LEN, 0);
    return TC_ACT_OK;
}
