/*
 * oncache-agent: the userspace side of the ONCache eBPF datapath for one emulated host.
 *
 *   oncache-agent init    --host H --netns NS --nic DEV [--vni N]   load, pin, attach NIC progs
 *   oncache-agent run     --host H --netns NS --nic DEV [--vni N]   init, wait for SIGINT/SIGTERM,
 *                                                                   clean up
 *   oncache-agent pod-add --host H --netns NS --pod-netns P --veth V --ip A [--pod-dev eth0]
 *   oncache-agent pod-del --host H --netns NS --ip A                 a local pod left
 *   oncache-agent forget  --host H --ip A                            a remote pod left or moved
 *   oncache-agent policy  --host H [--addr A] [--laddr A] [--raddr A] [--proto N] [--port N]
 *   oncache-agent node-del --host H --node-ip A                      a remote node left
 *   oncache-agent dump    --host H                                   map contents and counters
 *   oncache-agent cleanup --host H --netns NS                        detach and unpin
 *
 * Common: --pin-root DIR (default /sys/fs/bpf/oncache; a bpffs, mounted by init only on a
 * directory it creates), --state-root DIR (default /run/oncache-agent). The host name is 1-32
 * of [A-Za-z0-9_-]; every verb checks it (and the other names) before it touches anything,
 * and the agent deletes only what it created under <root>/<host> (see Cleanup). A bad
 * argument or a failure prints one line "oncache-agent: error: ..." on stderr and exits 1.
 */
#include "oncache-bpf-agent.h"

#include <arpa/inet.h>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <unistd.h>

using namespace oncache_ebpf;

namespace
{

const char* const kStatNames[ONCACHE_STAT_COUNT] = {"egress_hit",
                                                    "egress_miss",
                                                    "egress_reverse",
                                                    "egress_pass",
                                                    "ingress_hit",
                                                    "ingress_miss",
                                                    "ingress_reverse",
                                                    "ingress_pass",
                                                    "learn_egress",
                                                    "learn_ingress",
                                                    "error",
                                                    "egress_spoof",
                                                    "ingress_spoof"};

volatile std::sig_atomic_t g_stop = 0;

void
OnSignal(int)
{
    g_stop = 1;
}

class Args
{
  public:
    Args(int argc, char** argv, const std::set<std::string>& allowed)
    {
        for (int i = 2; i < argc; ++i)
        {
            std::string name = argv[i];
            if (name.rfind("--", 0) != 0 || !allowed.count(name.substr(2)))
            {
                throw std::runtime_error("unknown argument '" + name + "'");
            }
            if (i + 1 >= argc)
            {
                throw std::runtime_error(name + " needs a value");
            }
            m_values[name.substr(2)] = argv[++i];
        }
    }

    bool Has(const std::string& name) const
    {
        return m_values.count(name) != 0;
    }

    std::string Get(const std::string& name) const
    {
        auto it = m_values.find(name);
        if (it == m_values.end())
        {
            throw std::runtime_error("--" + name + " is required");
        }
        return it->second;
    }

    std::string Get(const std::string& name, const std::string& fallback) const
    {
        return Has(name) ? m_values.at(name) : fallback;
    }

    uint32_t Number(const std::string& name, uint32_t max) const
    {
        std::string text = Get(name);
        char* end = nullptr;
        errno = 0;
        unsigned long value = std::strtoul(text.c_str(), &end, 10);
        if (text.empty() || text[0] == '-' || *end != '\0' || errno != 0 || value > max)
        {
            throw std::runtime_error("--" + name + ": '" + text + "' is not an integer in [0, " +
                                     std::to_string(max) + "]");
        }
        return static_cast<uint32_t>(value);
    }

