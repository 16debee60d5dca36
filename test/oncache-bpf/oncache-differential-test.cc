/*
 * Differential test: the ns-3 model's decision logic (ns3::OncacheFastPath,
 * model/oncache/oncache-fast-path.cc) against the real eBPF programs (bpf/oncache/oncache.bpf.c)
 * run by the kernel through BPF_PROG_TEST_RUN. The two share only oncache-abi.h (layouts and
 * constants). Every step feeds one frame to one program on both sides and compares
 *   - the verdict: the return code (TC_ACT_OK or TC_ACT_REDIRECT) and which of the programs'
 *     counters (oncache_stats: hit, miss, reverse, pass, learned) moved, against the model's
 *     verdict;
 *   - the bytes of the frame the program returns;
 *   - the contents of the four caches (each BPF map read back against the model's cache).
 * The test plays one host A (NIC 198.18.0.11, pods a and a2) and its kernel: a small
 * conntrack and policy decide the established mark and drops between the programs, as
 * iptables does on the testbed. Needs root and BPF: exits 77 (ctest SKIP_RETURN_CODE) with a
 * message when not root or when the kernel forbids BPF.
 */
// Tests: oncache-fast-path, oncache.bpf
#include "oncache-bpf-agent.h"
#include "oncache-test-frames.h"
#include "oncache-test-skeleton.h"

#include "ns3/oncache-fast-path.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <cstdio>
#include <cstring>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <linux/pkt_cls.h>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace oncache_test;
using ns3::OncacheFastPath;

namespace
{

oncache_ebpf::Skeleton* g_skel = nullptr;

/// The four programs.
enum Program
{
    EGRESS,
    EGRESS_LEARN,
    INGRESS,
    INGRESS_LEARN
};

const char* const kProgramName[] = {"egress", "egress-learn", "ingress", "ingress-learn"};

using Dump = std::map<Bytes, Bytes>;

/// Every entry of a BPF map, keys and values as bytes.
Dump
DumpMap(int fd, size_t keySize, size_t valueSize)
{
    Dump dump;
    Bytes key(keySize);
    Bytes next(keySize);
    Bytes value(valueSize);
    void* previous = nullptr;
    while (bpf_map_get_next_key(fd, previous, next.data()) == 0)
    {
        if (bpf_map_lookup_elem(fd, next.data(), value.data()) == 0)
        {
            dump[next] = value;
        }
        key = next;
        previous = key.data();
    }
    return dump;
}

template <typename T>
Bytes
AsBytes(const T& x)
{
    const auto* p = reinterpret_cast<const uint8_t*>(&x);
    return Bytes(p, p + sizeof(T));
}

/// Every entry of a model cache, as DumpMap shows a BPF map.
template <typename Cache>
Dump
DumpCache(const Cache& cache)
{
    Dump dump;
    cache.ForEach([&dump](const auto& k, const auto& v) { dump[AsBytes(k)] = AsBytes(v); });
    return dump;
}

std::string
Hex(const Bytes& b)
{
    std::ostringstream os;
    for (uint8_t x : b)
    {
        char s[3];
        std::snprintf(s, sizeof(s), "%02x", x);
        os << s;
    }
    return os.str();
}

/// Lines naming every entry two dumps disagree on.
std::string
DiffDumps(const char* map, const Dump& bpf, const Dump& model)
{
    std::ostringstream os;
    std::set<Bytes> keys;
    for (const auto& [k, v] : bpf)
    {
        keys.insert(k);
    }
    for (const auto& [k, v] : model)
    {
        keys.insert(k);
    }
    for (const Bytes& k : keys)
    {
        auto b = bpf.find(k);
        auto m = model.find(k);
        std::string bv = b == bpf.end() ? "absent" : Hex(b->second);
        std::string mv = m == model.end() ? "absent" : Hex(m->second);
        if (bv != mv)
        {
            os << map << "[" << Hex(k) << "]: bpf " << bv << ", model " << mv << "\n";
        }
    }
    return os.str();
}

/// The BPF side and the model side of one host, and the comparison of both.
class Harness
{
  public:
    Harness()
    {
        m_fd[0] = g_skel->MapFd(ONCACHE_MAP_EGRESSIP);
        m_fd[1] = g_skel->MapFd(ONCACHE_MAP_EGRESS);
        m_fd[2] = g_skel->MapFd(ONCACHE_MAP_INGRESS);
        m_fd[3] = g_skel->MapFd(ONCACHE_MAP_FILTER);
        m_fd[4] = g_skel->MapFd(ONCACHE_MAP_DEV);
        const size_t keySizes[] = {4, 4, 4, sizeof(oncache_flow_key), 4};
        for (int i = 0; i < 5; ++i)
        {
            Bytes key(keySizes[i]);
            while (bpf_map_get_next_key(m_fd[i], nullptr, key.data()) == 0)
            {
                bpf_map_delete_elem(m_fd[i], key.data());
            }
        }
        m_statsFd = g_skel->MapFd(ONCACHE_MAP_STATS);
        m_cpus = libbpf_num_possible_cpus();
        oncache_dev_info dev{};
        dev.ip = kHostA;
        std::memcpy(dev.mac, kNicMacA, 6);
        dev.vni = kVni;
        EXPECT_EQ(bpf_map_update_elem(m_fd[4], &kNicIfindex, &dev, BPF_ANY), 0);
        model.SetDevice(kNicIfindex, dev);
        AddLocalPod(kPodA, kVethA);
    }

