/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The suite's ns-3 test runner: same options as ns-3's test-runner (--list, --suite=NAME,
// --verbose, --update-data, ...), linked with every module of the suite.
#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
