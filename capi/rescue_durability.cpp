// The C ABI of the crash-safe journal (engine/journal.hpp). Like the rest of the
// C ABI it only validates arguments and turns exceptions into status codes.
#include "rescue.h"

#include <memory>
#include <new>
#include <string>

#include "engine/journal.hpp"
#include "engine/optimizer.hpp"
#include "util/error.hpp"

// The optimizer handle, defined identically in rescue.cpp (one definition, two
// translation units): these functions need its engine.
struct rescue_optimizer {
  std::unique_ptr<rescue::engine::Optimizer> engine;
  std::string errmsg;
  std::string strategy;
};

namespace {

using rescue::Error;
using rescue::Status;

// Runs f and turns any exception into a status, storing the message in *msg.
template <class F>
rescue_status run(std::string* msg, F&& f) noexcept {
  Status status = Status::Ok;
  std::string text;
  try {
    f();
    return RESCUE_OK;
  } catch (const Error& e) {
    status = e.status();
    text = e.what();
  } catch (const std::bad_alloc&) {
    status = Status::OutOfMemory;
    text = "out of memory";
  } catch (const std::exception& e) {
    status = Status::Internal;
    text = std::string("internal error: ") + e.what();
  } catch (...) {
    status = Status::Internal;
    text = "internal error: unknown exception";
  }
  try {
    if (msg) *msg = text;
  } catch (...) {
  }
  return static_cast<rescue_status>(status);
}

}  // namespace

extern "C" {

rescue_status rescue_journal_open(rescue_optimizer* opt, const char* path) {
  if (!opt) return RESCUE_ERR_NULL_POINTER;
  return run(&opt->errmsg, [&] {
    if (!path) rescue::fail(Status::NullPointer, "journal path is NULL");
    rescue::engine::Journal::attach(*opt->engine, path);
  });
}

rescue_status rescue_journal_close(rescue_optimizer* opt) {
  if (!opt) return RESCUE_ERR_NULL_POINTER;
  opt->engine->set_listener(nullptr);
  return RESCUE_OK;
}

int rescue_journal_is_open(const rescue_optimizer* opt) {
  if (!opt) return -1;
  return opt->engine->has_listener() ? 1 : 0;
}

rescue_status rescue_journal_resume(const char* path, rescue_optimizer** out, int* torn_tail) {
  if (!out) return RESCUE_ERR_NULL_POINTER;
  *out = nullptr;
  if (torn_tail) *torn_tail = 0;
  if (!path) return RESCUE_ERR_NULL_POINTER;
  std::string message;
  const rescue_status status = run(&message, [&] {
    auto h = std::make_unique<rescue_optimizer>();
    rescue::engine::ReplayInfo info;
    h->engine = rescue::engine::Journal::resume(path, &info);
    h->strategy = h->engine->spec().strategy();
    if (torn_tail) *torn_tail = info.torn_tail ? 1 : 0;
    *out = h.release();
  });
  return status;
}

}  // extern "C"
