#include "oncache-bpf-agent.h"

#include "oncache.skel.h"

#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <linux/magic.h>
#include <net/if.h>
#include <sched.h>
#include <stdexcept>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace oncache_ebpf
{
namespace
{

// Our tc filters: one fixed handle and priority, so detaching never touches anyone else's.
constexpr uint32_t kTcHandle = 0x0ca1;
constexpr uint32_t kTcPriority = 1;

const char* const kProgNames[] = {"oncache_egress",
                                  "oncache_egress_init",
                                  "oncache_ingress",
                                  "oncache_ingress_init"};

[[noreturn]] void
Fail(const std::string& what, int err)
{
    throw std::runtime_error(what + ": " + std::strerror(err < 0 ? -err : err));
}

int
LibbpfPrint(enum libbpf_print_level level, const char* format, va_list args)
{
    // Warnings and errors only: the verifier log of a refused program is among them.
    if (level == LIBBPF_DEBUG || level == LIBBPF_INFO)
    {
        return 0;
    }
    return std::vfprintf(stderr, format, args);
}

struct Fd
{
    int fd{-1};

    explicit Fd(int f)
        : fd(f)
    {
    }

    ~Fd()
    {
        if (fd >= 0)
        {
            close(fd);
        }
    }

    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
};

void
EnsureBpffs(const std::string& dir)
{
    fs::create_directories(dir);

    struct statfs st
    {
    };

    if (statfs(dir.c_str(), &st) == 0 && st.f_type == BPF_FS_MAGIC)
    {
        return;
    }
    if (mount("bpf", dir.c_str(), "bpf", 0, "mode=0700") != 0)
    {
        Fail("cannot mount bpffs on " + dir, errno);
    }
}

int
OpenPinned(const std::string& path)
{
    int fd = bpf_obj_get(path.c_str());
    if (fd < 0)
    {
        Fail("cannot open pinned object " + path + " (was oncache-agent init run?)", errno);
    }
    return fd;
}

unsigned
IfIndex(const std::string& dev)
{
    unsigned index = if_nametoindex(dev.c_str());
    if (index == 0)
    {
        Fail("no network device '" + dev + "'", errno);
    }
    return index;
}

void
TcAttach(unsigned ifindex, bpf_tc_attach_point where, int progFd, const std::string& what)
{
    LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = static_cast<int>(ifindex), .attach_point = where);
    // The clsact qdisc, shared by both directions: it may exist already (quietly).
    libbpf_print_fn_t previous = libbpf_set_print(nullptr);
    int err = bpf_tc_hook_create(&hook);
    libbpf_set_print(previous);
    if (err && err != -EEXIST)
    {
        Fail("cannot create the clsact qdisc on " + what, err);
    }
    LIBBPF_OPTS(bpf_tc_opts,
                opts,
                .prog_fd = progFd,
                .flags = BPF_TC_F_REPLACE,
                .handle = kTcHandle,
                .priority = kTcPriority);
    err = bpf_tc_attach(&hook, &opts);
    if (err)
    {
        Fail("cannot attach to " + what, err);
    }
}

void
TcDetach(unsigned ifindex, bpf_tc_attach_point where)
{
    LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = static_cast<int>(ifindex), .attach_point = where);
    LIBBPF_OPTS(bpf_tc_opts, opts, .handle = kTcHandle, .priority = kTcPriority);
    // An absent filter or qdisc means nothing to do: keep libbpf's message about it quiet.
    libbpf_print_fn_t previous = libbpf_set_print(nullptr);
    bpf_tc_detach(&hook, &opts);
    libbpf_set_print(previous);
}

void
DeviceAddress(const std::string& dev, uint32_t& ip, uint8_t mac[6])
{
    Fd sock(socket(AF_INET, SOCK_DGRAM, 0));
    if (sock.fd < 0)
    {
        Fail("socket", errno);
    }

    struct ifreq req
    {
    };

    std::strncpy(req.ifr_name, dev.c_str(), IFNAMSIZ - 1);
    if (ioctl(sock.fd, SIOCGIFADDR, &req) != 0)
    {
        Fail("device '" + dev + "' has no IPv4 address", errno);
    }
    ip = reinterpret_cast<sockaddr_in*>(&req.ifr_addr)->sin_addr.s_addr;
    if (ioctl(sock.fd, SIOCGIFHWADDR, &req) != 0)
    {
        Fail("device '" + dev + "' has no MAC address", errno);
    }
    std::memcpy(mac, req.ifr_hwaddr.sa_data, 6);
}