    /// The agent's pod add: an ingress entry with zero MACs, on both sides.
    void AddLocalPod(uint32_t pod, uint32_t veth)
    {
        oncache_ingress_info entry{};
        entry.ifindex = veth;
        EXPECT_EQ(bpf_map_update_elem(m_fd[2], &pod, &entry, BPF_ANY), 0);
        model.AddLocalPod(pod, veth);
    }

    /// Delete one entry of a cache on both sides (an agent invalidation or an LRU eviction).
    void Delete(const char* map, const void* key)
    {
        if (!std::strcmp(map, ONCACHE_MAP_EGRESSIP))
        {
            uint32_t k;
            std::memcpy(&k, key, 4);
            EXPECT_EQ(model.DeleteRemotePod(k), bpf_map_delete_elem(m_fd[0], key) == 0);
        }
        else if (!std::strcmp(map, ONCACHE_MAP_EGRESS))
        {
            uint32_t k;
            std::memcpy(&k, key, 4);
            EXPECT_EQ(model.DeleteHost(k), bpf_map_delete_elem(m_fd[1], key) == 0);
        }
        else if (!std::strcmp(map, ONCACHE_MAP_INGRESS))
        {
            uint32_t k;
            std::memcpy(&k, key, 4);
            EXPECT_EQ(model.DeleteLocalPod(k), bpf_map_delete_elem(m_fd[2], key) == 0);
        }
        else
        {
            oncache_flow_key k;
            std::memcpy(&k, key, sizeof(k));
            EXPECT_EQ(model.DeleteFlow(k), bpf_map_delete_elem(m_fd[3], key) == 0);
        }
    }

    /// \return every disagreement between the BPF maps and the model's caches ("" if none)
    std::string CompareCaches() const
    {
        return DiffDumps(ONCACHE_MAP_EGRESSIP,
                         DumpMap(m_fd[0], 4, 4),
                         DumpCache(model.GetEgressIpCache())) +
               DiffDumps(ONCACHE_MAP_EGRESS,
                         DumpMap(m_fd[1], 4, sizeof(oncache_egress_info)),
                         DumpCache(model.GetEgressCache())) +
               DiffDumps(ONCACHE_MAP_INGRESS,
                         DumpMap(m_fd[2], 4, sizeof(oncache_ingress_info)),
                         DumpCache(model.GetIngressCache())) +
               DiffDumps(ONCACHE_MAP_FILTER,
                         DumpMap(m_fd[3], sizeof(oncache_flow_key), sizeof(oncache_filter_action)),
                         DumpCache(model.GetFilterCache()));
    }

    /// What one program did on one side.
    struct Outcome
    {
        bool redirect = false;
        std::string counter; //!< the counter that moved (BPF) or the verdict (model)
        Bytes out;
    };

    /**
     * \brief Run a frame through a program on both sides and compare verdicts, bytes and
     *        caches; every disagreement is a test failure. ifindex: the device the program
     *        runs on (the NIC, or for the egress fast path the sending pod's host veth).
     * \return the BPF side's outcome (the frame the kernel passes on)
     */
    Outcome Step(Program program,
                 const Bytes& in,
                 const std::string& what,
                 uint32_t ifindex = kNicIfindex)
    {
        ++m_steps;
        Outcome bpf = RunBpf(program, in, ifindex);
        Outcome model = RunModel(program, in, bpf, ifindex);
        std::string where = std::string(kProgramName[program]) + ": " + what;
        EXPECT_EQ(bpf.redirect, model.redirect) << where;
        EXPECT_EQ(bpf.counter, model.counter) << where;
        EXPECT_EQ(Hex(bpf.out), Hex(model.out)) << where;
        EXPECT_EQ(CompareCaches(), "") << where;
        return bpf;
    }

    int Steps() const
    {
        return m_steps;
    }

    OncacheFastPath model;

