// Plots of a benchmark with gnuplot (PNG and SVG): per problem, the best
// log10 regret against cumulative cost (mean and one-sd band over seeds per
// strategy), the distribution of chosen fidelities per strategy, and the
// constraint-violation rates. The data files and gnuplot scripts are written
// next to the images so that a plot can be restyled without rerunning.
#pragma once
#include <string>
#include <vector>

#include "bench/run_record.hpp"

namespace rescue::bench {

/// Whether a gnuplot executable is on the PATH.
bool gnuplot_available();

/// Mean and sd over runs of the best log10 regret at `points` evenly spaced
/// costs from 0 to the end of the budget. Rows: cost, then (mean, sd) per strategy.
std::vector<std::vector<double>> regret_bands(const std::vector<RunResult>& runs,
                                              const std::vector<std::string>& strategies, int points);

/// Writes the data and scripts for one problem's plots into `dir`, and runs
/// gnuplot on them when `render` is set. Returns the image files written.
std::vector<std::string> write_problem_plots(const std::string& dir, const std::string& problem,
                                             const std::vector<RunResult>& runs,
                                             const std::vector<std::string>& strategies, bool render);

}  // namespace rescue::bench
