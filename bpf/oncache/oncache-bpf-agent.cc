#include "oncache-bpf-agent.h"

#include "oncache.skel.h"

#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <cctype>
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

// Marker names. A state directory the agent created holds the file kStateMarker; a pin
// directory holds the directory kPinMarker (bpffs has no regular files and refuses names with
// a dot); a pin root the agent created and mounted a bpffs on holds the file kMountMarker
// underneath that mount.
const char* const kStateMarker = ".oncache-agent";
const char* const kPinMarker = "oncache-agent-marker";
const char* const kMountMarker = ".oncache-agent-bpffs";

// The longest name accepted for a host, a network namespace or a device.
constexpr size_t kMaxName = 32;

// A value as an error message may show it: printable ASCII only, at most `limit` characters
// (a name 40, a path 256).
std::string
Shown(const std::string& value, size_t limit = 40)
{
    std::string out;
    for (size_t i = 0; i < value.size() && i < limit; ++i)
    {
        unsigned char c = static_cast<unsigned char>(value[i]);
        out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    if (value.size() > limit)
    {
        out += "... (" + std::to_string(value.size()) + " characters)";
    }
    return "'" + out + "'";
}

bool
IsPlainName(const std::string& name, size_t maxLength, const char* extra)
{
    if (name.empty() || name.size() > maxLength || name[0] == '-' || name[0] == '.')
    {
        return false;
    }
    for (char c : name)
    {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' &&
            !std::strchr(extra, c))
        {
            return false;
        }
    }
    return true;
}

bool
IsMagic(const std::string& path, long magic)
{
    struct statfs st
    {
    };

    return statfs(path.c_str(), &st) == 0 && static_cast<long>(st.f_type) == magic;
}

// root/name, after checking that it is a direct child of root's real path: ".." and symbolic
// links leading elsewhere are refused. Returns the real path (root resolved, name appended).
fs::path
ConfinedDir(const std::string& root, const std::string& name, const char* option)
{
    if (root.empty() || root[0] != '/')
    {
        throw std::runtime_error(std::string(option) + ": " + Shown(root, 256) +
                                 " is not an absolute path");
    }
    std::error_code ec;
    fs::path realRoot = fs::weakly_canonical(root, ec);
    fs::path dir = ec ? fs::path() : fs::weakly_canonical(fs::path(root) / name, ec);
    if (ec || dir.parent_path() != realRoot || dir.filename() != name)
    {
        throw std::runtime_error(std::string(option) + ": " + Shown(root + "/" + name, 256) +
                                 " does not resolve to a directory directly under " +
                                 Shown(realRoot.string(), 256) + "; nothing done");
    }
    if (fs::is_symlink(dir, ec))
    {
        throw std::runtime_error(std::string(option) + ": " + Shown(dir.string(), 256) +
                                 " is a symbolic link; nothing done");
    }
    return dir;
}

// The pin root: an existing bpffs is used as it is; otherwise a bpffs is mounted only on a
// directory the agent created (it did not exist, or it holds just the agent's mount marker).
// CheckPinRoot only looks (Init calls it before anything else); EnsureBpffs acts.
bool
CheckPinRoot(const std::string& dir)
{
    std::error_code ec;
    fs::file_status st = fs::symlink_status(dir, ec);
    if (!fs::exists(st))
    {
        return true;
    }
    if (!fs::is_directory(st))
    {
        throw std::runtime_error("--pin-root: " + Shown(dir, 256) + " is not a directory");
    }
    if (IsMagic(dir, BPF_FS_MAGIC))
    {
        return true;
    }
    bool owned = fs::is_regular_file(fs::symlink_status(dir + "/" + kMountMarker, ec));
    for (fs::directory_iterator it(dir, ec), end; owned && !ec && it != end; it.increment(ec))
    {
        owned = it->path().filename() == kMountMarker;
    }
    if (!owned || ec)
    {
        throw std::runtime_error("--pin-root: " + Shown(dir, 256) +
                                 " is an existing directory that is not a bpffs and that "
                                 "oncache-agent did not create; mount a bpffs there or name a "
                                 "path that does not exist yet");
    }
    return true;
}

