// Numbers as the harness's Markdown reports print them.
#pragma once
#include <string>

namespace rescue::bench {

/// Fixed-point with `digits` decimals; "-" for NaN, "inf" / "-inf" for infinities.
std::string fixed(double v, int digits);

/// `digits` significant digits (printf's %g); "-" for NaN, "inf" / "-inf" for infinities.
std::string significant(double v, int digits);

/// A p-value: four decimals, or scientific notation below 1e-4; "-" for NaN.
std::string p_value_text(double p);

}  // namespace rescue::bench
