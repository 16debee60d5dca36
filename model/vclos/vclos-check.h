/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VCLOS_CHECK_H
#define VCLOS_CHECK_H

#include <sstream>
#include <stdexcept>

/**
 * \ingroup vclos
 * \brief Throw `exception` with a streamed one-line message unless `condition` holds.
 *
 * Configuration and input errors throw (std::invalid_argument, std::out_of_range) rather
 * than abort, so programs print one clear line and exit non-zero, and tests can check them.
 */
#define VCLOS_REQUIRE(condition, exception, message)                                               \
    do                                                                                             \
    {                                                                                              \
        if (!(condition))                                                                          \
        {                                                                                          \
            std::ostringstream vclosRequireStream;                                                 \
            vclosRequireStream << message;                                                         \
            throw exception(vclosRequireStream.str());                                             \
        }                                                                                          \
    } while (false)

#endif /* VCLOS_CHECK_H */