  private:
    std::vector<uint64_t> Stats() const
    {
        std::vector<uint64_t> sums(ONCACHE_STAT_COUNT);
        std::vector<uint64_t> perCpu(m_cpus);
        for (uint32_t i = 0; i < ONCACHE_STAT_COUNT; ++i)
        {
            if (bpf_map_lookup_elem(m_statsFd, &i, perCpu.data()) == 0)
            {
                for (uint64_t v : perCpu)
                {
                    sums[i] += v;
                }
            }
        }
        return sums;
    }

    Outcome RunBpf(Program program, const Bytes& in, uint32_t ifindex)
    {
        const int fds[] = {g_skel->EgressFd(),
                           g_skel->EgressInitFd(),
                           g_skel->IngressFd(),
                           g_skel->IngressInitFd()};
        std::vector<uint64_t> before = Stats();
        Outcome o;
        o.out.resize(in.size() + 256);
        __sk_buff ctx{};
        ctx.ifindex = ifindex;
        LIBBPF_OPTS(bpf_test_run_opts,
                    opts,
                    .data_in = in.data(),
                    .data_out = o.out.data(),
                    .data_size_in = static_cast<uint32_t>(in.size()),
                    .data_size_out = static_cast<uint32_t>(o.out.size()),
                    .ctx_in = &ctx,
                    .ctx_size_in = sizeof(ctx),
                    .repeat = 1);
        int err = bpf_prog_test_run_opts(fds[program], &opts);
        EXPECT_EQ(err, 0) << "BPF_PROG_TEST_RUN: " << std::strerror(-err);
        o.out.resize(err ? 0 : opts.data_size_out);
        o.redirect = opts.retval == TC_ACT_REDIRECT;
        EXPECT_TRUE(opts.retval == TC_ACT_OK || opts.retval == TC_ACT_REDIRECT) << opts.retval;
        std::vector<uint64_t> after = Stats();
        static const char* const names[] = {"egress-hit",
                                            "egress-miss",
                                            "egress-reverse",
                                            "egress-pass",
                                            "ingress-hit",
                                            "ingress-miss",
                                            "ingress-reverse",
                                            "ingress-pass",
                                            "learn-egress",
                                            "learn-ingress",
                                            "error",
                                            "egress-spoof",
                                            "ingress-spoof"};
        for (uint32_t i = 0; i < ONCACHE_STAT_COUNT; ++i)
        {
            for (uint64_t n = before[i]; n < after[i]; ++n)
            {
                o.counter += std::string(o.counter.empty() ? "" : ",") + names[i];
            }
        }
        return o;
    }

    Outcome RunModel(Program program, const Bytes& in, const Outcome& bpf, uint32_t ifindex)
    {
        OncacheFastPath::Frame frame;
        frame.bytes = in;
        frame.length = static_cast<uint32_t>(in.size());
        Outcome o;
        static const char* const egress[] = {"egress-pass",
                                             "egress-miss",
                                             "egress-reverse",
                                             "egress-hit",
                                             "egress-spoof"};
        static const char* const ingress[] = {"ingress-pass",
                                              "ingress-miss",
                                              "ingress-reverse",
                                              "ingress-hit",
                                              "ingress-spoof"};
        switch (program)
        {
        case EGRESS: {
            // The outer source port comes from the kernel's skb hash (a seeded jhash of the
            // flow): the model is given the hash bits the kernel's port shows.
            uint32_t hash = 0;
            if (bpf.redirect && bpf.out.size() >= 36)
            {
                hash = Get16(bpf.out, ONCACHE_OUTER_UDP_OFF) - ONCACHE_SPORT_BASE;
            }
            OncacheFastPath::Result r = model.Egress(frame, hash, ifindex);
            o.redirect = r.redirect;
            // The kernel does not report its redirect target: the model's must be the NIC.
            EXPECT_TRUE(!r.redirect || r.ifindex == kNicIfindex) << r.ifindex;
            o.counter = egress[r.verdict];
            break;
        }
        case INGRESS: {
            OncacheFastPath::Result r = model.Ingress(frame, kNicIfindex);
            o.redirect = r.redirect;
            // ... and here the destination pod's host veth.
            if (r.redirect)
            {
                uint32_t dst;
                std::memcpy(&dst, &frame.bytes[ONCACHE_ETH_LEN + 16], 4);
                EXPECT_EQ(r.ifindex, dst == kPodA2 ? kVethA2 : kVethA);
            }
            o.counter = ingress[r.verdict];
            break;
        }
        case EGRESS_LEARN:
            o.counter = model.EgressLearn(frame, kNicIfindex) ? "learn-egress" : "";
            break;
        case INGRESS_LEARN:
            o.counter = model.IngressLearn(frame) ? "learn-ingress" : "";
            break;
        }
        o.out = frame.bytes;
        EXPECT_EQ(frame.length, frame.bytes.size());
        return o;
    }

