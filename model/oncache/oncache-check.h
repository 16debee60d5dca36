/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_CHECK_H
#define ONCACHE_CHECK_H

#include <sstream>
#include <stdexcept>

/**
 * \ingroup oncache
 * \brief Throw `exception` with a streamed one-line message unless `condition` holds.
 *
 * Configuration and input errors throw (std::invalid_argument, std::out_of_range) rather
 * than abort, so programs print one clear line and exit non-zero, and tests can check them.
 */
#define ONCACHE_REQUIRE(condition, exception, message)                                             \
    do                                                                                             \
    {                                                                                              \
        if (!(condition))                                                                          \
        {                                                                                          \
            std::ostringstream oncacheRequireStream;                                               \
            oncacheRequireStream << message;                                                       \
            throw exception(oncacheRequireStream.str());                                           \
        }                                                                                          \
    } while (false)

#endif /* ONCACHE_CHECK_H */
