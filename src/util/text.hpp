// Text helpers shared by the layers.
#pragma once
#include <string>
#include <vector>

namespace rescue {

/// `v` as printf's "%.17g" writes it: enough digits to read the same double back.
std::string fmt17(double v);

/// The names separated by ", " (the "known: ..." lists of error messages).
std::string comma_list(const std::vector<std::string>& names);

}  // namespace rescue
