/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_TEST_FILE_H
#define SUITE_TEST_FILE_H

#include <fstream>
#include <gtest/gtest.h>
#include <string>

namespace ns3
{

/**
 * \brief For GoogleTest tests of file readers: the name of the running test's input file.
 * \param prefix what the name starts with (one per test file, e.g. "csv-")
 * \param suffix its ending (".csv", ".json")
 * \return prefix + the running test's name + suffix
 */
inline std::string
SuiteTestFileName(const std::string& prefix, const std::string& suffix = ".csv")
{
    return prefix + ::testing::UnitTest::GetInstance()->current_test_info()->name() + suffix;
}

/**
 * \brief Write the running test's input file in GoogleTest's temporary folder.
 * \param prefix what the name starts with
 * \param text the contents
 * \param suffix the name's ending
 * \return the path
 */
inline std::string
SuiteTestFile(const std::string& prefix,
              const std::string& text,
              const std::string& suffix = ".csv")
{
    const std::string path = ::testing::TempDir() + SuiteTestFileName(prefix, suffix);
    std::ofstream(path) << text;
    return path;
}

} // namespace ns3

#endif /* SUITE_TEST_FILE_H */
