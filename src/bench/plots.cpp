#include "bench/plots.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "bench/regret_curve.hpp"
#include "bench/statistics.hpp"
#include "util/error.hpp"

namespace rescue::bench {

bool gnuplot_available() { return std::system("gnuplot --version > /dev/null 2>&1") == 0; }

namespace {

std::vector<const RunResult*> runs_of(const std::vector<RunResult>& runs, const std::string& strategy) {
  std::vector<const RunResult*> out;
  for (const auto& r : runs)
    if (r.spec.strategy == strategy && !r.iterations.empty() && r.stop_reason.rfind("error", 0) != 0)
      out.push_back(&r);
  return out;
}

void open_or_fail(std::ofstream& f, const std::string& path) {
  f.open(path);
  if (!f) fail(Status::Io, "cannot write " + path);
}

const char* kColors[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"};

std::string color(std::size_t i) { return kColors[i % (sizeof kColors / sizeof kColors[0])]; }

// Runs a script once per terminal; the script reads TERMINAL_LINE and OUTFILE.
void render_script(const std::string& script, const std::string& stem, std::vector<std::string>& images) {
  const std::pair<const char*, const char*> terms[] = {
      {"pngcairo size 900,600 font 'sans,11'", ".png"}, {"svg size 900,600 dynamic font 'sans,11'", ".svg"}};
  for (const auto& [term, ext] : terms) {
    const std::string out = stem + ext;
    const std::string cmd = "gnuplot -e \"set terminal " + std::string(term) + "; set output '" + out + "'\" '" +
                            script + "' > /dev/null 2>&1";
    if (std::system(cmd.c_str()) == 0) images.push_back(out);
  }
}

// One plot: its data as <stem>.dat, closed before gnuplot reads it, its script
// as <stem>.gp, and the script rendered when `render` is set.
void write_plot(const std::string& stem, const std::string& data, const std::string& script, bool render,
                std::vector<std::string>& images) {
  for (const auto& [ext, text] : {std::pair{".dat", &data}, std::pair{".gp", &script}}) {
    std::ofstream f;
    open_or_fail(f, stem + ext);
    f << *text;
  }
  if (render) render_script(stem + ".gp", stem, images);
}

}  // namespace

std::vector<std::vector<double>> regret_bands(const std::vector<RunResult>& runs,
                                              const std::vector<std::string>& strategies, int points) {
  double end = 0.0;
  for (const auto& r : runs) end = std::max(end, r.spec.initial_budget + r.spec.budget);
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(points));
  for (int i = 0; i < points; ++i) rows[i].push_back(end * i / (points - 1));
  for (const auto& s : strategies) {
    // Each run's best-so-far curve, starting at cost 0 with the regret of an empty set.
    std::vector<std::pair<std::vector<double>, std::vector<double>>> curves;
    for (const RunResult* r : runs_of(runs, s)) {
      std::vector<double> c{0.0}, v{log10_regret(r->spec.hv_max, 0.0)};
      for (const auto& it : r->iterations) {
        c.push_back(it.cumulative_cost);
        v.push_back(it.log10_regret);
      }
      curves.emplace_back(std::move(c), running_min(v));
    }
    for (int i = 0; i < points; ++i) {
      // Best so far is a step function of cost: the value of the last point at or before this cost.
      std::vector<double> at;
      for (const auto& [c, v] : curves) {
        std::size_t j = 0;
        while (j + 1 < c.size() && c[j + 1] <= rows[i][0]) ++j;
        at.push_back(v[j]);
      }
      const double nan = std::numeric_limits<double>::quiet_NaN();
      rows[i].push_back(at.empty() ? nan : mean(at));
      rows[i].push_back(at.empty() ? nan : sample_sd(at));
    }
  }
  return rows;
}

std::vector<std::string> write_problem_plots(const std::string& dir, const std::string& problem,
                                             const std::vector<RunResult>& all_runs,
                                             const std::vector<std::string>& all_strategies, bool render) {
  std::vector<RunResult> runs;
  for (const auto& r : all_runs)
    if (r.spec.problem == problem) runs.push_back(r);
  std::vector<std::string> strategies;
  for (const auto& s : all_strategies)
    if (!runs_of(runs, s).empty()) strategies.push_back(s);
  std::vector<std::string> images;
  if (strategies.empty()) return images;
  const std::string stem = dir + "/" + problem;
  double init_end = runs.front().spec.initial_budget;

  // 1. Best log10 regret vs cumulative cost.
  {
    const auto rows = regret_bands(runs, strategies, 201);
    std::ostringstream f;
    f << "# cost";
    for (const auto& s : strategies) f << ' ' << s << ".mean " << s << ".sd";
    f << '\n';
    for (const auto& row : rows) {
      for (std::size_t j = 0; j < row.size(); ++j) f << (j ? " " : "") << row[j];
      f << '\n';
    }
    std::ostringstream g;
    g << "set title '" << problem << ": best log10 hypervolume regret (mean +- 1 sd over seeds)' noenhanced\n"
      << "set xlabel 'cumulative cost (target-fidelity evaluations)'\nset ylabel 'best log10 HV regret'\n"
      << "set key top right noenhanced\nset grid\nset style fill transparent solid 0.18 noborder\n"
      << "set arrow from " << init_end << ", graph 0 to " << init_end << ", graph 1 nohead dt 2 lc rgb '#888888'\n"
      << "plot ";
    for (std::size_t i = 0; i < strategies.size(); ++i) {
      const int mc = 2 + 2 * static_cast<int>(i), sc = mc + 1;
      g << (i ? ", \\\n     " : "") << "'" << stem << "-regret.dat' using 1:($" << mc << "-$" << sc << "):($" << mc
        << "+$" << sc << ") with filledcurves lc rgb '" << color(i) << "' notitle, '' using 1:" << mc
        << " with lines lw 2 lc rgb '" << color(i) << "' title '" << strategies[i] << "'";
    }
    g << "\n";
    write_plot(stem + "-regret", f.str(), g.str(), render, images);
  }

  // 2. Distribution of chosen fidelities (the strategy's own queries), as the
  //    share of queries in each of ten fidelity bins.
  {
    double lo = 1e300, hi = -1e300;
    for (const auto& r : runs)
      for (const auto& it : r.iterations) {
        lo = std::min(lo, it.fidelity);
        hi = std::max(hi, it.fidelity);
      }
    if (!(hi > lo)) hi = lo + 1.0;
    const int bins = 10;
    std::ostringstream f;
    f << "# bin_centre";
    for (const auto& s : strategies) f << ' ' << s;
    f << '\n';
    std::vector<std::vector<double>> share(strategies.size(), std::vector<double>(bins, 0.0));
    for (std::size_t i = 0; i < strategies.size(); ++i) {
      double n = 0;
      for (const RunResult* r : runs_of(runs, strategies[i]))
        for (const auto& it : r->iterations) {
          if (it.initial) continue;
          int b = static_cast<int>((it.fidelity - lo) / (hi - lo) * bins);
          b = std::min(std::max(b, 0), bins - 1);
          share[i][b] += 1;
          n += 1;
        }
      if (n > 0)
        for (double& v : share[i]) v /= n;
    }
    for (int b = 0; b < bins; ++b) {
      f << lo + (hi - lo) * (b + 0.5) / bins;
      for (std::size_t i = 0; i < strategies.size(); ++i) f << ' ' << share[i][b];
      f << '\n';
    }
    std::ostringstream g;
    g << "set title '" << problem << ": chosen fidelities (after the initial design)' noenhanced\n"
      << "set xlabel 'fidelity'\nset ylabel 'share of queries'\nset key top center noenhanced\nset grid\n"
      << "set style data histogram\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
      << "set yrange [0:*]\nplot ";
    for (std::size_t i = 0; i < strategies.size(); ++i)
      g << (i ? ", " : "") << "'" << stem << "-fidelity.dat' using " << i + 2 << ":xtic(sprintf('%.2f', $1)) lc rgb '"
        << color(i) << "' title '" << strategies[i] << "'";
    g << "\n";
    write_plot(stem + "-fidelity", f.str(), g.str(), render, images);
  }

  // 3. Constraint-violation rates: as observed, and of the chosen x at the target.
  {
    std::ostringstream f;
    f << "# strategy observed at_target\n";
    for (const auto& s : strategies) {
      double n = 0, v = 0, vt = 0;
      for (const RunResult* r : runs_of(runs, s))
        for (const auto& it : r->iterations) {
          n += 1;
          v += it.violated;
          vt += it.violated_at_target;
        }
      f << s << ' ' << (n > 0 ? v / n : 0.0) << ' ' << (n > 0 ? vt / n : 0.0) << '\n';
    }
    std::ostringstream g;
    g << "set title '" << problem << ": constraint-violation rate of the queries' noenhanced\n"
      << "set ylabel 'share of queries'\nset yrange [0:1]\nset key top right noenhanced\nset grid ytics\n"
      << "set style data histogram\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
      << "plot '" << stem << "-violations.dat' using 2:xtic(1) lc rgb '" << color(0)
      << "' title 'observed (at the chosen fidelity)', '' using 3 lc rgb '" << color(1)
      << "' title 'chosen x at the target fidelity'\n";
    write_plot(stem + "-violations", f.str(), g.str(), render, images);
  }
  return images;
}

}  // namespace rescue::bench
