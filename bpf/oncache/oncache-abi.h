/*
 * ONCache eBPF datapath: map key/value layouts and constants, shared by the eBPF programs
 * (oncache.bpf.c), the libbpf agent, the tests and the ns-3 model's decision logic
 * (model/oncache/oncache-fast-path.h). Plain C with UAPI types only, so C++ code includes it as
 * is. Layouts and constants only: no decision code, so the differential test
 * (test/oncache-bpf/oncache-differential-test.cc) compares two implementations.
 *
 * Model: the ONCache paper (NSDI '25): its caches and fast path. Byte order: every IPv4
 * address and port below is in network byte order, exactly as in the packet; the VNI and
 * ifindexes are in host byte order.
 */
#ifndef ONCACHE_ABI_H
#define ONCACHE_ABI_H

#include <linux/types.h>

/* Marks: the two lowest DSCP bits of the inner IPv4 TOS byte (as in the ONCache authors' code). */
#define ONCACHE_MISS_MARK 0x04 /* set by a fast path that fell back */
#define ONCACHE_EST_MARK 0x08  /* set by the iptables mangle FORWARD rule */
#define ONCACHE_MARK_MASK 0x0c /* an init program learns only when both are set */

/* Encapsulation: outer Eth 14 + IPv4 20 + UDP 8 + VXLAN 8 = 50 bytes added in front of the
 * inner Ethernet frame; the header template also covers the inner Ethernet header (14). */
#define ONCACHE_ETH_LEN 14
#define ONCACHE_IPV4_LEN 20
#define ONCACHE_UDP_LEN 8
#define ONCACHE_VXLAN_LEN 8
#define ONCACHE_ENCAP_LEN 50
#define ONCACHE_TEMPLATE_LEN 64
#define ONCACHE_OUTER_IP_OFF 14
#define ONCACHE_OUTER_UDP_OFF 34
#define ONCACHE_VXLAN_OFF 42
#define ONCACHE_INNER_ETH_OFF 50
#define ONCACHE_INNER_IP_OFF 64

/* UDP destination ports accepted as VXLAN (IANA and the Linux/Flannel default). Geneve (6081)
 * has variable-length options and is not accelerated: it always falls back. */
#define ONCACHE_VXLAN_PORT 4789
#define ONCACHE_VXLAN_PORT_LINUX 8472
#define ONCACHE_VXLAN_FLAG_VNI 0x08 /* first byte of the VXLAN header: "VNI valid" */

/* Outer UDP source port = inner flow hash mapped into [49152, 65535] (as tc_masq does). */
#define ONCACHE_SPORT_BASE 49152
#define ONCACHE_SPORT_MASK 0x3fff

/* Map sizes (those of the ONCache authors' code). */
#define ONCACHE_EGRESSIP_ENTRIES 4096
#define ONCACHE_EGRESS_ENTRIES 1024
#define ONCACHE_INGRESS_ENTRIES 1024
#define ONCACHE_FILTER_ENTRIES 4096
#define ONCACHE_DEV_ENTRIES 8

/* Map names: the pinned file names under each emulated host's pin directory. */
#define ONCACHE_MAP_EGRESSIP "egressip_cache"
#define ONCACHE_MAP_EGRESS "egress_cache"
#define ONCACHE_MAP_INGRESS "ingress_cache"
#define ONCACHE_MAP_FILTER "filter_cache"
#define ONCACHE_MAP_DEV "devmap"
#define ONCACHE_MAP_STATS "oncache_stats"

/* egress_cache value (L2): the first 64 bytes of a slow-path encapsulated frame, learned on the
 * host NIC's egress, plus that NIC's ifindex. */
struct oncache_egress_info
{
    __u8 tmpl[ONCACHE_TEMPLATE_LEN];
    __u32 ifindex;
};

/* ingress_cache value: the agent writes the host-side veth ifindex with zero MACs; ingress
 * learning fills in the pod's MAC (dmac) and the gateway's MAC (smac). */
struct oncache_ingress_info
{
    __u32 ifindex;
    __u8 dmac[6];
    __u8 smac[6];
};

/* filter_cache key: a 5-tuple oriented local/remote (local = the pod on this host). TCP and
 * UDP carry ports; any other IPv4 protocol is keyed with ports 0. */
struct oncache_flow_key
{
    __be32 laddr;
    __be32 raddr;
    __be16 lport;
    __be16 rport;
    __u32 proto;
};

/* filter_cache value: the fast paths run only when both directions were learned. */
struct oncache_filter_action
{
    __u16 ingress;
    __u16 egress;
};

/* devmap value, keyed by the host NIC's ifindex: the destination check of the ingress fast
 * path, the source check of egress learning and the overlay's VNI (a foreign VNI falls back). */
struct oncache_dev_info
{
    __be32 ip;
    __u8 mac[6];
    __u16 pad;
    __u32 vni;
};

/* The layouts are the kernel's map key/value sizes: every user of this header must agree. */
#ifdef __cplusplus
#define ONCACHE_STATIC_ASSERT static_assert
#else
#define ONCACHE_STATIC_ASSERT _Static_assert
#endif
ONCACHE_STATIC_ASSERT(sizeof(struct oncache_egress_info) == 68, "egress value: 64 B + ifindex");
ONCACHE_STATIC_ASSERT(sizeof(struct oncache_ingress_info) == 16, "ingress value: 16 B");
ONCACHE_STATIC_ASSERT(sizeof(struct oncache_flow_key) == 16, "filter key: 16 B, no padding");
ONCACHE_STATIC_ASSERT(sizeof(struct oncache_filter_action) == 4, "filter value: 4 B");
ONCACHE_STATIC_ASSERT(sizeof(struct oncache_dev_info) == 16, "devmap value: 16 B");

/* oncache_stats: a per-CPU array of packet counters, indexed by this enum. */
enum oncache_stat
{
    ONCACHE_STAT_EGRESS_HIT = 0,
    ONCACHE_STAT_EGRESS_MISS,    /* fell back with the miss mark */
    ONCACHE_STAT_EGRESS_REVERSE, /* fell back on the reverse check, no miss mark */
    ONCACHE_STAT_EGRESS_PASS,    /* not for ONCache (non-IPv4, fragment, ...): untouched */
    ONCACHE_STAT_INGRESS_HIT,
    ONCACHE_STAT_INGRESS_MISS,
    ONCACHE_STAT_INGRESS_REVERSE,
    ONCACHE_STAT_INGRESS_PASS,
    ONCACHE_STAT_LEARN_EGRESS, /* egress learning stored a filter bit / cache entry */
    ONCACHE_STAT_LEARN_INGRESS,
    ONCACHE_STAT_ERROR,         /* a helper failed: the packet fell back */
    ONCACHE_STAT_EGRESS_SPOOF,  /* source address of another pod's veth: fell back, no mark */
    ONCACHE_STAT_INGRESS_SPOOF, /* outer source is not the inner source's host: fell back */
    ONCACHE_STAT_COUNT
};

#endif /* ONCACHE_ABI_H */
