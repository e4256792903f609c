#include "bench/number_format.hpp"

#include <cmath>
#include <cstdio>

namespace rescue::bench {

std::string fixed(double v, int digits) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string significant(double v, int digits) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

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