void
EnsureBpffs(const std::string& dir)
{
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(dir, ec)))
    {
        fs::create_directories(dir, ec);
        if (ec)
        {
            throw std::runtime_error("--pin-root: cannot create " + Shown(dir, 256) + ": " +
                                     ec.message());
        }
        if (!IsMagic(dir, BPF_FS_MAGIC))
        {
            std::ofstream marker(dir + "/" + kMountMarker);
            marker << "oncache-agent created this directory to mount a bpffs on it\n";
            if (!marker)
            {
                throw std::runtime_error("--pin-root: cannot write the mount marker in " +
                                         Shown(dir, 256));
            }
        }
    }
    CheckPinRoot(dir);
    if (IsMagic(dir, BPF_FS_MAGIC))
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
    // libbpf's own report of a refusal would be a second line: the error says it.
    previous = libbpf_set_print(nullptr);
    err = bpf_tc_attach(&hook, &opts);
    libbpf_set_print(previous);
    if (err)
    {
        Fail("cannot attach to " + what + " (is another tc filter at priority " +
                 std::to_string(kTcPriority) + " there?)",
             err);
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
    ValidateHost(host);
    return ConfinedDir(host.stateRoot, host.name, "--state-root").string();
}

bool
IsRecordName(const std::string& name)
{
    in_addr addr{};
    return inet_pton(AF_INET, name.c_str(), &addr) == 1 && FormatIpv4(addr.s_addr) == name;
}

bool
IsPinName(const std::string& name)
{
    for (const char* map : {ONCACHE_MAP_EGRESSIP,
                            ONCACHE_MAP_EGRESS,
                            ONCACHE_MAP_INGRESS,
                            ONCACHE_MAP_FILTER,
                            ONCACHE_MAP_DEV,
                            ONCACHE_MAP_STATS})
    {
        if (name == map)
        {
            return true;
        }
    }
    for (const char* prog : kProgNames)
    {
        if (name == std::string("prog_") + prog)
        {
            return true;
        }
    }
    return false;
}

/* What the agent may delete in one of its directories: the entries it wrote, found by name,
 * in a directory that carries its marker. Throws, before anything is deleted, when the
 * directory has no marker or holds anything else. An absent directory gives no entries. */
struct OwnedDir
{
    fs::path dir;
    bool exists{false};
    std::vector<fs::path> entries; //!< the agent's files, the marker excluded
};

OwnedDir
Owned(const fs::path& dir,
      const char* marker,
      bool markerIsDir,
      bool (*known)(const std::string&),
      const char* option)
{
    OwnedDir owned;
    owned.dir = dir;
    std::error_code ec;
    fs::file_status st = fs::symlink_status(dir, ec);
    if (!fs::exists(st))
    {
        return owned;
    }
    owned.exists = true;
    if (!fs::is_directory(st))
    {
        throw std::runtime_error(std::string(option) + ": " + Shown(dir.string(), 256) +
                                 " is not a directory; nothing deleted");
    }
    fs::file_status m = fs::symlink_status(dir / marker, ec);
    if (markerIsDir ? !fs::is_directory(m) : !fs::is_regular_file(m))
    {
        throw std::runtime_error(std::string(option) + ": " + Shown(dir.string(), 256) +
                                 " was not created by oncache-agent (no marker " + marker +
                                 "); nothing deleted");
    }
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    {
        const std::string name = it->path().filename().string();
        if (name == marker)
        {
            continue;
        }
        if (!known(name) || it->symlink_status().type() == fs::file_type::directory ||
            fs::is_symlink(it->symlink_status()))
        {
            throw std::runtime_error(std::string(option) + ": " + Shown(dir.string(), 256) +
                                     " holds " + Shown(name) +
                                     ", which oncache-agent did not write; nothing deleted");
        }
        owned.entries.push_back(it->path());
    }
    if (ec)
    {
        throw std::runtime_error(std::string(option) + ": cannot list " + Shown(dir.string(), 256) +
                                 ": " + ec.message());
    }
    return owned;
}

