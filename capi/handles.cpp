#include "capi/handles.hpp"

#include <new>

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

rescue_status record_exception(std::string* msg, std::exception_ptr e) noexcept {
  Status status = Status::Internal;
  try {
    try {
      std::rethrow_exception(e);
    } catch (const Error& err) {
      status = err.status();
      record(msg, err.what());
    } catch (const std::bad_alloc&) {
      status = Status::OutOfMemory;
      record(msg, "out of memory");
    } catch (const std::exception& err) {
      record(msg, std::string("internal error: ") + err.what());
    } catch (...) {
      record(msg, "internal error: unknown exception");
    }
  } catch (...) {  // the message itself could not be built
  }
  return static_cast<rescue_status>(status);
}

rescue_status null_handle(const char* what) noexcept {
  try {
    record(nullptr, std::string(what) + " is NULL");
  } catch (...) {
  }
  return RESCUE_ERR_NULL_POINTER;
}

}  // namespace rescue::capi
