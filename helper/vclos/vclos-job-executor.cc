/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-job-executor.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(VclosJobExecutor);

TypeId
VclosJobExecutor::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VclosJobExecutor").SetParent<Object>().SetGroupName("Vclos");
    return tid;
}

bool
VclosJobExecutor::CanStart(const VclosJobRequest& job)
{
    return true;
}

void
VclosJobExecutor::Placed(const VclosJobRequest& job,
                         const VclosJobAllocation& allocation,
                         const VclosOcsState* ocs)
{
}

void
VclosJobExecutor::Released(const VclosJobRequest& job, const VclosOcsState* ocs)
{
}

void
VclosJobExecutor::Stop(const VclosJobRequest& job, const VclosJobAllocation& allocation)
{
}

} // namespace ns3