    int m_fd[5];
    int m_statsFd;
    int m_cpus;
    int m_steps = 0;
};

/**
 * The kernel between the programs on host A: conntrack (a flow is established once a packet
 * went the other way), the policy (a set of denied flows) and the vxlan device. Send and
 * Receive carry one pod packet through every program it meets, as on the testbed.
 */
class HostA
{
  public:
    explicit HostA(Harness& h)
        : m_h(h)
    {
    }

    /// How a packet went.
    enum Path
    {
        FAST,
        SLOW,
        DENIED
    };

    /// Deny a flow (either direction) in the policy.
    void Deny(const Flow& f)
    {
        m_denied.insert(f.Canonical());
    }

    /// Allow every flow again.
    void AllowAll()
    {
        m_denied.clear();
    }

    /// A local pod sends: egress fast path, else the overlay and egress learning.
    Path Send(const Flow& f, uint8_t tos, uint8_t tcpFlags = kAck, uint32_t vni = kVni)
    {
        Bytes pod = PodFrame(f, tos, tcpFlags, kGwMacA, MacOfPod(f.src));
        Harness::Outcome e =
            m_h.Step(EGRESS, pod, Describe("send", f, tos), f.src == kPodA2 ? kVethA2 : kVethA);
        if (e.redirect)
        {
            return FAST;
        }
        if (m_denied.count(f.Canonical()))
        {
            return DENIED;
        }
        Bytes inner(e.out.begin() + ONCACHE_ETH_LEN, e.out.end());
        if (Track(f))
        {
            SetTosBits(inner, 0, ONCACHE_EST_MARK); // iptables mangle FORWARD rule
        }
        if (IsLocal(f.dst))
        {
            // Intra-host: the bridge hands the packet to the other pod's eth0.
            Bytes frame = WithEth(inner, MacOfPod(f.dst), MacOfPod(f.src));
            m_h.Step(INGRESS_LEARN, frame, Describe("intra-host", f, tos));
            return SLOW;
        }
        Bytes vx = Vxlan(kHostA, kHostB, kNicMacB, kNicMacA, kVtepMacB, kVtepMacA, inner, vni);
        m_h.Step(EGRESS_LEARN, vx, Describe("send/learn", f, tos));
        return SLOW;
    }

    /// A remote pod's packet arrives: ingress fast path, else the overlay and ingress learning.
    Path Receive(const Flow& f, uint8_t tos, uint8_t tcpFlags = kAck, uint32_t vni = kVni)
    {
        Bytes inner = IpPacket(f, tos, tcpFlags);
        Bytes vx = Vxlan(kHostB, kHostA, kNicMacA, kNicMacB, kVtepMacA, kVtepMacB, inner, vni);
        Harness::Outcome i = m_h.Step(INGRESS, vx, Describe("receive", f, tos));
        if (i.redirect)
        {
            return FAST;
        }
        if (m_denied.count(f.Canonical()) || i.out.size() < ONCACHE_INNER_IP_OFF)
        {
            return DENIED;
        }
        Bytes decap(i.out.begin() + ONCACHE_INNER_IP_OFF, i.out.end());
        if (Track(f))
        {
            SetTosBits(decap, 0, ONCACHE_EST_MARK);
        }
        Bytes frame = WithEth(decap, MacOfPod(f.dst), kGwMacA);
        m_h.Step(INGRESS_LEARN, frame, Describe("receive/learn", f, tos));
        return SLOW;
    }

    void ForgetConnections()
    {
        m_conntrack.clear();
    }

  private:
    /// \return whether conntrack sees the packet as established (and records it)
    bool Track(const Flow& f)
    {
        auto it = m_conntrack.find(f.Canonical());
        if (it == m_conntrack.end())
        {
            m_conntrack[f.Canonical()] = {f.src, false};
            return false;
        }
        if (it->second.first != f.src)
        {
            it->second.second = true; // a reply
        }
        return it->second.second;
    }

    bool IsLocal(uint32_t ip) const
    {
        return ip == kPodA || ip == kPodA2;
    }

    static std::string Describe(const char* what, const Flow& f, uint8_t tos)
    {
        std::ostringstream os;
        os << what << " " << f.ToString() << " tos " << static_cast<int>(tos);
        return os.str();
    }

