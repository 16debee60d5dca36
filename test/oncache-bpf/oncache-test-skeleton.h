/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Loading the real programs for a test, or saying clearly why a test cannot run: one place
// for the root check and the skip-versus-fail rule of every BPF_PROG_TEST_RUN test.
#ifndef ONCACHE_TEST_SKELETON_H
#define ONCACHE_TEST_SKELETON_H

#include "oncache-bpf-agent.h"

#include <cstdio>
#include <cstring>
#include <memory>
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

#endif /* ONCACHE_TEST_SKELETON_H */