void
RemoveOwned(const OwnedDir& owned, const char* marker)
{
    if (!owned.exists)
    {
        return;
    }
    std::error_code ec;
    for (const fs::path& entry : owned.entries)
    {
        fs::remove(entry, ec);
    }
    fs::remove(owned.dir / marker, ec);
    if (!fs::remove(owned.dir, ec))
    {
        throw std::runtime_error("cannot remove " + Shown(owned.dir.string(), 256) + ": " +
                                 (ec ? ec.message() : std::string("not empty")));
    }
}

// A pod record: "<pod netns> <pod device>", both checked before any use.
bool
ReadRecord(const fs::path& record, std::string& podNetns, std::string& podDev)
{
    std::ifstream in(record);
    return (in >> podNetns >> podDev) && IsPlainName(podNetns, kMaxName, ".") &&
           IsPlainName(podDev, IFNAMSIZ - 1, ".");
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
    if (!IsPlainName(name, kMaxName, "."))
    {
        throw std::runtime_error("network namespace " + Shown(name) + " is not a plain name");
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

void
ValidateHost(const HostConfig& host)
{
    if (!IsPlainName(host.name, kMaxName, ""))
    {
        throw std::runtime_error("--host: " + Shown(host.name) +
                                 " is not a plain name (1-32 letters, digits, '_' or '-', not "
                                 "starting with '-')");
    }
    if (!host.netns.empty() && !IsPlainName(host.netns, kMaxName, "."))
    {
        throw std::runtime_error("--netns: " + Shown(host.netns) +
                                 " is not a plain name (1-32 letters, digits, '_', '-' or '.')");
    }
    if (!host.nic.empty() && !IsPlainName(host.nic, IFNAMSIZ - 1, "."))
    {
        throw std::runtime_error("--nic: " + Shown(host.nic) + " is not a device name");
    }
    if (host.vni > 0xffffff)
    {
        throw std::runtime_error("--vni: " + std::to_string(host.vni) + " exceeds 16777215");
    }
    for (const auto& [root, option] :
         {std::make_pair(&host.pinRoot, "--pin-root"), std::make_pair(&host.stateRoot, "--state-root")})
    {
        if (root->empty() || (*root)[0] != '/')
        {
            throw std::runtime_error(std::string(option) + ": " + Shown(*root, 256) +
                                     " is not an absolute path");
        }
    }
}

std::string
PinDir(const HostConfig& host)
{
    ValidateHost(host);
    return ConfinedDir(host.pinRoot, host.name, "--pin-root").string();
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
    ValidateHost(host);
    // Everything to delete is checked first: a directory without the agent's marker, or with
    // anything the agent did not write, stops the cleanup before it deletes anything.
    const OwnedDir state = Owned(StateDir(host), kStateMarker, false, IsRecordName, "--state-root");
    const OwnedDir pins = Owned(PinDir(host), kPinMarker, true, IsPinName, "--pin-root");
    // Pods recorded by a previous run: detach from their eth0 (if the namespace still exists).
    for (const fs::path& record : state.entries)
    {
        std::string podNetns;
        std::string podDev;
        if (ReadRecord(record, podNetns, podDev) && fs::exists("/run/netns/" + podNetns))
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
    RemoveOwned(state, kStateMarker);
    RemoveOwned(pins, kPinMarker);
}

void
Init(const HostConfig& host)
{
    // Every argument is checked before Cleanup touches anything.
    ValidateHost(host);
    if (host.nic.empty())
    {
        throw std::runtime_error("--nic is required");
    }
    PinDir(host);
    StateDir(host);
    CheckPinRoot(host.pinRoot);
    Cleanup(host);
    EnsureBpffs(host.pinRoot);
    const std::string pinDir = PinDir(host);
    const std::string stateDir = StateDir(host);
    std::error_code ec;
    // Cleanup removed both: the agent creates them anew, each with its marker.
    if (!fs::create_directory(pinDir, ec) || !fs::create_directory(pinDir + "/" + kPinMarker, ec))
    {
        throw std::runtime_error("--pin-root: cannot create " + Shown(pinDir, 256) + ": " +
                                 (ec ? ec.message() : std::string("it exists")));
    }
    fs::create_directories(host.stateRoot, ec);
    if (!fs::create_directory(stateDir, ec))
    {
        throw std::runtime_error("--state-root: cannot create " + Shown(stateDir, 256) + ": " +
                                 (ec ? ec.message() : std::string("it exists")));
    }
    {
        std::ofstream marker(stateDir + "/" + kStateMarker);
        marker << "oncache-agent state of host " << host.name << '\n';
        if (!marker)
        {
            throw std::runtime_error("--state-root: cannot write the marker in " + Shown(stateDir, 256));
        }
    }
    Skeleton skel(pinDir);
    for (const char* name : kProgNames)
    {
        bpf_program* prog = bpf_object__find_program_by_name(skel.Raw()->obj, name);
        int err = bpf_program__pin(prog, (pinDir + "/prog_" + name).c_str());
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
    ValidateHost(host);
    if (!IsPlainName(podNetns, kMaxName, "."))
    {
        throw std::runtime_error("--pod-netns: " + Shown(podNetns) + " is not a plain name");
    }
    if (!IsPlainName(veth, IFNAMSIZ - 1, "."))
    {
        throw std::runtime_error("--veth: " + Shown(veth) + " is not a device name");
    }
    if (!IsPlainName(podDev, IFNAMSIZ - 1, "."))
    {
        throw std::runtime_error("--pod-dev: " + Shown(podDev) + " is not a device name");
    }
    const std::string pinDir = PinDir(host);
    const std::string stateDir = StateDir(host);
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(stateDir + "/" + kStateMarker, ec)))
    {
        throw std::runtime_error("--state-root: " + Shown(stateDir, 256) +
                                 " was not created by oncache-agent init (no marker)");
    }
    Fd egress(OpenPinned(pinDir + "/prog_oncache_egress"));
    Fd ingressInit(OpenPinned(pinDir + "/prog_oncache_ingress_init"));
    Fd ingress(OpenPinned(pinDir + "/" + ONCACHE_MAP_INGRESS));
    const std::string record = stateDir + "/" + FormatIpv4(ip);
    {
        std::ofstream out(record);
        out << podNetns << ' ' << podDev << '\n';
        if (!out)
        {
            throw std::runtime_error("cannot record the pod under " + stateDir);
        }
    }
    // Order: the pod's ingress entry is what makes egress learning trust the marks on its
    // packets, and only the egress fast path (the first program a pod's packet meets)
    // overwrites a pod's own bits there; so the entry is published only once that program is
    // attached. A failure on the way undoes what was attached and writes no entry.
    bool ingressInitAttached = false;
    try
    {
        {
            NetnsGuard pod(podNetns);
            TcAttach(IfIndex(podDev), BPF_TC_INGRESS, ingressInit.fd, podNetns + "/" + podDev);
            ingressInitAttached = true;
        }
        NetnsGuard ns(host.netns);
        unsigned index = IfIndex(veth);
        TcAttach(index, BPF_TC_INGRESS, egress.fd, veth + " ingress");
        oncache_ingress_info info{};
        info.ifindex = index;
        if (bpf_map_update_elem(ingress.fd, &ip, &info, BPF_ANY) != 0)
        {
            int err = errno;
            TcDetach(index, BPF_TC_INGRESS);
            Fail("cannot write the ingress entry of " + FormatIpv4(ip), err);
        }
    }
    catch (const std::exception&)
    {
        if (ingressInitAttached)
        {
            try
            {
                NetnsGuard pod(podNetns);
                if (unsigned index = if_nametoindex(podDev.c_str()))
                {
                    TcDetach(index, BPF_TC_INGRESS);
                }
            }
            catch (const std::exception&)
            {
                // The pod's namespace went away: nothing attached is left there.
            }
        }
        fs::remove(record, ec);
        throw;
    }
}

void
PodDelete(const HostConfig& host, uint32_t ip)
{
    ValidateHost(host);
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
    std::string podNetns;
    std::string podDev;
    if (ReadRecord(record, podNetns, podDev) && fs::exists("/run/netns/" + podNetns))
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
