#include "util/text.hpp"

#include <cstdio>

namespace rescue {

std::string fmt17(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace rescue
