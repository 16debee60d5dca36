/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_CSV_READER_H
#define SUITE_CSV_READER_H

#include "ns3/nstime.h"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup suite
 * The longest simulated time a workload value (trace time, scaled arrival, metric) may give:
 * 9.2e9 s (about 291 years), just under ns-3's limit of 2^63 ns, beyond which Time wraps.
 */
constexpr double SUITE_MAX_TIME_SECONDS = 9.2e9;

/**
 * \ingroup suite
 * \param seconds a time in seconds
 * \return whether it is finite, >= 0 and at most SUITE_MAX_TIME_SECONDS
 */
inline bool
SuiteFitsInTime(double seconds)
{
    return std::isfinite(seconds) && seconds >= 0 && seconds <= SUITE_MAX_TIME_SECONDS;
}

/**
 * \ingroup suite
 * \brief Reads a CSV file with a header row, one record at a time; every error names the
 *        file, the line and the field.
 *
 * Lines that are empty or start with '#' are skipped. Fields are split at commas (no
 * quoting). The header names each column once; every row has as many fields as the header.
 * A number is written in decimal and starts with a digit: no sign, space or hexadecimal
 * ("0x10"); a whole number is digits only and is read exactly, a real number may have a
 * fraction and an exponent ("0.5", "1e-3"). Errors throw std::runtime_error with one line:
 * "<file>:<line>: field '<name>' ...", echoing a field cut to SUITE_SHOWN_CHARACTERS.
 */
class SuiteCsvReader
{
  public:
    /**
     * \brief Open a file and read its header.
     * \param path the file
     * \param required columns the header must contain
     */
    SuiteCsvReader(const std::string& path, const std::vector<std::string>& required);

    /// \return true when a next record was read
    bool Next();

    /// \param column a header name \return the field of the current record ("" if absent)
    std::string Text(const std::string& column) const;
    /// \param column a header name \return the field as a number > 0, or throw
    double Positive(const std::string& column) const;
    /// \param column a header name \return the field as a number >= 0, or throw
    double NonNegative(const std::string& column) const;
    /// \param column a header name \return the field as an integer >= 1, or throw
    uint64_t PositiveInteger(const std::string& column) const;
    /**
     * \param column a header name
     * \param min the smallest value allowed
     * \param max the largest value allowed (at most MAX_EXACT_INTEGER)
     * \return the field as a whole number in [min, max], or throw (never cut or wrapped)
     */
    uint64_t Integer(const std::string& column, uint64_t min, uint64_t max) const;
    /**
     * \param column a header name
     * \param unitSeconds seconds per unit of the field (1: seconds, 1e-3: milliseconds)
     * \return the field, a number >= 0, as a Time; throw if it is not finite, negative or
     *         beyond SUITE_MAX_TIME_SECONDS (ns-3's Time would wrap)
     */
    Time Duration(const std::string& column, double unitSeconds) const;

    /// The largest integer a field may hold: 2^53, the last one a double holds exactly.
    static constexpr uint64_t MAX_EXACT_INTEGER = uint64_t{1} << 53;

    /// \return "<file>:<line>" of the current record
    std::string Where() const;
    /// \param column a header name \return whether the header has it
    bool HasColumn(const std::string& column) const;

  private:
    /// \param column a header name \param what the expectation \return never; throws
    [[noreturn]] void Fail(const std::string& column, const std::string& what) const;

    std::string m_path;                           //!< the file
    std::ifstream m_in;                           //!< its stream
    uint64_t m_line;                              //!< current line number
    std::map<std::string, std::size_t> m_columns; //!< header name -> index
    std::size_t m_width;                          //!< fields of the header
    std::vector<std::string> m_fields;            //!< current record
};

} // namespace ns3

#endif /* SUITE_CSV_READER_H */
