#include "bench/number_format.hpp"

#include <cmath>
#include <cstdio>

namespace rescue::bench {

namespace {

// v by printf's %.*f (decimals) or %.*g (significant digits); NaN and infinities as words.
std::string printed(double v, int digits, bool significant_digits) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  if (significant_digits)
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  else
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

std::string fixed(double v, int digits) { return printed(v, digits, false); }

std::string significant(double v, int digits) { return printed(v, digits, true); }

std::string p_value_text(double p) {
  if (std::isnan(p)) return "-";
  char buf[64];
  if (p < 1e-4)
    std::snprintf(buf, sizeof buf, "%.1e", p);
  else
    std::snprintf(buf, sizeof buf, "%.4f", p);
  return buf;
}

}  // namespace rescue::bench
