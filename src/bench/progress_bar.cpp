#include "bench/progress_bar.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace rescue::bench {

std::string render_bar(double fraction, int width) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  const int filled = static_cast<int>(fraction * width + 1e-9);
  char pct[16];
  std::snprintf(pct, sizeof pct, "%5.1f%%", 100.0 * fraction);
  return "[" + std::string(filled, '#') + std::string(width - filled, '.') + "] " + pct;
}

std::string format_duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm%02lds", s / 3600, (s / 60) % 60, s % 60);
  else if (s >= 60)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%lds", s);
  return buf;
}

ProgressBar::ProgressBar(std::size_t runs, std::ostream& out, bool terminal, double interval)
    : fraction_(runs, 0.0), out_(out), terminal_(terminal), interval_(interval),
      start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

double ProgressBar::fraction() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (fraction_.empty()) return 1.0;
  double s = 0.0;
  for (double f : fraction_) s += f;
  return s / static_cast<double>(fraction_.size());
}

void ProgressBar::update(std::size_t index, double fraction) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (index < fraction_.size()) fraction_[index] = std::clamp(fraction, 0.0, 1.0);
  draw(false);
}

void ProgressBar::finish(std::size_t index, const std::string& note) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (index < fraction_.size()) fraction_[index] = 1.0;
  ++finished_;
  if (terminal_) out_ << "\r\033[K";
  out_ << note << '\n';
  draw(true);
}

void ProgressBar::draw(bool force) {
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_draw_).count();
  if (!force && since < (terminal_ ? 0.2 : interval_)) return;
  if (!terminal_ && force && since < interval_ && finished_ < fraction_.size()) return;
  last_draw_ = now;
  double s = 0.0;
  for (double f : fraction_) s += f;
  const double frac = fraction_.empty() ? 1.0 : s / static_cast<double>(fraction_.size());
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::string line = render_bar(frac, 30) + "  " + std::to_string(finished_) + "/" +
                     std::to_string(fraction_.size()) + " runs  elapsed " + format_duration(elapsed);
  if (frac > 0.01 && frac < 1.0) line += "  eta " + format_duration(elapsed * (1.0 - frac) / frac);
  if (terminal_)
    out_ << "\r\033[K" << line << std::flush;
  else
    out_ << line << '\n' << std::flush;
}

}  // namespace rescue::bench
