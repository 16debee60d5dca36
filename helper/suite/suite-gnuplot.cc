/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-gnuplot.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace ns3
{

std::string
SuiteFindProgram(const std::string& name)
{
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path == nullptr ? "/usr/local/bin:/usr/bin:/bin" : path);
    for (std::string dir; std::getline(dirs, dir, ':');)
    {
        std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0)
        {
            return candidate;
        }
    }
    return "";
}

std::string
SuiteGnuplotQuote(const std::string& text)
{
    std::string out = "'";
    for (char c : text)
    {
        out += c == '\''                  ? std::string("''")
               : (c == '\n' || c == '\r') ? std::string(" ")
                                          : std::string(1, c);
    }
    return out + "'";
}

bool
SuiteRenderPlot(Gnuplot& plot, const std::string& file, const std::string& inlineData)
{
    // gnuplot keeps an output file set before the terminal.
    plot.SetOutputFilename("");
    std::string script = file + ".plt";
    {
        std::ofstream out(script);
        out << "set output " << SuiteGnuplotQuote(file + ".png") << "\n";
        plot.GenerateOutput(out);
        out << inlineData;
        if (!out)
        {
            std::cerr << "warning: cannot write " << script << "\n";
            return false;
        }
    }
    std::string gnuplot = SuiteFindProgram("gnuplot");
    if (gnuplot.empty())
    {
        std::cerr << "warning: gnuplot is not installed; " << script << " was not rendered\n";
        return false;
    }
    // A leading '-' would be read as an option.
    std::string argument = script.front() == '-' ? "./" + script : script;
    std::vector<char*> argv{const_cast<char*>("gnuplot"), argument.data(), nullptr};
    pid_t pid = 0;
    int status = 0;
    if (posix_spawn(&pid, gnuplot.c_str(), nullptr, nullptr, argv.data(), environ) != 0 ||
        waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        std::cerr << "warning: gnuplot failed on " << script << "\n";
        return false;
    }
    return true;
}

} // namespace ns3
