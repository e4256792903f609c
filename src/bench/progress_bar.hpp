// A progress bar for a batch of runs, safe to update from several threads. On
// a terminal it redraws one line; otherwise it prints a line at most every
// `interval` seconds, so that logs stay short.
#pragma once
#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <mutex>
#include <string>
#include <vector>

namespace rescue::bench {

/// "[#####.....]  50.0%" for width 10 and fraction 0.5 (clipped to [0, 1]).
std::string render_bar(double fraction, int width);
/// "1h02m03s", "4m05s" or "6s".
std::string format_duration(double seconds);

class ProgressBar {
 public:
  ProgressBar(std::size_t runs, std::ostream& out, bool terminal, double interval = 30.0);
  /// Run `index` has spent this fraction of its budget.
  void update(std::size_t index, double fraction);
  /// Run `index` is finished; `note` is printed on its own line.
  void finish(std::size_t index, const std::string& note);
  /// Overall fraction done (mean over runs).
  double fraction() const;

 private:
  void draw(bool force);
  std::vector<double> fraction_;
  std::size_t finished_ = 0;
  std::ostream& out_;
  bool terminal_;
  double interval_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  mutable std::mutex mutex_;
};

}  // namespace rescue::bench