  private:
    std::map<std::string, std::string> m_values;
};

HostConfig
Host(const Args& args)
{
    HostConfig host;
    host.name = args.Get("host");
    host.netns = args.Get("netns", "");
    host.nic = args.Get("nic", "");
    host.vni = args.Has("vni") ? args.Number("vni", 0xffffff) : 1;
    host.pinRoot = args.Get("pin-root", host.pinRoot);
    host.stateRoot = args.Get("state-root", host.stateRoot);
    ValidateHost(host);
    return host;
}

void
Dump(const HostConfig& host)
{
    HostMaps maps = ReadMaps(host);
    for (const auto& [pod, node] : maps.egressIp)
    {
        std::cout << "egressip " << pod << ' ' << node << '\n';
    }
    for (const auto& node : maps.egressHosts)
    {
        std::cout << "egress " << node << '\n';
    }
    for (const auto& [pod, mac] : maps.ingressMac)
    {
        std::cout << "ingress " << pod << ' ' << (mac.empty() ? "unlearned" : "learned " + mac)
                  << '\n';
    }
    for (const auto& [k, v] : maps.filter)
    {
        std::cout << "filter " << FormatIpv4(k.laddr) << ' ' << FormatIpv4(k.raddr) << ' '
                  << ntohs(k.lport) << ' ' << ntohs(k.rport) << ' ' << k.proto
                  << " ingress=" << v.ingress << " egress=" << v.egress << '\n';
    }
    for (uint32_t i = 0; i < ONCACHE_STAT_COUNT; ++i)
    {
        std::cout << "stat " << kStatNames[i] << ' ' << maps.stats[i] << '\n';
    }
}

int
Main(int argc, char** argv)
{
    const std::set<std::string> common = {"host", "netns", "pin-root", "state-root"};
    auto with = [&common](std::initializer_list<std::string> extra) {
        std::set<std::string> all = common;
        all.insert(extra);
        return all;
    };
    if (argc < 2)
    {
        throw std::runtime_error(
            "usage: oncache-agent init|run|pod-add|pod-del|forget|policy|node-del|dump|cleanup "
            "--host NAME ...");
    }
    std::string cmd = argv[1];
    if (cmd == "init" || cmd == "run")
    {
        Args args(argc, argv, with({"nic", "vni"}));
        HostConfig host = Host(args);
        args.Get("nic");
        Init(host);
        if (cmd == "run")
        {
            std::signal(SIGINT, OnSignal);
            std::signal(SIGTERM, OnSignal);
            std::cout << "oncache-agent: " << host.name << " ready" << std::endl;
            while (!g_stop)
            {
                pause();
            }
            Cleanup(host);
        }
    }
    else if (cmd == "pod-add")
    {
        Args args(argc, argv, with({"pod-netns", "veth", "ip", "pod-dev"}));
        PodAdd(Host(args),
               args.Get("pod-netns"),
               args.Get("veth"),
               args.Get("pod-dev", "eth0"),
               ParseIpv4(args.Get("ip"), "--ip"));
    }
    else if (cmd == "pod-del")
    {
        Args args(argc, argv, with({"ip"}));
        PodDelete(Host(args), ParseIpv4(args.Get("ip"), "--ip"));
    }
    else if (cmd == "forget")
    {
        Args args(argc, argv, with({"ip"}));
        ForgetRemote(Host(args), ParseIpv4(args.Get("ip"), "--ip"));
    }
    else if (cmd == "policy")
    {
        Args args(argc, argv, with({"addr", "laddr", "raddr", "proto", "port"}));
        FlowMatch match;
        if (args.Has("addr"))
        {
            match.addr = ParseIpv4(args.Get("addr"), "--addr");
        }
        if (args.Has("laddr"))
        {
            match.laddr = ParseIpv4(args.Get("laddr"), "--laddr");
        }
        if (args.Has("raddr"))
        {
            match.raddr = ParseIpv4(args.Get("raddr"), "--raddr");
        }
        if (args.Has("proto"))
        {
            match.proto = args.Number("proto", 255);
        }
        if (args.Has("port"))
        {
            match.port = static_cast<uint16_t>(args.Number("port", 65535));
        }
        std::cout << "deleted " << PolicyChanged(Host(args), match) << " filter entries\n";
    }
    else if (cmd == "node-del")
    {
        Args args(argc, argv, with({"node-ip"}));
        NodeRemoved(Host(args), ParseIpv4(args.Get("node-ip"), "--node-ip"));
    }
    else if (cmd == "dump")
    {
        Args args(argc, argv, common);
        Dump(Host(args));
    }
    else if (cmd == "cleanup")
    {
        Args args(argc, argv, common);
        Cleanup(Host(args));
    }
    else
    {
        throw std::runtime_error("unknown command '" + cmd + "'");
    }
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    try
    {
        return Main(argc, argv);
    }
    catch (const std::exception& e)
    {
        std::cerr << "oncache-agent: error: " << e.what() << std::endl;
        return 1;
    }
}
