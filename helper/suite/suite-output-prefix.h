/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_OUTPUT_PREFIX_H
#define SUITE_OUTPUT_PREFIX_H

#include <string>

namespace ns3
{

/**
 * \ingroup suite
 * \brief Check, before a run, that files can be written under an output prefix
 *        ("results/run1" writes results/run1-*.csv): its directory ("." when it has no
 *        slash) must exist, be a directory and be writable.
 * \param prefix the prefix (or a file's path)
 * \return "" when usable, else the problem, e.g. "directory 'results' does not exist"
 */
std::string SuiteCheckOutputPrefix(const std::string& prefix);

} // namespace ns3

#endif /* SUITE_OUTPUT_PREFIX_H */
