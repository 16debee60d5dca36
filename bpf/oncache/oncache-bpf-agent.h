/*
 * ONCache eBPF agent library: loads the programs (libbpf skeleton), attaches them with tc
 * clsact, pins the maps of one emulated host under <pin root>/<host>/ and keeps them
 * consistent when pods, policies and nodes change (the ONCache paper's cache invalidation).
 * Used by the oncache-agent program and the tests. Every failure throws std::runtime_error with
 * one line.
 *
 * Pins are per mount namespace, not per network namespace: the agent never enters another
 * mount namespace; it switches network namespace with setns() around the calls that need one.
 */
#ifndef ONCACHE_BPF_AGENT_H
#define ONCACHE_BPF_AGENT_H

#include "oncache-abi.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct oncache_bpf;

namespace oncache_ebpf
{

/** Enters a named network namespace (/run/netns/<name>) for its lifetime; "" stays put. */
class NetnsGuard
{
  public:
    explicit NetnsGuard(const std::string& name);
    ~NetnsGuard();
    NetnsGuard(const NetnsGuard&) = delete;
    NetnsGuard& operator=(const NetnsGuard&) = delete;

  private:
    int m_saved{-1};
};

/** The loaded object, without pins (tests) or with the maps pinned under a directory. */
class Skeleton
{
  public:
    /** Opens and loads the programs; pinDir "" disables map pinning. */
    explicit Skeleton(const std::string& pinDir);
    ~Skeleton();
    Skeleton(const Skeleton&) = delete;
    Skeleton& operator=(const Skeleton&) = delete;

    int EgressFd() const;
    int EgressInitFd() const;
    int IngressFd() const;
    int IngressInitFd() const;
    int MapFd(const std::string& name) const;

    oncache_bpf* Raw() const
    {
        return m_skel;
    }

  private:
    oncache_bpf* m_skel{nullptr};
};

/** Settings of one emulated host. */
struct HostConfig
{
    std::string name;                            //!< host name: the pin sub-directory
    std::string netns;                           //!< the host's network namespace ("" = current)
    std::string nic;                             //!< the underlay NIC in that namespace
    uint32_t vni{1};                             //!< the overlay's VXLAN network identifier
    std::string pinRoot{"/sys/fs/bpf/oncache"};  //!< a bpffs directory (mounted if needed)
    std::string stateRoot{"/run/oncache-agent"}; //!< per-host record of attached pods
};

/** A filter-cache wildcard: unset fields match anything; a port matches either side. */
struct FlowMatch
{
    std::optional<uint32_t> addr; //!< network order; matches laddr or raddr
    std::optional<uint32_t> laddr;
    std::optional<uint32_t> raddr;
    std::optional<uint32_t> proto;
    std::optional<uint16_t> port; //!< host order
};

/** Map contents of one host, for dumps and tests (addresses as dotted quads). */
struct HostMaps
{
    std::map<std::string, std::string> egressIp;   //!< remote pod -> remote host
    std::vector<std::string> egressHosts;          //!< remote hosts with a template
    std::map<std::string, std::string> ingressMac; //!< local pod -> learned MAC ("" = not yet)
    std::vector<std::pair<oncache_flow_key, oncache_filter_action>> filter;
    std::vector<uint64_t> stats; //!< summed over CPUs, by oncache_stat
};

/**
 * Checks a host's settings before anything touches the file system: the host name is 1-32 of
 * [A-Za-z0-9_-] (not starting with '-'), the network namespace and NIC names are plain
 * names, the VNI fits 24 bits and both roots are absolute paths. Throws one line naming the
 * offending option. Every entry point below calls it first.
 */
void ValidateHost(const HostConfig& host);
/** <pin root>/<host>, refused unless it resolves to a directory directly under the pin root. */
std::string PinDir(const HostConfig& host);
uint32_t ParseIpv4(const std::string& text, const std::string& what);
std::string FormatIpv4(uint32_t networkOrder);

/**
 * Removes what a previous run of this host left: tc filters, pod records, pins. Deletes only
 * inside <state root>/<host> and <pin root>/<host>, only when each carries the marker Init
 * wrote, and only the files the agent writes there (pod records, pinned maps and programs);
 * anything else there stops it before it deletes anything.
 */
void Cleanup(const HostConfig& host);
/**
 * Checks the settings, Cleanup, then load, pin, attach the NIC programs and fill the device
 * map. Mounts a bpffs on the pin root only when it is not one already and the agent created
 * that directory (it did not exist, or holds only the agent's mount marker).
 */
void Init(const HostConfig& host);
/**
 * Attaches a pod's programs, then writes its ingress entry (MACs zero, learned later): the
 * entry is never visible while the pod's egress program is not attached. On a failure nothing
 * of the pod is left (no entry, no record, the learning program detached).
 */
void PodAdd(const HostConfig& host,
            const std::string& podNetns,
            const std::string& veth,
            const std::string& podDev,
            uint32_t ip);
/** Deletes a local pod: its ingress entry, its filter entries, its tc filters. */
void PodDelete(const HostConfig& host, uint32_t ip);
/** A remote pod went away or moved: its egress L1 entry and its filter entries. */
void ForgetRemote(const HostConfig& host, uint32_t ip);
/** A policy changed: deletes the matching filter entries; returns how many. */
unsigned PolicyChanged(const HostConfig& host, const FlowMatch& match);
/** A node left: its egress template and every egress L1 entry pointing to it. */
void NodeRemoved(const HostConfig& host, uint32_t nodeIp);
HostMaps ReadMaps(const HostConfig& host);

} // namespace oncache_ebpf

#endif
