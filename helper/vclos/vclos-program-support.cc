/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-program-support.h"

#include <cstdlib>
#include <exception>
#include <iostream>

namespace ns3
{

int
VclosRunProgram(int argc, char* argv[], int (*body)(int, char*[]))
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

void
VclosRenderPlot(const std::string& script)
{
    if (std::system("command -v gnuplot >/dev/null 2>&1") != 0)
    {
        std::cerr << "warning: gnuplot is not installed; " << script << " was not rendered\n";
        return;
    }
    std::string command = "gnuplot '" + script + "'";
    if (std::system(command.c_str()) != 0)
    {
        std::cerr << "warning: gnuplot failed on " << script << "\n";
    }
}

} // namespace ns3
