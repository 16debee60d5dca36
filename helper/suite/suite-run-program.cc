/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-run-program.h"

#include <exception>
#include <iostream>

namespace ns3
{

int
SuiteRunProgram(int argc, char* argv[], int (*body)(int, char*[]))
{
    try
    {
        return body(argc, argv);
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
}

} // namespace ns3
