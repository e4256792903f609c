#include "capi/handles.hpp"

namespace rescue::capi {

std::string& last_error() {
  thread_local std::string message;
  return message;
}

void record(std::string* msg, const std::string& text) noexcept {
  try {
    if (msg) *msg = text;
    last_error() = text;
  } catch (...) {
  }
}

rescue_status null_handle(const char* what) noexcept {
  try {
    record(nullptr, std::string(what) + " is NULL");
  } catch (...) {
  }
  return RESCUE_ERR_NULL_POINTER;
}

}  // namespace rescue::capi