std::string
StateDir(const HostConfig& host)
{
    return host.stateRoot + "/" + host.name;
}

// Every entry of a pinned map of this host.
template <typename K, typename V>
std::vector<std::pair<K, V>>
ReadAll(const HostConfig& host, const char* map)
{
    Fd fd(OpenPinned(PinDir(host) + "/" + map));
    std::vector<std::pair<K, V>> entries;
    K key{};
    K next{};
    const K* prev = nullptr;
    while (bpf_map_get_next_key(fd.fd, prev, &next) == 0)
    {
        V value{};
        if (bpf_map_lookup_elem(fd.fd, &next, &value) == 0)
        {
            entries.emplace_back(next, value);
        }
        key = next;
        prev = &key;
    }
    return entries;
}

// Deletes every entry of a pinned map for which del(key, value) holds; returns how many.
template <typename K, typename V>
unsigned
DeleteIf(const HostConfig& host,
         const char* map,
         const std::function<bool(const K&, const V&)>& del)
{
    Fd fd(OpenPinned(PinDir(host) + "/" + map));
    unsigned deleted = 0;
    for (const auto& [k, v] : ReadAll<K, V>(host, map))
    {
        if (del(k, v) && bpf_map_delete_elem(fd.fd, &k) == 0)
        {
            ++deleted;
        }
    }
    return deleted;
}

} // namespace

NetnsGuard::NetnsGuard(const std::string& name)
{
    if (name.empty())
    {
        return;
    }
    m_saved = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    if (m_saved < 0)
    {
        Fail("cannot open /proc/self/ns/net", errno);
    }
    Fd target(open(("/run/netns/" + name).c_str(), O_RDONLY | O_CLOEXEC));
    if (target.fd < 0 || setns(target.fd, CLONE_NEWNET) != 0)
    {
        int err = errno;
        close(m_saved);
        m_saved = -1;
        Fail("cannot enter network namespace '" + name + "'", err);
    }
}

NetnsGuard::~NetnsGuard()
{
    if (m_saved >= 0)
    {
        setns(m_saved, CLONE_NEWNET);
        close(m_saved);
    }
}

Skeleton::Skeleton(const std::string& pinDir)
{
    libbpf_set_print(LibbpfPrint);
    LIBBPF_OPTS(bpf_object_open_opts, opts);
    if (!pinDir.empty())
    {
        opts.pin_root_path = pinDir.c_str();
    }
    m_skel = oncache_bpf__open_opts(&opts);
    if (!m_skel)
    {
        Fail("cannot open the ONCache eBPF object", errno);
    }
    if (pinDir.empty())
    {
        bpf_map* map;
        bpf_object__for_each_map(map, m_skel->obj)
        {
            bpf_map__set_pin_path(map, nullptr);
        }
    }
    int err = oncache_bpf__load(m_skel);
    if (err)
    {
        oncache_bpf__destroy(m_skel);
        m_skel = nullptr;
        Fail("the kernel refused the ONCache eBPF programs (verifier log above)", err);
    }
}

Skeleton::~Skeleton()
{
    oncache_bpf__destroy(m_skel);
}

int
Skeleton::EgressFd() const
{
    return bpf_program__fd(m_skel->progs.oncache_egress);
}

int
Skeleton::EgressInitFd() const
{
    return bpf_program__fd(m_skel->progs.oncache_egress_init);
}

int
Skeleton::IngressFd() const
{
    return bpf_program__fd(m_skel->progs.oncache_ingress);
}

int
Skeleton::IngressInitFd() const
{
    return bpf_program__fd(m_skel->progs.oncache_ingress_init);
}

int
Skeleton::MapFd(const std::string& name) const
{
    bpf_map* map = bpf_object__find_map_by_name(m_skel->obj, name.c_str());
    if (!map)
    {
        throw std::runtime_error("no map named " + name);
    }
    return bpf_map__fd(map);
}

std::string
PinDir(const HostConfig& host)
{
    return host.pinRoot + "/" + host.name;
}

uint32_t
ParseIpv4(const std::string& text, const std::string& what)
{
    in_addr addr{};
    if (inet_pton(AF_INET, text.c_str(), &addr) != 1)
    {
        throw std::runtime_error(what + ": '" + text + "' is not an IPv4 address");
    }
    return addr.s_addr;
}

std::string
FormatIpv4(uint32_t networkOrder)
{
    char text[INET_ADDRSTRLEN];
    in_addr addr{};
    addr.s_addr = networkOrder;
    inet_ntop(AF_INET, &addr, text, sizeof(text));
    return text;
}

