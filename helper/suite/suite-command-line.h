/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_COMMAND_LINE_H
#define SUITE_COMMAND_LINE_H

#include "suite-number-parser.h"
#include "suite-unit-parser.h"

#include "ns3/callback.h"
#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace ns3
{

/**
 * \ingroup suite
 * \brief ns3::CommandLine with strict values and one-line errors.
 *
 * Parse() checks every argument before ns-3 reads it. A program option's value must suit its
 * type (integers without fraction, exponent, or a sign where unsigned, within the type;
 * finite numbers; times with a unit that fit 64-bit nanoseconds; true or false for flags);
 * --ns3::Type::Attribute=value and ns-3's global values (--RngRun, --RngSeed, ...) must be
 * known and pass SuiteCheckValueText(). Anything else prints one line,
 * "error: --name=value: <what was expected>", on stderr and exits with status 1 (ns-3 would
 * print its whole usage, or abort). --PrintHelp and ns-3's other --Print* options work as
 * before. String options keep their spaces (ns-3 would cut them at the first).
 */
class SuiteCommandLine
{
  public:
    /// \param filename the program's source file (__FILE__), for --PrintHelp
    explicit SuiteCommandLine(const std::string& filename);

    /// \param usage the program's description, for --PrintHelp
    void Usage(const std::string& usage);

    /**
     * Add a program option.
     * \param name the option, without "--"
     * \param help its help text
     * \param value the variable it sets (its current value is the default)
     */
    template <typename T>
    void AddValue(const std::string& name, const std::string& help, T& value)
    {
        if constexpr (std::is_same_v<T, std::string>)
        {
            // ns-3.37 reads strings with operator>>, which stops at the first space.
            m_cmd.AddValue(name, help, MakeBoundCallback(&SetString, &value), value);
        }
        else
        {
            m_cmd.AddValue(name, help, value);
        }
        m_checks[name] = ValueCheck<T>();
    }

    /**
     * Add an option that names an output prefix or file: after parsing, its directory must
     * exist and be writable (SuiteCheckOutputPrefix()).
     * \param name the option, without "--"
     * \param help its help text
     * \param value the variable it sets (its current value is the default)
     */
    void AddOutputPrefix(const std::string& name, const std::string& help, std::string& value);

    /**
     * Add an option that sets an attribute's default (ns3::CommandLine's alias form).
     * \param name the option, without "--"
     * \param attributePath the attribute, "ns3::<Type>::<Attribute>"
     */
    void AddValue(const std::string& name, const std::string& attributePath);

    /**
     * Check the arguments, then let ns-3 parse them; on a bad argument print one line on
     * stderr and exit with status 1.
     * \param argc argument count
     * \param argv arguments (argv[0] is the program)
     */
    void Parse(int argc, char* argv[]);

    /**
     * Check the arguments without parsing them.
     * \param argc argument count
     * \param argv arguments (argv[0] is the program)
     * \return "" when all are valid, else the message for the first bad one
     *         ("--name=value: <problem>")
     */
    std::string Check(int argc, char* argv[]) const;

  private:
    /// Checks a value's text: "" when valid, else what was expected.
    using Checker = std::function<std::string(const std::string&)>;

    /// \return the check of a program option of type T
    template <typename T>
    static Checker ValueCheck()
    {
        if constexpr (std::is_same_v<T, bool>)
        {
            return CheckBool;
        }
        else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>)
        {
            return [](const std::string& text) {
                uint64_t n = 0;
                return SuiteParseUnsigned(text, n, 0, std::numeric_limits<T>::max())
                           ? std::string()
                           : "expected an integer from 0 to " +
                                 std::to_string(std::numeric_limits<T>::max());
            };
        }
        else if constexpr (std::is_integral_v<T>)
        {
            return [](const std::string& text) {
                int64_t n = 0;
                return SuiteParseSigned(text,
                                        n,
                                        std::numeric_limits<T>::min(),
                                        std::numeric_limits<T>::max())
                           ? std::string()
                           : "expected an integer from " +
                                 std::to_string(std::numeric_limits<T>::min()) + " to " +
                                 std::to_string(std::numeric_limits<T>::max());
            };
        }
        else if constexpr (std::is_floating_point_v<T>)
        {
            return [](const std::string& text) {
                double n = 0;
                return SuiteParseDouble(text, n) ? std::string() : "expected a finite number";
            };
        }
        else if constexpr (std::is_same_v<T, Time>)
        {
            return [](const std::string& text) {
                Time t;
                return SuiteParseTime(text, t) ? std::string()
                                               : "expected a time such as 10ms, with no "
                                                 "space, that fits 64-bit nanoseconds";
            };
        }
        else if constexpr (std::is_same_v<T, DataRate>)
        {
            return [](const std::string& text) {
                DataRate r;
                return SuiteParseDataRate(text, r)
                           ? std::string()
                           : "expected a data rate such as 100Gbps, with no space";
            };
        }
        return [](const std::string&) { return std::string(); };
    }

    /// \param target the string option's variable
    /// \param value its whole value, spaces included
    /// \return true
    static bool SetString(std::string* target, std::string value);

    /// \param text a flag's value ("" for the bare --flag)
    /// \return "" when it is true, false, t, f, 1, 0 (any case) or empty
    static std::string CheckBool(const std::string& text);

    /// \param name an attribute path
    /// \param value its text
    /// \return "" when valid, else the problem
    static std::string CheckAttribute(const std::string& name, const std::string& value);

    CommandLine m_cmd;                             //!< ns-3's parser
    std::map<std::string, Checker> m_checks;       //!< program options and aliases
    std::map<std::string, std::string*> m_outputs; //!< output prefix options
};

} // namespace ns3

#endif /* SUITE_COMMAND_LINE_H */
