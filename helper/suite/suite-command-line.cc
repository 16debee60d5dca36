/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-command-line.h"

#include "suite-attribute-text.h"
#include "suite-output-prefix.h"

#include "ns3/global-value.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <set>

namespace ns3
{

SuiteCommandLine::SuiteCommandLine(const std::string& filename)
    : m_cmd(filename)
{
}

void
SuiteCommandLine::Usage(const std::string& usage)
{
    m_cmd.Usage(usage);
}

void
SuiteCommandLine::AddOutputPrefix(const std::string& name,
                                  const std::string& help,
                                  std::string& value)
{
    AddValue(name, help, value);
    m_outputs[name] = &value;
}

void
SuiteCommandLine::AddValue(const std::string& name, const std::string& attributePath)
{
    m_cmd.AddValue(name, attributePath);
    m_checks[name] = [attributePath](const std::string& text) {
        return CheckAttribute(attributePath, text);
    };
}

void
SuiteCommandLine::Parse(int argc, char* argv[])
{
    std::string problem = Check(argc, argv);
    if (!problem.empty())
    {
        std::cerr << "error: " << problem << std::endl;
        std::exit(1);
    }
    m_cmd.Parse(argc, argv);
    for (const auto& [name, value] : m_outputs)
    {
        std::string unusable = SuiteCheckOutputPrefix(*value);
        if (!unusable.empty())
        {
            std::cerr << "error: --" << name << "=" << *value << ": " << unusable << std::endl;
            std::exit(1);
        }
    }
}

bool
SuiteCommandLine::SetString(std::string* target, std::string value)
{
    *target = value;
    return true;
}

std::string
SuiteCommandLine::CheckBool(const std::string& text)
{
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    static const std::set<std::string> valid{"", "true", "false", "t", "f", "1", "0"};
    return valid.count(lower) != 0 ? "" : "expected true or false";
}

std::string
SuiteCommandLine::CheckAttribute(const std::string& name, const std::string& value)
{
    auto split = name.rfind("::");
    TypeId tid;
    TypeId::AttributeInformation info;
    if (split == std::string::npos || !TypeId::LookupByNameFailSafe(name.substr(0, split), &tid) ||
        !tid.LookupAttributeByName(name.substr(split + 2), &info))
    {
        return "no such attribute (expected --ns3::<Type>::<Attribute>=<value>)";
    }
    return SuiteCheckAttributeText(info, value);
}

std::string
SuiteCommandLine::Check(int argc, char* argv[]) const
{
    // ns-3's own options (--help is --PrintHelp, --version is --PrintVersion).
    static const std::set<std::string> ns3Options{"PrintHelp",
                                                  "help",
                                                  "PrintVersion",
                                                  "version",
                                                  "PrintGroups",
                                                  "PrintGroup",
                                                  "PrintTypeIds",
                                                  "PrintGlobals",
                                                  "PrintAttributes"};
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : arg.rfind('-', 0) == 0 ? 1 : 0;
        if (dashes == 0)
        {
            return arg + ": unexpected argument (options are --<name>=<value>; see --PrintHelp)";
        }
        std::size_t equals = arg.find('=');
        std::string name =
            arg.substr(dashes, equals == std::string::npos ? equals : equals - dashes);
        std::string value = equals == std::string::npos ? "" : arg.substr(equals + 1);
        std::string problem;
        auto option = m_checks.find(name);
        if (ns3Options.count(name) != 0)
        {
            continue;
        }
        else if (option != m_checks.end())
        {
            problem = option->second(value);
        }
        else if (name.find("::") != std::string::npos)
        {
            problem = CheckAttribute(name, value);
        }
        else
        {
            problem = "unknown argument (see --PrintHelp)";
            for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
            {
                if ((*g)->GetName() == name)
                {
                    problem = SuiteCheckValueText((*g)->GetChecker(), value);
                }
            }
            // ns-3 aborts on seed 0, which RngSeed's checker allows.
            if (name == "RngSeed" && problem.empty() &&
                value.find_first_not_of("+0") == std::string::npos)
            {
                problem = "expected a seed from 1 to 4294967295";
            }
        }
        if (!problem.empty())
        {
            return arg + ": " + problem;
        }
    }
    return "";
}

} // namespace ns3
