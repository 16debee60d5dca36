/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VCLOS_PROGRAM_SUPPORT_H
#define VCLOS_PROGRAM_SUPPORT_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup vclos
 * \param values numbers
 * \return their mean (0 for none)
 */
double VclosMean(const std::vector<double>& values);

/**
 * \ingroup vclos
 * \param values numbers, in any order
 * \param q the quantile, 0 to 1
 * \return the q-quantile by nearest rank (0 for none)
 */
double VclosPercentile(std::vector<double> values, double q);

} // namespace ns3

#endif /* VCLOS_PROGRAM_SUPPORT_H */
