/*
 * Unit tests of the ONCache eBPF programs through BPF_PROG_TEST_RUN: crafted frames go
 * through the real programs in the kernel; the expected bytes are built here from the
 * addresses and the VXLAN/IPv4 formats, not from the programs. Needs root and BPF: exits 77
 * (ctest SKIP_RETURN_CODE) with a message when the kernel refuses to load the programs.
 */
// Tests: oncache.bpf
#include "oncache-bpf-agent.h"
#include "oncache-test-frames.h"
#include "oncache-test-skeleton.h"
#include "oncache.skel.h"

#include <algorithm>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <linux/pkt_cls.h>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

using namespace oncache_test;
using oncache_ebpf::ParseIpv4;

namespace
{

int g_failures = 0;
int g_checks = 0;

#define CHECK(cond)                                                                                \
    do                                                                                             \
    {                                                                                              \
        ++g_checks;                                                                                \
        if (!(cond))                                                                               \
        {                                                                                          \
            ++g_failures;                                                                          \
            std::fprintf(stderr, "FAIL %s:%d [%s]: %s\n", __FILE__, __LINE__, g_case, #cond);      \
        }                                                                                          \
    } while (0)

const char* g_case = "";

// The emulated world (oncache-test-frames.h): this host A with local pod a, remote host B with
// pod b.
const uint32_t kLoIfindex = 1; // BPF_PROG_TEST_RUN runs tc programs on the loopback device
// The host veths of pods a and a2: the egress fast path runs on them, and BPF_PROG_TEST_RUN
// runs a program on the device its context names, so the test creates them
// (OncacheTestDevices, in a network namespace of its own).
const uint32_t kVethIfindex = 42;
const uint32_t kVethIfindex2 = 43;

// A TCP segment header with ports and 20 bytes of payload.
void
AppendTcp(Bytes& b, uint16_t sport, uint16_t dport)
{
    size_t off = b.size();
    b.resize(off + 40);
    Put16(b, off, sport);
    Put16(b, off + 2, dport);
    b[off + 12] = 0x50;
    b[off + 13] = 0x10; // ACK
    for (size_t i = 20; i < 40; ++i)
    {
        b[off + i] = static_cast<uint8_t>(i);
    }
}

// Pod-side frame: a -> b (egress direction) or b -> a as seen on a's eth0.
Bytes
PodFrame(bool fromA, uint8_t tos, uint8_t proto = IPPROTO_TCP)
{
    Bytes b;
    if (fromA)
    {
        AppendEth(b, kGwMacA, kPodMacA, 0x0800);
        AppendIp(b, kPodA, kPodB, proto, tos, 40);
        AppendTcp(b, 1000, 80);
    }
    else
    {
        AppendEth(b, kPodMacA, kGwMacA, 0x0800);
        AppendIp(b, kPodB, kPodA, proto, tos, 40);
        AppendTcp(b, 80, 1000);
    }
    return b;
}

// A VXLAN frame between the hosts carrying a pod packet, as the kernel's vxlan device builds
// it (UDP checksum 0). outbound: A -> B carrying a -> b; else B -> A carrying b -> a.
Bytes
VxlanFrame(bool outbound, uint8_t innerTos, uint32_t vni = kVni, uint16_t sport = 50000)
{
    Bytes b;
    AppendEth(b, outbound ? kNicMacB : kNicMacA, outbound ? kNicMacA : kNicMacB, 0x0800);
    size_t inner = 14 + 40 + 14;
    AppendIp(b,
             outbound ? kHostA : kHostB,
             outbound ? kHostB : kHostA,
             IPPROTO_UDP,
             0,
             8 + 8 + inner);
    size_t udp = b.size();
    b.resize(udp + 16);
    Put16(b, udp, sport);
    Put16(b, udp + 2, 4789);
    Put16(b, udp + 4, static_cast<uint16_t>(16 + inner));
    b[udp + 8] = 0x08;
    b[udp + 12] = (vni >> 16) & 0xff;
    b[udp + 13] = (vni >> 8) & 0xff;
    b[udp + 14] = vni & 0xff;
    AppendEth(b, outbound ? kVtepMacB : kVtepMacA, outbound ? kVtepMacA : kVtepMacB, 0x0800);
    AppendIp(b, outbound ? kPodA : kPodB, outbound ? kPodB : kPodA, IPPROTO_TCP, innerTos, 40);
    if (outbound)
    {
        AppendTcp(b, 1000, 80);
    }
    else
    {
        AppendTcp(b, 80, 1000);
    }
    return b;
}

struct Run
{
    int ret{-1};
    Bytes out;
};

Run
TestRun(int progFd, const Bytes& in, uint32_t ifindex = kLoIfindex)
{
    Run r;
    r.out.resize(in.size() + 256);
    __sk_buff ctx{};
    ctx.ifindex = ifindex;
    LIBBPF_OPTS(bpf_test_run_opts,
                opts,
                .data_in = in.data(),
                .data_out = r.out.data(),
                .data_size_in = static_cast<uint32_t>(in.size()),
                .data_size_out = static_cast<uint32_t>(r.out.size()),
                .ctx_in = &ctx,
                .ctx_size_in = sizeof(ctx),
                .repeat = 1);
    int err = bpf_prog_test_run_opts(progFd, &opts);
    if (err)
    {
        std::fprintf(stderr, "FAIL [%s]: BPF_PROG_TEST_RUN: %s\n", g_case, std::strerror(-err));
        ++g_failures;
        return r;
    }
    r.ret = static_cast<int>(opts.retval);
    r.out.resize(opts.data_size_out);
    return r;
}

struct Maps
{
    int egressIp, egress, ingress, filter, dev;
};

oncache_flow_key
FlowKey()
{
    oncache_flow_key k{};
    k.laddr = kPodA;
    k.raddr = kPodB;
    k.lport = htons(1000);
    k.rport = htons(80);
    k.proto = IPPROTO_TCP;
    return k;
}

// A counter of oncache_stats, summed over the CPUs.
uint64_t
Stat(int fd, uint32_t index)
{
    std::vector<uint64_t> perCpu(libbpf_num_possible_cpus());
    uint64_t sum = 0;
    if (bpf_map_lookup_elem(fd, &index, perCpu.data()) == 0)
    {
        for (uint64_t v : perCpu)
        {
            sum += v;
        }
    }
    return sum;
}

// Sets the outer IPv4 source of a VXLAN frame (with its checksum).
void
SetOuterSource(Bytes& b, uint32_t addr)
{
    std::memcpy(&b[14 + 12], &addr, 4);
    FixIpChecksum(b, 14);
}

// The inner TOS byte carries no mark and the inner header's checksum holds.
bool
InnerUnmarked(const Bytes& b, size_t innerIp)
{
    return b.size() >= innerIp + 20 && (b[innerIp + 1] & ONCACHE_MARK_MASK) == 0 &&
           HeaderSum(b, innerIp) == 0;
}

bool
HasKey(int fd, const void* key)
{
    uint8_t value[128];
    return bpf_map_lookup_elem(fd, key, value) == 0;
}

void
ClearMap(int fd, size_t keySize)
{
    std::vector<uint8_t> key(keySize);
    while (bpf_map_get_next_key(fd, nullptr, key.data()) == 0)
    {
        bpf_map_delete_elem(fd, key.data());
    }
}

} // namespace

int
main()
{
    int status = 0;
    std::unique_ptr<oncache_ebpf::Skeleton> skel = OncacheLoadForTest(&status);
    if (!skel || !OncacheTestDevices({kVethIfindex, kVethIfindex2}, &status))
    {
        return status;
    }
    std::printf("verifier: all four programs loaded\n");
    Maps m{skel->MapFd(ONCACHE_MAP_EGRESSIP),
           skel->MapFd(ONCACHE_MAP_EGRESS),
           skel->MapFd(ONCACHE_MAP_INGRESS),
           skel->MapFd(ONCACHE_MAP_FILTER),
           skel->MapFd(ONCACHE_MAP_DEV)};
    oncache_dev_info dev{};
    dev.ip = kHostA;
    std::memcpy(dev.mac, kNicMacA, 6);
    dev.vni = kVni;
    CHECK(bpf_map_update_elem(m.dev, &kLoIfindex, &dev, BPF_ANY) == 0);
    oncache_ingress_info agentEntry{};
    agentEntry.ifindex = kVethIfindex; // as the agent writes it: MACs not learned yet
    CHECK(bpf_map_update_elem(m.ingress, &kPodA, &agentEntry, BPF_ANY) == 0);
    const oncache_flow_key key = FlowKey();

    g_case = "egress miss: falls back with the miss mark";
    {
        Bytes in = PodFrame(true, 0x00);
        Run r = TestRun(skel->EgressFd(), in, kVethIfindex);
        CHECK(r.ret == TC_ACT_OK);
        CHECK(r.out.size() == in.size());
        CHECK(r.out.size() > 15 && r.out[15] == ONCACHE_MISS_MARK);
        CHECK(HeaderSum(r.out, 14) == 0);
    }

    g_case = "DSCP-marked pod traffic: the pod's bits 0x0c are not taken as marks";
    {
        // EF (0xb8) has 0x08 set; 0xbc has both mark bits. After the fast path falls back only
        // the miss mark may remain: conntrack alone can add the est mark.
        for (uint8_t tos : {uint8_t(0xb8), uint8_t(0xbc), uint8_t(0x0c)})
        {
            Run r = TestRun(skel->EgressFd(), PodFrame(true, tos), kVethIfindex);
            CHECK(r.ret == TC_ACT_OK);
            CHECK(r.out[15] == ((tos & 0xf3) | ONCACHE_MISS_MARK));
            CHECK(HeaderSum(r.out, 14) == 0);
        }
        // Traffic from a remote pod with DSCP 0x0c, missing on the ingress fast path.
        Run r = TestRun(skel->IngressFd(), VxlanFrame(false, 0x0c));
        CHECK(r.ret == TC_ACT_OK);
        CHECK(r.out[64 + 1] == ONCACHE_MISS_MARK);
        CHECK(HeaderSum(r.out, 64) == 0);
        // Such a frame, leaving the host with the miss mark only, teaches egress learning nothing.
        r = TestRun(skel->EgressInitFd(), VxlanFrame(true, 0xb4), kLoIfindex);
        CHECK(r.ret == TC_ACT_OK);
        CHECK(!HasKey(m.filter, &key));
        CHECK(!HasKey(m.egress, &kHostB));
        CHECK(!HasKey(m.egressIp, &kPodB));
    }

    g_case = "egress learning on the NIC (miss + est marks)";
    Bytes learnFrame = VxlanFrame(true, 0x0c);
    {
        Run r = TestRun(skel->EgressInitFd(), learnFrame);
        CHECK(r.ret == TC_ACT_OK);
        CHECK(r.out[64 + 1] == 0x00); // both marks cleared
        CHECK(HeaderSum(r.out, 64) == 0);
        oncache_egress_info info{};
        CHECK(bpf_map_lookup_elem(m.egress, &kHostB, &info) == 0);
        CHECK(std::memcmp(info.tmpl, learnFrame.data(), ONCACHE_TEMPLATE_LEN) == 0);
        CHECK(info.ifindex == kLoIfindex);
        uint32_t host = 0;
        CHECK(bpf_map_lookup_elem(m.egressIp, &kPodB, &host) == 0 && host == kHostB);
        oncache_filter_action action{};
        CHECK(bpf_map_lookup_elem(m.filter, &key, &action) == 0 && action.egress == 1 &&
              action.ingress == 0);
    }

    g_case = "egress with only the egress bit learned: still a miss";
    {
        Run r = TestRun(skel->EgressFd(), PodFrame(true, 0), kVethIfindex);
        CHECK(r.ret == TC_ACT_OK && r.out[15] == ONCACHE_MISS_MARK);
    }

    g_case = "ingress learning on the pod's eth0";
    {
        Run r = TestRun(skel->IngressInitFd(), PodFrame(false, 0x0c));
        CHECK(r.ret == TC_ACT_OK);
        CHECK(r.out[15] == 0x00);
        CHECK(HeaderSum(r.out, 14) == 0);
        oncache_ingress_info info{};
        CHECK(bpf_map_lookup_elem(m.ingress, &kPodA, &info) == 0);
        CHECK(info.ifindex == kVethIfindex);
        CHECK(std::memcmp(info.dmac, kPodMacA, 6) == 0 && std::memcmp(info.smac, kGwMacA, 6) == 0);
        oncache_filter_action action{};
        CHECK(bpf_map_lookup_elem(m.filter, &key, &action) == 0 && action.egress == 1 &&
              action.ingress == 1);
    }

    g_case = "egress fast path hit: VXLAN encapsulation from the template";
    {
        Bytes in = PodFrame(true, 0);
        Run r = TestRun(skel->EgressFd(), in, kVethIfindex);
        CHECK(r.ret == TC_ACT_REDIRECT);
        CHECK(r.out.size() == in.size() + 50);
        if (r.out.size() == in.size() + 50)
        {
            Bytes expect = learnFrame;
            expect.resize(64);
            // Outer lengths follow this packet; the template's other bytes are kept.
            Put16(expect, 14 + 2, static_cast<uint16_t>(in.size() - 14 + 50));
            FixIpChecksum(expect, 14);
            Put16(expect, 34 + 4, static_cast<uint16_t>(in.size() - 14 + 50 - 20));
            uint16_t sport = Get16(r.out, 34);
            CHECK(sport >= 49152);
            Put16(expect, 34, sport);
            CHECK(std::equal(expect.begin(), expect.end(), r.out.begin()));
            CHECK(HeaderSum(r.out, 14) == 0);
            CHECK(std::equal(in.begin() + 14, in.end(), r.out.begin() + 64)); // inner IP + L4
            // The outer source port is the flow's: the same for every packet of it.
            Run again = TestRun(skel->EgressFd(), in, kVethIfindex);
            CHECK(again.out.size() > 36 && Get16(again.out, 34) == sport);
        }
    }

    g_case = "ingress fast path hit: decapsulated, pod MACs, redirected";
    {
        Bytes in = VxlanFrame(false, 0);
        Run r = TestRun(skel->IngressFd(), in);
        CHECK(r.ret == TC_ACT_REDIRECT);
        CHECK(r.out.size() == in.size() - 50);
        if (r.out.size() == in.size() - 50)
        {
            Bytes expect = PodFrame(false, 0);
            CHECK(r.out == expect);
        }
    }

    g_case = "foreign VNI: untouched, no redirect";
    {
        Bytes in = VxlanFrame(false, 0, 2);
        Run r = TestRun(skel->IngressFd(), in);
        CHECK(r.ret == TC_ACT_OK && r.out == in);
        Bytes learn = VxlanFrame(true, 0x0c, 2);
        r = TestRun(skel->EgressInitFd(), learn);
        CHECK(r.ret == TC_ACT_OK && r.out == learn);
    }

    g_case = "egress source check: a pod sending with a neighbour's address";
    {
        const int stats = skel->MapFd(ONCACHE_MAP_STATS);
        // Pod a2 (veth 43) sends pod a's cached flow with a's address: no fast path, no mark.
        oncache_ingress_info a2{};
        a2.ifindex = kVethIfindex2;
        uint32_t podA2 = ParseIpv4("198.19.1.11", "");
        CHECK(bpf_map_update_elem(m.ingress, &podA2, &a2, BPF_ANY) == 0);
        uint64_t spoofs = Stat(stats, ONCACHE_STAT_EGRESS_SPOOF);
        Bytes in = PodFrame(true, 0x0c);
        Run r = TestRun(skel->EgressFd(), in, kVethIfindex2);
        CHECK(r.ret == TC_ACT_OK);
        CHECK(r.out.size() == in.size());
        CHECK(r.out.size() > 15 && (r.out[15] & ONCACHE_MARK_MASK) == 0 && HeaderSum(r.out, 14) == 0);
        CHECK(Stat(stats, ONCACHE_STAT_EGRESS_SPOOF) == spoofs + 1);
        // From the loopback (no pod's veth) likewise.
        r = TestRun(skel->EgressFd(), in, kLoIfindex);
        CHECK(r.ret == TC_ACT_OK && r.out.size() == in.size());
        // Control: the same frame from pod a's own veth takes the fast path.
        r = TestRun(skel->EgressFd(), in, kVethIfindex);
        CHECK(r.ret == TC_ACT_REDIRECT && r.out.size() == in.size() + 50);
        CHECK(bpf_map_delete_elem(m.ingress, &podA2) == 0);
    }

    g_case = "ingress source check: a known remote pod's frame from another underlay host";
    {
        const int stats = skel->MapFd(ONCACHE_MAP_STATS);
        uint64_t spoofs = Stat(stats, ONCACHE_STAT_INGRESS_SPOOF);
        Bytes in = VxlanFrame(false, 0x0c);
        SetOuterSource(in, ParseIpv4("198.18.0.13", "")); // host C, not B where b lives
        Run r = TestRun(skel->IngressFd(), in);
        CHECK(r.ret == TC_ACT_OK);
        CHECK(r.out.size() == in.size());
        CHECK(InnerUnmarked(r.out, 64));
        CHECK(Stat(stats, ONCACHE_STAT_INGRESS_SPOOF) == spoofs + 1);
        // Control: from host B the same frame takes the fast path.
        Bytes genuine = VxlanFrame(false, 0x0c);
        r = TestRun(skel->IngressFd(), genuine);
        CHECK(r.ret == TC_ACT_REDIRECT && r.out.size() == genuine.size() - 50);
    }

    g_case = "marks cleared on every VXLAN frame the ingress fast path does not take";
    {
        // Each frame carries a sender-set 0x0c in the inner TOS; the kernel could decapsulate
        // any of them, so none may keep it.
        struct Kind
        {
            const char* name;
            Bytes frame;
            size_t innerIp;
        };
        std::vector<Kind> kinds;
        Bytes base = VxlanFrame(false, 0x0c);
        {
            // Outer IPv4 with 4 bytes of options (NOPs).
            Bytes b(base.begin(), base.begin() + 34);
            b[14] = 0x46;
            b.insert(b.end(), {1, 1, 1, 1});
            b.insert(b.end(), base.begin() + 34, base.end());
            Put16(b, 16, static_cast<uint16_t>(b.size() - 14));
            FixIpChecksum(b, 14);
            kinds.push_back({"outer IP options", b, 68});
        }
        {
            Bytes b = base;
            Put16(b, 14 + 6, 0x2000); // MF: the first fragment
            FixIpChecksum(b, 14);
            kinds.push_back({"outer first fragment", b, 64});
        }
        {
            Bytes b = base;
            std::memset(b.data(), 0xff, 6);
            kinds.push_back({"broadcast destination MAC", b, 64});
        }
        {
            Bytes b = VxlanFrame(false, 0x0c, 2);
            kinds.push_back({"another VNI", b, 64});
        }
        {
            Bytes b = base;
            uint32_t other = ParseIpv4("198.18.0.99", "");
            std::memcpy(&b[14 + 16], &other, 4);
            FixIpChecksum(b, 14);
            kinds.push_back({"another destination IP", b, 64});
        }
        {
            // A later fragment at offset 24 of the UDP datagram (after a 24-byte first
            // fragment): it holds the inner IPv4 header from its 7th byte on.
            Bytes b(base.begin(), base.begin() + 34);
            b.insert(b.end(), base.begin() + 34 + 24, base.end());
            Put16(b, 16, static_cast<uint16_t>(b.size() - 14));
            Put16(b, 14 + 6, 3);
            FixIpChecksum(b, 14);
            kinds.push_back({"later fragment with the inner header", b, 34 + 6});
        }
        for (const Kind& k : kinds)
        {
            g_case = k.name;
            Run r = TestRun(skel->IngressFd(), k.frame);
            CHECK(r.ret == TC_ACT_OK);
            CHECK(r.out.size() == k.frame.size());
            CHECK(InnerUnmarked(r.out, k.innerIp));
            // Only the two mark bits and the inner checksum changed.
            Bytes expect = k.frame;
            expect[k.innerIp + 1] &= ~ONCACHE_MARK_MASK;
            FixIpChecksum(expect, k.innerIp);
            CHECK(r.out == expect);
        }
        g_case = "later fragment ending before the inner checksum";
        {
            Bytes b(base.begin(), base.begin() + 34);
            b.insert(b.end(), base.begin() + 34 + 24, base.begin() + 34 + 32);
            Put16(b, 16, static_cast<uint16_t>(b.size() - 14));
            Put16(b, 14 + 6, 0x2000 | 3);
            FixIpChecksum(b, 14);
            Run r = TestRun(skel->IngressFd(), b);
            CHECK(r.ret == TC_ACT_OK && r.out.size() == b.size());
            CHECK(r.out.size() > 41 && r.out[41] == (b[41] & ~ONCACHE_MARK_MASK));
        }
        g_case = "control: UDP to another port keeps its bytes";
        {
            Bytes b = base;
            Put16(b, 34 + 2, 53);
            Run r = TestRun(skel->IngressFd(), b);
            CHECK(r.ret == TC_ACT_OK && r.out == b);
            CHECK(r.out[65] == 0x0c);
        }
    }

    g_case = "VXLAN frame not addressed to this NIC: untouched";
    {
        Bytes in = VxlanFrame(false, 0);
        in[5] ^= 0x01; // outer destination MAC
        Run r = TestRun(skel->IngressFd(), in);
        CHECK(r.ret == TC_ACT_OK && r.out == in);
    }

    g_case = "non-IPv4 passes untouched";
    {
        Bytes arp;
        AppendEth(arp, kGwMacA, kPodMacA, 0x0806);
        arp.resize(60, 0xab);
        Bytes v6;
        AppendEth(v6, kGwMacA, kPodMacA, 0x86dd);
        v6.resize(94, 0x60);
        for (const Bytes* in : {&arp, &v6})
        {
            for (int fd :
                 {skel->EgressFd(), skel->IngressFd(), skel->EgressInitFd(), skel->IngressInitFd()})
            {
                Run r = TestRun(fd, *in);
                CHECK(r.ret == TC_ACT_OK && r.out == *in);
            }
        }
    }

    g_case = "truncated IPv4 frames pass untouched";
    {
        Bytes full = VxlanFrame(false, 0);
        // The kernel's BPF_PROG_TEST_RUN refuses an IPv4 frame whose total length disagrees
        // with its size, so the outer total length is cut to match: the UDP/VXLAN headers or
        // the inner frame end early.
        for (size_t len : {size_t(40), size_t(54), size_t(70), size_t(80)})
        {
            Bytes in(full.begin(), full.begin() + len);
            Put16(in, 14 + 2, static_cast<uint16_t>(len - 14));
            FixIpChecksum(in, 14);
            Run r = TestRun(skel->IngressFd(), in);
            CHECK(r.ret == TC_ACT_OK && r.out == in);
            r = TestRun(skel->EgressInitFd(), in);
            CHECK(r.ret == TC_ACT_OK && r.out == in);
        }
        Bytes pod = PodFrame(true, 0);
        Bytes in(pod.begin(), pod.begin() + 36); // TCP ports cut off
        Put16(in, 14 + 2, 22);
        FixIpChecksum(in, 14);
        // A pod packet too short for its ports falls back like any miss: same size, miss mark.
        Run r = TestRun(skel->EgressFd(), in, kVethIfindex);
        CHECK(r.ret == TC_ACT_OK && r.out.size() == in.size());
        CHECK(r.out[15] == ONCACHE_MISS_MARK && HeaderSum(r.out, 14) == 0);
    }

    g_case = "reverse checks: one-sided eviction falls back without a miss mark";
    {
        uint32_t saved = 0;
        CHECK(bpf_map_lookup_elem(m.egressIp, &kPodB, &saved) == 0);
        CHECK(bpf_map_delete_elem(m.egressIp, &kPodB) == 0); // egress L1 evicted
        Run r = TestRun(skel->IngressFd(), VxlanFrame(false, 0x0c));
        CHECK(r.ret == TC_ACT_OK && r.out[64 + 1] == 0x00);
        CHECK(bpf_map_update_elem(m.egressIp, &kPodB, &saved, BPF_ANY) == 0);

        oncache_ingress_info learned{};
        CHECK(bpf_map_lookup_elem(m.ingress, &kPodA, &learned) == 0);
        CHECK(bpf_map_update_elem(m.ingress, &kPodA, &agentEntry, BPF_ANY) == 0); // MACs lost
        r = TestRun(skel->EgressFd(), PodFrame(true, 0x0c), kVethIfindex);
        CHECK(r.ret == TC_ACT_OK && r.out[15] == 0x00);
        CHECK(bpf_map_update_elem(m.ingress, &kPodA, &learned, BPF_ANY) == 0);
        r = TestRun(skel->EgressFd(), PodFrame(true, 0), kVethIfindex);
        CHECK(r.ret == TC_ACT_REDIRECT);
    }

    g_case = "filter entry deleted (policy change): both fast paths fall back";
    {
        CHECK(bpf_map_delete_elem(m.filter, &key) == 0);
        Run r = TestRun(skel->EgressFd(), PodFrame(true, 0), kVethIfindex);
        CHECK(r.ret == TC_ACT_OK && r.out[15] == ONCACHE_MISS_MARK);
        r = TestRun(skel->IngressFd(), VxlanFrame(false, 0));
        CHECK(r.ret == TC_ACT_OK && r.out[64 + 1] == ONCACHE_MISS_MARK);
    }

    g_case = "intra-host traffic teaches ingress learning nothing";
    {
        ClearMap(m.filter, sizeof(oncache_flow_key));
        uint32_t podA2 = ParseIpv4("198.19.1.11", "");
        CHECK(bpf_map_update_elem(m.ingress, &podA2, &agentEntry, BPF_ANY) == 0);
        Bytes in = PodFrame(false, 0x0c);
        std::memcpy(&in[14 + 12], &podA2, 4); // source: another local pod
        FixIpChecksum(in, 14);
        Run r = TestRun(skel->IngressInitFd(), in);
        CHECK(r.ret == TC_ACT_OK && r.out[15] == 0x00);
        oncache_flow_key k = key;
        k.raddr = podA2;
        CHECK(!HasKey(m.filter, &k));
    }

    if (g_failures)
    {
        std::printf("%d of %d checks failed\n", g_failures, g_checks);
        return 1;
    }
    std::printf("PASS: %d checks\n", g_checks);
    return 0;
}
