/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VCLOS_FUZZ_TRACE_CHECK_H
#define VCLOS_FUZZ_TRACE_CHECK_H

#include "ns3/cluster-job-trace.h"

#include <vector>

/**
 * \brief What cluster-job-trace.h promises of a trace it read: at least one job, sorted by
 *        submit time, times relative to the first arrival (so the first is 0 and none is
 *        negative), at least 1 GPU per job, no negative duration. A wrapped or truncated value
 *        usually breaks one of them. Aborts (a finding) otherwise.
 * \param jobs the jobs read
 */
void VclosFuzzCheckTrace(const std::vector<ns3::ClusterTraceJob>& jobs);

#endif /* VCLOS_FUZZ_TRACE_CHECK_H */
