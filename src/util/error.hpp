// Internal error type. Every layer throws rescue::Error with a status code that
// the C ABI passes through unchanged; the codes mirror rescue_status in rescue.h.
#pragma once
#include <stdexcept>
#include <string>

namespace rescue {

enum class Status : int {
  Ok = 0,
  NullPointer = 1,
  InvalidArgument = 2,
  OutOfRange = 3,
  NonFinite = 4,
  SizeMismatch = 5,
  BufferTooSmall = 6,
  UnknownTicket = 7,
  UnknownName = 8,
  InvalidState = 9,
  BudgetExhausted = 10,
  Io = 11,
  CorruptCheckpoint = 12,
  UnsupportedVersion = 13,
  Numerical = 14,
  OutOfMemory = 15,
  Callback = 16,
  Internal = 99
};

class Error : public std::runtime_error {
 public:
  Error(Status status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  Status status() const noexcept { return status_; }

 private:
  Status status_;
};

[[noreturn]] inline void fail(Status status, const std::string& message) {
  throw Error(status, message);
}

}  // namespace rescue
