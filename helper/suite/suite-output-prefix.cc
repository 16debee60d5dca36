/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-output-prefix.h"

#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

std::string
SuiteCheckOutputPrefix(const std::string& prefix)
{
    if (prefix.empty())
    {
        return "empty output prefix";
    }
    auto slash = prefix.find_last_of('/');
    std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : prefix.substr(0, slash);
    struct stat info;
    if (stat(dir.c_str(), &info) != 0)
    {
        return "directory '" + dir + "' does not exist";
    }
    if (!S_ISDIR(info.st_mode))
    {
        return "'" + dir + "' is not a directory";
    }
    if (access(dir.c_str(), W_OK | X_OK) != 0)
    {
        return "directory '" + dir + "' is not writable";
    }
    return "";
}

} // namespace ns3
