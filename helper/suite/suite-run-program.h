/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_RUN_PROGRAM_H
#define SUITE_RUN_PROGRAM_H

namespace ns3
{

/**
 * \ingroup suite
 * \brief Run a program's body: an exception (bad input, or a run stopped by a cause that
 *        SuiteCheckRunStatus() and the like rethrow after Simulator::Run) becomes one line on
 *        stderr, "error: <what>", and exit status 1.
 * \param argc argument count
 * \param argv arguments
 * \param body the program
 * \return the program's exit status
 */
int SuiteRunProgram(int argc, char* argv[], int (*body)(int, char*[]));

} // namespace ns3

#endif /* SUITE_RUN_PROGRAM_H */
