/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Loading the real programs for a test, or saying clearly why a test cannot run: one place
// for the root check and the skip-versus-fail rule of every BPF_PROG_TEST_RUN test.
#ifndef ONCACHE_TEST_SKELETON_H
#define ONCACHE_TEST_SKELETON_H

#include "oncache-bpf-agent.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <sched.h>
#include <unistd.h>

/**
 * \brief Load the four programs (no pin path). Not root: "SKIP" and 77. A kernel that forbids
 *        BPF altogether (EPERM): "SKIP" and 77. Any other load error, the verifier's refusal
 *        included, is what such a test checks: "FAIL" and 1.
 * \param exitStatus set to the test's exit status when nothing is loaded
 * \return the skeleton, or null
 */
inline std::unique_ptr<oncache_ebpf::Skeleton>
OncacheLoadForTest(int* exitStatus)
{
    if (geteuid() != 0)
    {
        std::printf("SKIP: BPF_PROG_TEST_RUN needs root (CAP_BPF and CAP_NET_ADMIN)\n");
        *exitStatus = 77;
        return nullptr;
    }
    try
    {
        return std::make_unique<oncache_ebpf::Skeleton>("");
    }
    catch (const std::exception& e)
    {
        const bool denied = std::strstr(e.what(), "Operation not permitted") != nullptr;
        std::printf("%s: %s\n", denied ? "SKIP" : "FAIL", e.what());
        *exitStatus = denied ? 77 : 1;
        return nullptr;
    }
}

/**
 * \brief Move the test into a network namespace of its own that has a device with each of the
 *        given ifindexes (veth pairs, the peers at index + 1000): BPF_PROG_TEST_RUN runs a tc
 *        program on the device its context's ifindex names, which must exist. Cannot
 *        (no namespaces, no iproute2): "SKIP" and 77.
 * \param ifindexes the devices to create (each above 1: 1 is the namespace's loopback)
 * \param exitStatus set to the test's exit status when it cannot
 * \return true when every device exists
 */
inline bool
OncacheTestDevices(std::initializer_list<unsigned> ifindexes, int* exitStatus)
{
    if (unshare(CLONE_NEWNET) != 0)
    {
        std::printf("SKIP: cannot create a network namespace: %s\n", std::strerror(errno));
        *exitStatus = 77;
        return false;
    }
    for (unsigned index : ifindexes)
    {
        char cmd[160];
        std::snprintf(cmd,
                      sizeof(cmd),
                      "ip link add name oct%u index %u type veth peer name ocp%u index %u",
                      index,
                      index,
                      index,
                      index + 1000);
        if (std::system(cmd) != 0)
        {
            std::printf("SKIP: cannot create test device %u (%s)\n", index, cmd);
            *exitStatus = 77;
            return false;
        }
    }
    return true;
}

#endif /* ONCACHE_TEST_SKELETON_H */