void
Cleanup(const HostConfig& host)
{
    // Pods recorded by a previous run: detach from their eth0 (if the namespace still exists).
    std::error_code ec;
    if (fs::is_directory(StateDir(host), ec))
    {
        for (const auto& entry : fs::directory_iterator(StateDir(host)))
        {
            std::ifstream in(entry.path());
            std::string podNetns;
            std::string podDev;
            if ((in >> podNetns >> podDev) && fs::exists("/run/netns/" + podNetns))
            {
                try
                {
                    NetnsGuard pod(podNetns);
                    if (unsigned index = if_nametoindex(podDev.c_str()))
                    {
                        TcDetach(index, BPF_TC_INGRESS);
                    }
                }
                catch (const std::runtime_error&)
                {
                    // The pod is going away: nothing attached is left to detach.
                }
            }
        }
        fs::remove_all(StateDir(host));
    }
    // Every device of the host: our filter handle on either side, if present.
    if (host.netns.empty() || fs::exists("/run/netns/" + host.netns))
    {
        NetnsGuard ns(host.netns);
        if (struct if_nameindex* names = if_nameindex())
        {
            for (struct if_nameindex* n = names; n->if_index != 0; ++n)
            {
                TcDetach(n->if_index, BPF_TC_INGRESS);
                TcDetach(n->if_index, BPF_TC_EGRESS);
            }
            if_freenameindex(names);
        }
    }
    fs::remove_all(PinDir(host), ec);
}

void
Init(const HostConfig& host)
{
    if (host.name.empty() || host.name.find('/') != std::string::npos || host.name == "." ||
        host.name == "..")
    {
        throw std::runtime_error("--host: '" + host.name + "' is not a plain name");
    }
    if (host.vni > 0xffffff)
    {
        throw std::runtime_error("--vni: " + std::to_string(host.vni) + " exceeds 16777215");
    }
    Cleanup(host);
    EnsureBpffs(host.pinRoot);
    fs::create_directories(PinDir(host));
    fs::create_directories(StateDir(host));
    Skeleton skel(PinDir(host));
    for (const char* name : kProgNames)
    {
        bpf_program* prog = bpf_object__find_program_by_name(skel.Raw()->obj, name);
        int err = bpf_program__pin(prog, (PinDir(host) + "/prog_" + name).c_str());
        if (err)
        {
            Fail(std::string("cannot pin program ") + name, err);
        }
    }
    NetnsGuard ns(host.netns);
    unsigned nic = IfIndex(host.nic);
    oncache_dev_info dev{};
    DeviceAddress(host.nic, dev.ip, dev.mac);
    dev.vni = host.vni;
    uint32_t key = nic;
    if (bpf_map_update_elem(skel.MapFd(ONCACHE_MAP_DEV), &key, &dev, BPF_ANY) != 0)
    {
        Fail("cannot write the device map", errno);
    }
    TcAttach(nic, BPF_TC_EGRESS, skel.EgressInitFd(), host.nic + " egress");
    TcAttach(nic, BPF_TC_INGRESS, skel.IngressFd(), host.nic + " ingress");
}

void
PodAdd(const HostConfig& host,
       const std::string& podNetns,
       const std::string& veth,
       const std::string& podDev,
       uint32_t ip)
{
    Fd egress(OpenPinned(PinDir(host) + "/prog_oncache_egress"));
    Fd ingressInit(OpenPinned(PinDir(host) + "/prog_oncache_ingress_init"));
    Fd ingress(OpenPinned(PinDir(host) + "/" + ONCACHE_MAP_INGRESS));
    {
        std::ofstream record(StateDir(host) + "/" + FormatIpv4(ip));
        record << podNetns << ' ' << podDev << '\n';
        if (!record)
        {
            throw std::runtime_error("cannot record the pod under " + StateDir(host));
        }
    }
    {
        NetnsGuard pod(podNetns);
        TcAttach(IfIndex(podDev), BPF_TC_INGRESS, ingressInit.fd, podNetns + "/" + podDev);
    }
    NetnsGuard ns(host.netns);
    unsigned index = IfIndex(veth);
    oncache_ingress_info info{};
    info.ifindex = index;
    if (bpf_map_update_elem(ingress.fd, &ip, &info, BPF_ANY) != 0)
    {
        Fail("cannot write the ingress entry of " + FormatIpv4(ip), errno);
    }
    TcAttach(index, BPF_TC_INGRESS, egress.fd, veth + " ingress");
}

