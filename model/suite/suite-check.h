/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_CHECK_H
#define SUITE_CHECK_H

#include <sstream>
#include <stdexcept>

/**
 * \ingroup suite
 * \brief Throw `exception` with a streamed one-line message unless `condition` holds.
 *
 * Configuration and input errors throw (std::invalid_argument, std::out_of_range) rather
 * than abort, so programs print one clear line and exit non-zero, and tests can check them.
 */
#define SUITE_REQUIRE(condition, exception, message)                                               \
    do                                                                                             \
    {                                                                                              \
        if (!(condition))                                                                          \
        {                                                                                          \
            std::ostringstream vclosRequireStream;                                                 \
            vclosRequireStream << message;                                                         \
            throw exception(vclosRequireStream.str());                                             \
        }                                                                                          \
    } while (false)

#endif /* SUITE_CHECK_H */