    Harness& m_h;
    std::set<Flow> m_denied;
    std::map<Flow, std::pair<uint32_t, bool>> m_conntrack; //!< flow -> initiator, replied
};

/// A connection's packets until both directions run on the fast path.
void
Handshake(HostA& host, const Flow& f, uint8_t tos = 0)
{
    host.Send(f, tos, kSyn);
    host.Receive(f.Reversed(), tos, kSyn | kAck);
    host.Send(f, tos, kAck);
    host.Receive(f.Reversed(), tos, kAck);
}

const Flow kTcpAB{kPodA, kPodB, 1000, 80, kTcp};

TEST(OncacheDifferential, TcpHandshakeDataAndReset)
{
    Harness h;
    HostA host(h);
    Handshake(host, kTcpAB);
    // Both directions learned: data runs on the fast paths.
    for (int i = 0; i < 4; ++i)
    {
        EXPECT_EQ(host.Send(kTcpAB, 0), HostA::FAST);
        EXPECT_EQ(host.Receive(kTcpAB.Reversed(), 0), HostA::FAST);
    }
    // A reset goes through the cache as well; the same ports' next connection finds it.
    EXPECT_EQ(host.Send(kTcpAB, 0, kRst | kAck), HostA::FAST);
    host.ForgetConnections();
    EXPECT_EQ(host.Send(kTcpAB, 0, kSyn), HostA::FAST);
    EXPECT_EQ(host.Receive(kTcpAB.Reversed(), 0, kRst), HostA::FAST);
    // A second connection from another port learns its own filter entry.
    Flow other = kTcpAB;
    other.sport = 1001;
    EXPECT_EQ(host.Send(other, 0, kSyn), HostA::SLOW);
    Handshake(host, other);
    EXPECT_EQ(host.Send(other, 0), HostA::FAST);
}

TEST(OncacheDifferential, UdpAndIcmp)
{
    Harness h;
    HostA host(h);
    Flow udp{kPodA, kPodB, 5353, 53, kUdp};
    Flow icmp{kPodA, kPodB, 0, 0, kIcmp};
    for (const Flow& f : {udp, icmp})
    {
        // Conntrack sees the first reply as established: it teaches ingress learning, the
        // next request egress learning, then both directions hit.
        EXPECT_EQ(host.Send(f, 0), HostA::SLOW);
        EXPECT_EQ(host.Receive(f.Reversed(), 0), HostA::SLOW);
        EXPECT_EQ(host.Send(f, 0), HostA::SLOW);
        EXPECT_EQ(host.Receive(f.Reversed(), 0), HostA::FAST);
        EXPECT_EQ(host.Send(f, 0), HostA::FAST);
    }
}

TEST(OncacheDifferential, EvictionsAndReverseChecks)
{
    Harness h;
    HostA host(h);
    Handshake(host, kTcpAB);
    ASSERT_EQ(host.Send(kTcpAB, 0), HostA::FAST);
    // Egress level 1 evicted: egress misses, ingress fails its reverse check (no mark).
    h.Delete(ONCACHE_MAP_EGRESSIP, &kPodB);
    host.Receive(kTcpAB.Reversed(), 0);
    host.Send(kTcpAB, 0); // relearns level 1
    EXPECT_EQ(host.Receive(kTcpAB.Reversed(), 0), HostA::FAST);
    // Level 2 evicted: egress misses and relearns the template.
    h.Delete(ONCACHE_MAP_EGRESS, &kHostB);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::SLOW);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::FAST);
    // The filter entry evicted: both directions miss, then relearn.
    oncache_flow_key key = kTcpAB.Key();
    h.Delete(ONCACHE_MAP_FILTER, &key);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::SLOW);
    EXPECT_EQ(host.Receive(kTcpAB.Reversed(), 0), HostA::SLOW);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::FAST);
}

TEST(OncacheDifferential, Invalidations)
{
    Harness h;
    HostA host(h);
    Handshake(host, kTcpAB);
    // Pod a deleted and re-added by the agent: its MACs are gone, egress fails the reverse
    // check until ingress learning fills them again.
    h.Delete(ONCACHE_MAP_INGRESS, &kPodA);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::SLOW);
    EXPECT_EQ(host.Receive(kTcpAB.Reversed(), 0), HostA::SLOW);
    h.AddLocalPod(kPodA, kVethA);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::SLOW);
    EXPECT_EQ(host.Receive(kTcpAB.Reversed(), 0), HostA::SLOW);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::FAST);
    // Remote pod b migrated, remote host B removed.
    h.Delete(ONCACHE_MAP_EGRESSIP, &kPodB);
    h.Delete(ONCACHE_MAP_EGRESS, &kHostB);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::SLOW);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::FAST);
}

