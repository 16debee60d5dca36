/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_ERROR_OF_H
#define SUITE_ERROR_OF_H

#include <exception>
#include <string>

namespace ns3
{

/**
 * \brief For tests of refused input: run `f` and return the message of the E it throws.
 * \tparam E the exception expected (std::exception: any)
 * \param f what to run
 * \return the message, or "" when `f` throws nothing (another exception propagates)
 */
template <typename E = std::exception, typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const E& e)
    {
        return e.what();
    }
    return "";
}

} // namespace ns3

#endif /* SUITE_ERROR_OF_H */
