/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VCLOS_FUZZ_SUPPORT_H
#define VCLOS_FUZZ_SUPPORT_H

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

/**
 * \file
 * What every fuzz target shares. A target feeds one input to a reader of the suite; a
 * refusal is an exception derived from std::exception whose message is one line (it becomes
 * the program's one "error: ..." line) and, for a file reader, names the file. Anything else
 * is a finding: a crash, a sanitizer report, a hang, std::bad_alloc (an allocation sized by
 * the input, not refused first), a refusal that breaks those rules, or an accepted input
 * whose result breaks a documented property (the target aborts).
 */

/**
 * \brief The suite's readers take file paths: this writes one fuzz input to a temporary file
 *        (one per suffix and process, rewritten for every input, removed at exit).
 * \param data the input
 * \param size its length
 * \param suffix the file name's ending (".json", ".csv"), as users' files have
 * \return the path
 */
std::string VclosFuzzInputFile(const uint8_t* data, std::size_t size, const std::string& suffix);

/**
 * \brief Check that a caught exception is a proper refusal; abort (a finding) if it is not.
 * \param error the exception
 * \param mustName text the message must contain (the file's path), or "" for none
 */
void VclosFuzzCheckRefusal(const std::exception& error, const std::string& mustName);

/**
 * \brief Check a property that the reader's documentation promises for an input it accepted
 *        (e.g. jobs sorted by arrival, no negative time); abort (a finding) if it fails.
 * \param holds whether the property holds
 * \param property what it says, for the message
 */
void VclosFuzzRequire(bool holds, const std::string& property);

#endif /* VCLOS_FUZZ_SUPPORT_H */
