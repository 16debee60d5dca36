/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_PLOT_BOUNDS_H
#define SUITE_PLOT_BOUNDS_H

#include <limits>
#include <string>

namespace ns3
{

/**
 * \ingroup suite
 * \brief The extent of a plot's points, to give gnuplot a range where its own would be empty
 *        (no points, or all values equal: gnuplot warns "empty x range", and fails on an
 *        explicit empty range).
 */
class SuitePlotBounds
{
  public:
    /// Add a point.
    /// \param x its x
    /// \param y its y
    void Add(double x, double y);

    /// \return "set xrange [lo:hi]\n" when the x values span no range, else ""
    std::string XRange() const;

    /// \return "set yrange [lo:hi]\n" when the y values span no range, else ""
    std::string YRange() const;

    /**
     * \param lo the smallest value (greater than hi when there is none)
     * \param hi the largest value
     * \param axis "x" or "y"
     * \return "set <axis>range [lo:hi]\n" around the value when lo >= hi, else ""; the
     *         range is [v/2:2v] for v > 0 (valid on a log scale), [2v:v/2] for v < 0 and
     *         [0:1] for none or 0
     */
    static std::string Range(double lo, double hi, const std::string& axis);

  private:
    double m_xMin = std::numeric_limits<double>::infinity();  //!< smallest x
    double m_xMax = -std::numeric_limits<double>::infinity(); //!< largest x
    double m_yMin = std::numeric_limits<double>::infinity();  //!< smallest y
    double m_yMax = -std::numeric_limits<double>::infinity(); //!< largest y
};

} // namespace ns3

#endif /* SUITE_PLOT_BOUNDS_H */
