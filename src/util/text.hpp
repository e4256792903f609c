// Text helpers shared by the layers.
#pragma once
#include <string>

namespace rescue {

/// `v` as printf's "%.17g" writes it: enough digits to read the same double back.
std::string fmt17(double v);

}  // namespace rescue
