// Deterministic random numbers. The distributions are written out here rather
// than taken from <random> so that the same seed gives the same stream on every
// standard library (std::uniform_real_distribution and friends are
// implementation-defined), which keeps checkpoints and cross-language results
// reproducible.
#pragma once
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>

namespace rescue {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) : engine_(seed) {}

  std::uint64_t next_u64() { return engine_(); }

  /// Uniform on [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  /// Uniform on [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  /// Uniform integer on [0, n) without modulo bias; n must be > 0.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t r;
    do {
      r = engine_();
    } while (r >= limit);
    return r % n;
  }

  /// Standard normal by the Box-Muller transform (second value cached).
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u1;
    do {
      u1 = uniform();
    } while (u1 <= 0.0);
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double t = 2.0 * M_PI * u2;
    spare_ = r * std::sin(t);
    has_spare_ = true;
    return r * std::cos(t);
  }

  /// A new independent generator derived from this one (for sub-tasks).
  Rng split() { return Rng(engine_() ^ 0x9E3779B97F4A7C15ULL); }

  /// Full state as text (exact round trip through from_string).
  std::string to_string() const {
    std::ostringstream os;
    os << engine_ << ' ' << (has_spare_ ? 1 : 0) << ' ';
    os.precision(17);
    os << std::hexfloat << spare_;
    return os.str();
  }

  /// Restores a state written by to_string; returns false if the text is malformed.
  bool from_string(const std::string& text) {
    std::istringstream is(text);
    std::mt19937_64 e;
    int spare_flag = 0;
    std::string spare_text;
    if (!(is >> e >> spare_flag >> spare_text)) return false;
    if (spare_flag != 0 && spare_flag != 1) return false;
    char* end = nullptr;
    const double spare = std::strtod(spare_text.c_str(), &end);
    if (end == spare_text.c_str() || *end != '\0') return false;
    engine_ = e;
    has_spare_ = spare_flag == 1;
    spare_ = spare;
    return true;
  }

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace rescue
