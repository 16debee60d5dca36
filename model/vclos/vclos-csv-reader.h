/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VCLOS_CSV_READER_H
#define VCLOS_CSV_READER_H

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup vclos
 * \brief Reads a CSV file with a header row, one record at a time; every error names the
 *        file, the line and the field.
 *
 * Lines that are empty or start with '#' are skipped. Fields are split at commas (no
 * quoting). Errors throw std::runtime_error with one line: "<file>:<line>: field '<name>' ...".
 */
class VclosCsvReader
{
  public:
    /**
     * \brief Open a file and read its header.
     * \param path the file
     * \param required columns the header must contain
     */
    VclosCsvReader(const std::string& path, const std::vector<std::string>& required);

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

    /// \return "<file>:<line>" of the current record
    std::string Where() const;
    /// \param column a header name \return whether the header has it
    bool HasColumn(const std::string& column) const;

  private:
    /// \param column a header name \param what the expectation \return never; throws
    [[noreturn]] void Fail(const std::string& column, const std::string& what) const;

    std::string m_path;                           //!< the file
    std::ifstream m_in;                           //!< its stream
    uint32_t m_line;                              //!< current line number
    std::map<std::string, std::size_t> m_columns; //!< header name -> index
    std::vector<std::string> m_fields;            //!< current record
};

} // namespace ns3

#endif /* VCLOS_CSV_READER_H */
