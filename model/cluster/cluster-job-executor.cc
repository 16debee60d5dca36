/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-job-executor.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ClusterJobExecutor);

TypeId
ClusterJobExecutor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClusterJobExecutor").SetParent<Object>().SetGroupName("Cluster");
    return tid;
}

bool
ClusterJobExecutor::CanStart(const ClusterJobRequest& job)
{
    return true;
}

void
ClusterJobExecutor::Placed(const ClusterJobRequest& job,
                           const ClusterJobAllocation& allocation,
                           const ClusterOcsState* ocs)
{
}

void
ClusterJobExecutor::Released(const ClusterJobRequest& job, const ClusterOcsState* ocs)
{
}

void
ClusterJobExecutor::Stop(const ClusterJobRequest& job, const ClusterJobAllocation& allocation)
{
}

} // namespace ns3
