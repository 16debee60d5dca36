/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_GNUPLOT_H
#define SUITE_GNUPLOT_H

#include "ns3/gnuplot.h"

#include <string>

namespace ns3
{

/**
 * \ingroup suite
 * \brief Find an executable the way a shell would, by searching $PATH.
 * \param name the program's name (no slash)
 * \return its path, or "" when $PATH has none
 */
std::string SuiteFindProgram(const std::string& name);

/**
 * \ingroup suite
 * \param text any text
 * \return the text as a gnuplot single-quoted string, in which gnuplot substitutes nothing
 *         (a double-quoted string runs `backquoted` commands); quotes are doubled, line
 *         breaks become spaces
 */
std::string SuiteGnuplotQuote(const std::string& text);

/**
 * \ingroup suite
 * \brief Write a plot to <file>.plt and render <file>.png with gnuplot, run directly with an
 *        argument vector (no shell) and the output file named in a single-quoted string, so
 *        that no text of the user's can run a command. The plot's own output file name is
 *        replaced. Missing gnuplot or a failure gives a warning line on stderr.
 * \param plot the plot (its terminal, title, datasets ...)
 * \param file the path without extension
 * \param inlineData text written after the plot's own (the data of a plot command that the
 *        plot's extra text ends with), if any
 * \return true when the image was rendered
 */
bool SuiteRenderPlot(Gnuplot& plot, const std::string& file, const std::string& inlineData = "");

} // namespace ns3

#endif /* SUITE_GNUPLOT_H */