TEST(OncacheDifferential, DeniedFlows)
{
    Harness h;
    HostA host(h);
    Flow denied{kPodA, kPodB, 1000, 81, kTcp};
    host.Deny(denied);
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_EQ(host.Send(denied, 0, kSyn), HostA::DENIED);
        EXPECT_EQ(host.Receive(denied.Reversed(), 0, kSyn | kAck), HostA::DENIED);
    }
    // A flow denied after it was cached: the policy change deletes its filter entry.
    host.AllowAll();
    Handshake(host, kTcpAB);
    ASSERT_EQ(host.Send(kTcpAB, 0), HostA::FAST);
    host.Deny(kTcpAB);
    oncache_flow_key key = kTcpAB.Key();
    h.Delete(ONCACHE_MAP_FILTER, &key);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::DENIED);
    EXPECT_EQ(host.Receive(kTcpAB.Reversed(), 0), HostA::DENIED);
}

TEST(OncacheDifferential, DscpMarkedPods)
{
    for (uint8_t tos : {uint8_t(0xb8), uint8_t(0x28), uint8_t(0xbc), uint8_t(0x0c), uint8_t(0x04)})
    {
        Harness h;
        HostA host(h);
        // The first packet of each direction is not established: nothing may be learned,
        // whatever DSCP the pods use.
        EXPECT_EQ(host.Send(kTcpAB, tos, kSyn), HostA::SLOW);
        EXPECT_EQ(h.model.GetFilterCache().Size(), 0u) << int(tos);
        EXPECT_EQ(h.model.GetEgressCache().Size(), 0u) << int(tos);
        EXPECT_EQ(host.Receive(kTcpAB.Reversed(), tos, kSyn | kAck), HostA::SLOW);
        EXPECT_EQ(host.Send(kTcpAB, tos), HostA::SLOW);
        EXPECT_EQ(host.Receive(kTcpAB.Reversed(), tos), HostA::FAST);
        EXPECT_EQ(host.Send(kTcpAB, tos), HostA::FAST);
    }
}

TEST(OncacheDifferential, ForeignVni)
{
    Harness h;
    HostA host(h);
    for (int i = 0; i < 3; ++i)
    {
        host.Send(kTcpAB, 0, kAck, 2);
        host.Receive(kTcpAB.Reversed(), 0, kAck, 2);
    }
    EXPECT_EQ(h.model.GetFilterCache().Size(), 0u);
    Handshake(host, kTcpAB);
    EXPECT_EQ(host.Receive(kTcpAB.Reversed(), 0, kAck, 2), HostA::SLOW);
}

TEST(OncacheDifferential, TruncatedAndNonIpv4Frames)
{
    Harness h;
    HostA host(h);
    Handshake(host, kTcpAB);
    Bytes full = Vxlan(kHostB,
                       kHostA,
                       kNicMacA,
                       kNicMacB,
                       kVtepMacA,
                       kVtepMacB,
                       IpPacket(kTcpAB.Reversed(), 0x0c, kAck),
                       kVni);
    for (size_t len : {size_t(40), size_t(54), size_t(70), size_t(80), size_t(85), size_t(86)})
    {
        Bytes cut(full.begin(), full.begin() + len);
        Put16(cut, ONCACHE_OUTER_IP_OFF + 2, static_cast<uint16_t>(len - ONCACHE_ETH_LEN));
        FixIpChecksum(cut, ONCACHE_OUTER_IP_OFF);
        h.Step(INGRESS, cut, "truncated " + std::to_string(len));
        h.Step(EGRESS_LEARN, cut, "truncated " + std::to_string(len));
    }
    Bytes pod = PodFrame(kTcpAB, 0x0c, kAck, kGwMacA, kPodMacA);
    for (size_t len : {size_t(34), size_t(36)})
    {
        Bytes cut(pod.begin(), pod.begin() + len);
        Put16(cut, ONCACHE_ETH_LEN + 2, static_cast<uint16_t>(len - ONCACHE_ETH_LEN));
        FixIpChecksum(cut, ONCACHE_ETH_LEN);
        h.Step(EGRESS, cut, "truncated " + std::to_string(len), kVethA);
        h.Step(INGRESS_LEARN, cut, "truncated " + std::to_string(len));
    }
    Bytes arp;
    AppendEth(arp, kGwMacA, kPodMacA, 0x0806);
    arp.resize(60, 0xab);
    Bytes v6;
    AppendEth(v6, kGwMacA, kPodMacA, 0x86dd);
    v6.resize(94, 0x60);
    for (const Bytes* in : {&arp, &v6})
    {
        for (Program p : {EGRESS, EGRESS_LEARN, INGRESS, INGRESS_LEARN})
        {
            h.Step(p, *in, "non-IPv4");
        }
    }
    // An IPv4 fragment falls back on the fast paths.
    Bytes frag = PodFrame(kTcpAB, 0, kAck, kGwMacA, kPodMacA);
    Put16(frag, ONCACHE_ETH_LEN + 6, 0x2000); // MF
    FixIpChecksum(frag, ONCACHE_ETH_LEN);
    h.Step(EGRESS, frag, "fragment", kVethA);
}

