// The C ABI of the crash-safe journal (engine/journal.hpp). Like the rest of the
// C ABI it only validates arguments and turns exceptions into status codes.
#include "rescue.h"

#include "capi/handles.hpp"
#include "engine/journal.hpp"

using rescue::Status;
using rescue::capi::guarded;
using rescue::capi::null_handle;

extern "C" {

rescue_status rescue_journal_open(rescue_optimizer* opt, const char* path) {
  if (!opt) return null_handle("optimizer");
  return guarded(&opt->errmsg, [&] {
    if (!path) rescue::fail(Status::NullPointer, "journal path is NULL");
    rescue::engine::Journal::attach(*opt->engine, path);
  });
}

rescue_status rescue_journal_close(rescue_optimizer* opt) {
  if (!opt) return null_handle("optimizer");
  opt->engine->set_listener(nullptr);
  return RESCUE_OK;
}

int rescue_journal_is_open(const rescue_optimizer* opt) {
  if (!opt) return -1;
  return opt->engine->has_listener() ? 1 : 0;
}

rescue_status rescue_journal_resume(const char* path, rescue_optimizer** out, int* torn_tail) {
  if (!out) return null_handle("output pointer");
  *out = nullptr;
  if (torn_tail) *torn_tail = 0;
  if (!path) return null_handle("path");
  const rescue_status status = guarded(nullptr, [&] {
    rescue::engine::ReplayInfo info;
    *out = new rescue_optimizer(rescue::engine::Journal::resume(path, &info));
    if (torn_tail) *torn_tail = info.torn_tail ? 1 : 0;
  });
  return status;
}

}  // extern "C"