void
PodDelete(const HostConfig& host, uint32_t ip)
{
    Fd ingress(OpenPinned(PinDir(host) + "/" + ONCACHE_MAP_INGRESS));
    oncache_ingress_info info{};
    if (bpf_map_lookup_elem(ingress.fd, &ip, &info) == 0)
    {
        bpf_map_delete_elem(ingress.fd, &ip);
        NetnsGuard ns(host.netns);
        TcDetach(info.ifindex, BPF_TC_INGRESS);
    }
    FlowMatch match;
    match.laddr = ip;
    PolicyChanged(host, match);
    std::string record = StateDir(host) + "/" + FormatIpv4(ip);
    std::ifstream in(record);
    std::string podNetns;
    std::string podDev;
    if ((in >> podNetns >> podDev) && fs::exists("/run/netns/" + podNetns))
    {
        NetnsGuard pod(podNetns);
        if (unsigned index = if_nametoindex(podDev.c_str()))
        {
            TcDetach(index, BPF_TC_INGRESS);
        }
    }
    std::error_code ec;
    fs::remove(record, ec);
}

void
ForgetRemote(const HostConfig& host, uint32_t ip)
{
    Fd egressIp(OpenPinned(PinDir(host) + "/" + ONCACHE_MAP_EGRESSIP));
    bpf_map_delete_elem(egressIp.fd, &ip);
    FlowMatch match;
    match.raddr = ip;
    PolicyChanged(host, match);
}

unsigned
PolicyChanged(const HostConfig& host, const FlowMatch& m)
{
    return DeleteIf<oncache_flow_key, oncache_filter_action>(
        host,
        ONCACHE_MAP_FILTER,
        [&m](const oncache_flow_key& k, const oncache_filter_action&) {
            uint16_t lport = ntohs(k.lport);
            uint16_t rport = ntohs(k.rport);
            return (!m.addr || *m.addr == k.laddr || *m.addr == k.raddr) &&
                   (!m.laddr || *m.laddr == k.laddr) && (!m.raddr || *m.raddr == k.raddr) &&
                   (!m.proto || *m.proto == k.proto) &&
                   (!m.port || *m.port == lport || *m.port == rport);
        });
}

void
NodeRemoved(const HostConfig& host, uint32_t nodeIp)
{
    Fd egress(OpenPinned(PinDir(host) + "/" + ONCACHE_MAP_EGRESS));
    bpf_map_delete_elem(egress.fd, &nodeIp);
    DeleteIf<uint32_t, uint32_t>(
        host,
        ONCACHE_MAP_EGRESSIP,
        [nodeIp](const uint32_t&, const uint32_t& h) { return h == nodeIp; });
}

HostMaps
ReadMaps(const HostConfig& host)
{
    HostMaps out;
    for (const auto& [pod, node] : ReadAll<uint32_t, uint32_t>(host, ONCACHE_MAP_EGRESSIP))
    {
        out.egressIp[FormatIpv4(pod)] = FormatIpv4(node);
    }
    for (const auto& entry : ReadAll<uint32_t, oncache_egress_info>(host, ONCACHE_MAP_EGRESS))
    {
        out.egressHosts.push_back(FormatIpv4(entry.first));
    }
    for (const auto& [pod, info] :
         ReadAll<uint32_t, oncache_ingress_info>(host, ONCACHE_MAP_INGRESS))
    {
        std::string mac;
        bool learned = false;
        for (uint8_t b : info.dmac)
        {
            learned = learned || b != 0;
            char text[4];
            std::snprintf(text, sizeof(text), mac.empty() ? "%02x" : ":%02x", b);
            mac += text;
        }
        out.ingressMac[FormatIpv4(pod)] = learned ? mac : "";
    }
    out.filter = ReadAll<oncache_flow_key, oncache_filter_action>(host, ONCACHE_MAP_FILTER);
    Fd stats(OpenPinned(PinDir(host) + "/" + ONCACHE_MAP_STATS));
    int cpus = libbpf_num_possible_cpus();
    if (cpus <= 0)
    {
        Fail("cannot count the possible CPUs", cpus);
    }
    std::vector<uint64_t> perCpu(cpus);
    for (uint32_t i = 0; i < ONCACHE_STAT_COUNT; ++i)
    {
        uint64_t sum = 0;
        if (bpf_map_lookup_elem(stats.fd, &i, perCpu.data()) == 0)
        {
            for (uint64_t v : perCpu)
            {
                sum += v;
            }
        }
        out.stats.push_back(sum);
    }
    return out;
}

} // namespace oncache_ebpf