TEST(OncacheDifferential, TwoPodsOnOneHost)
{
    Harness h;
    h.AddLocalPod(kPodA2, kVethA2);
    HostA host(h);
    Flow a2b{kPodA2, kPodB, 2000, 80, kTcp};
    Handshake(host, kTcpAB);
    Handshake(host, a2b);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::FAST);
    EXPECT_EQ(host.Send(a2b, 0), HostA::FAST);
    EXPECT_EQ(host.Receive(a2b.Reversed(), 0), HostA::FAST);
    // Intra-host traffic never teaches ingress learning (the source is local).
    Flow a2a{kPodA, kPodA2, 3000, 80, kTcp};
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_EQ(host.Send(a2a, 0), HostA::SLOW);
        EXPECT_EQ(host.Send(a2a.Reversed(), 0), HostA::SLOW);
    }
    // Deleting pod a2 leaves pod a's fast path alone.
    h.Delete(ONCACHE_MAP_INGRESS, &kPodA2);
    EXPECT_EQ(host.Send(kTcpAB, 0), HostA::FAST);
    EXPECT_EQ(host.Receive(a2b.Reversed(), 0), HostA::SLOW);
}

TEST(OncacheDifferential, SpoofedSourceFromAnotherPod)
{
    Harness h;
    h.AddLocalPod(kPodA2, kVethA2);
    HostA host(h);
    Handshake(host, kTcpAB);
    ASSERT_EQ(host.Send(kTcpAB, 0), HostA::FAST);
    // Pod a2 sends a's cached flow with a's address from its own veth: both sides refuse the
    // fast path and clear the marks (a2's own 0x0c included).
    Bytes forged = PodFrame(kTcpAB, 0x0c, kAck, kGwMacA, kPodMacA2);
    Harness::Outcome o = h.Step(EGRESS, forged, "a2 forging a's address", kVethA2);
    EXPECT_FALSE(o.redirect);
    EXPECT_EQ(o.counter, "egress-spoof");
    ASSERT_GT(o.out.size(), 15u);
    EXPECT_EQ(o.out[15] & ONCACHE_MARK_MASK, 0);
    // From the host itself (the loopback, no pod's veth) likewise.
    o = h.Step(EGRESS, forged, "a's address from the loopback", kNicIfindex);
    EXPECT_EQ(o.counter, "egress-spoof");
    // Control: the same frame from a's own veth is a hit.
    o = h.Step(EGRESS, forged, "a from its own veth", kVethA);
    EXPECT_TRUE(o.redirect);
    EXPECT_EQ(o.counter, "egress-hit");
}

TEST(OncacheDifferential, SpoofedUnderlayHost)
{
    Harness h;
    HostA host(h);
    Handshake(host, kTcpAB);
    ASSERT_EQ(host.Receive(kTcpAB.Reversed(), 0), HostA::FAST);
    // Pod b lives on host B: the same packet from host C's address is refused.
    const uint32_t hostC = htonl(0xc6120000 | 13); // 198.18.0.13
    Bytes inner = IpPacket(kTcpAB.Reversed(), 0x0c, kAck);
    Bytes forged = Vxlan(hostC, kHostA, kNicMacA, kNicMacB, kVtepMacA, kVtepMacB, inner, kVni);
    Harness::Outcome o = h.Step(INGRESS, forged, "b's packet from host C");
    EXPECT_FALSE(o.redirect);
    EXPECT_EQ(o.counter, "ingress-spoof");
    ASSERT_GT(o.out.size(), 65u);
    EXPECT_EQ(o.out[65] & ONCACHE_MARK_MASK, 0);
    // Control: from host B it is a hit.
    Bytes genuine = Vxlan(kHostB, kHostA, kNicMacA, kNicMacB, kVtepMacA, kVtepMacB, inner, kVni);
    o = h.Step(INGRESS, genuine, "b's packet from host B");
    EXPECT_TRUE(o.redirect);
    EXPECT_EQ(o.counter, "ingress-hit");
}

TEST(OncacheDifferential, MarksClearedOnFramesNotTaken)
{
    Harness h;
    HostA host(h);
    Handshake(host, kTcpAB);
    Bytes inner = IpPacket(kTcpAB.Reversed(), 0x0c, kAck);
    Bytes base = Vxlan(kHostB, kHostA, kNicMacA, kNicMacB, kVtepMacA, kVtepMacB, inner, kVni);
    struct Kind
    {
        std::string name;
        Bytes frame;
        size_t innerIp; //!< where the inner IPv4 header is, 0: no inner header to check
    };
    std::vector<Kind> kinds;
    {
        Bytes b(base.begin(), base.begin() + 34);
        b[14] = 0x48; // 12 bytes of options
        b.insert(b.end(), 12, 1);
        b.insert(b.end(), base.begin() + 34, base.end());
        Put16(b, 16, static_cast<uint16_t>(b.size() - 14));
        FixIpChecksum(b, 14);
        kinds.push_back({"outer IP options", b, 76});
    }
    {
        Bytes b = base;
        Put16(b, 14 + 6, 0x2000);
        FixIpChecksum(b, 14);
        kinds.push_back({"outer first fragment", b, 64});
    }
    {
        Bytes b = base;
        std::memset(b.data(), 0xff, 6);
        kinds.push_back({"broadcast destination MAC", b, 64});
    }
    kinds.push_back({"another VNI",
                     Vxlan(kHostB, kHostA, kNicMacA, kNicMacB, kVtepMacA, kVtepMacB, inner, 2),
                     64});
    for (size_t offset : {size_t(8), size_t(16), size_t(24), size_t(32)})
    {
        // A later fragment at this offset of the UDP datagram, after a tiny first one.
        Bytes b(base.begin(), base.begin() + 34);
        b.insert(b.end(), base.begin() + 34 + offset, base.end());
        Put16(b, 16, static_cast<uint16_t>(b.size() - 14));
        Put16(b, 14 + 6, static_cast<uint16_t>(offset / 8));
        FixIpChecksum(b, 14);
        kinds.push_back({"later fragment at " + std::to_string(offset), b,
                         offset < 32 ? 64 - offset : 0});
    }
    for (const Kind& k : kinds)
    {
        Harness::Outcome o = h.Step(INGRESS, k.frame, k.name);
        EXPECT_FALSE(o.redirect) << k.name;
        if (k.innerIp)
        {
            ASSERT_GT(o.out.size(), k.innerIp + 20) << k.name;
            EXPECT_EQ(o.out[k.innerIp + 1] & ONCACHE_MARK_MASK, 0) << k.name;
            EXPECT_EQ(HeaderSum(o.out, k.innerIp), 0) << k.name;
        }
        else
        {
            EXPECT_EQ(Hex(o.out), Hex(k.frame)) << k.name << ": beyond the inner header";
        }
    }
    // Control: UDP to another port is not VXLAN: its bytes stay as they are.
    Bytes other = base;
    Put16(other, ONCACHE_OUTER_UDP_OFF + 2, 53);
    Harness::Outcome o = h.Step(INGRESS, other, "UDP to port 53");
    EXPECT_EQ(Hex(o.out), Hex(other));
}

TEST(OncacheDifferential, NegativeControlDetectsADifference)
{
    Harness h;
    HostA host(h);
    Handshake(host, kTcpAB);
    ASSERT_EQ(h.CompareCaches(), "");
    // Perturb one model cache entry: the comparison must name it.
    oncache_filter_action wrong{1, 0};
    h.model.SetFilterEntry(kTcpAB.Key(), wrong);
    std::string diff = h.CompareCaches();
    EXPECT_NE(diff.find(ONCACHE_MAP_FILTER), std::string::npos) << diff;
    // And a step reports it: the kernel hits, the model misses (the failures are caught).
    ::testing::TestPartResultArray failures;
    {
        ::testing::ScopedFakeTestPartResultReporter catcher(
            ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD,
            &failures);
        h.Step(EGRESS, PodFrame(kTcpAB, 0, kAck, kGwMacA, kPodMacA), "perturbed model", kVethA);
    }
    std::string reported;
    for (int i = 0; i < failures.size(); ++i)
    {
        reported += failures.GetTestPartResult(i).message();
    }
    EXPECT_GE(failures.size(), 3) << reported; // verdict, counter and bytes at least
    EXPECT_NE(reported.find("egress-hit"), std::string::npos) << reported;
    EXPECT_NE(reported.find("egress-miss"), std::string::npos) << reported;
}

} // namespace

int
main(int argc, char** argv)
{
    int status = 0;
    std::unique_ptr<oncache_ebpf::Skeleton> skel = OncacheLoadForTest(&status);
    if (!skel)
    {
        return status;
    }
    if (!OncacheTestDevices({kVethA, kVethA2}, &status))
    {
        return status;
    }
    g_skel = skel.get();
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
