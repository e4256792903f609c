// Fuzz target: the checkpoint loader and the journal reader on arbitrary bytes.
// Properties: no crash, no sanitizer report; a rejected input gives no handle and
// a message; an accepted checkpoint saves, reloads and saves back to the same
// text, and the loaded optimizer accepts ordinary calls.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "rescue.h"

namespace {

[[noreturn]] void violated(const char* what) {
  std::fprintf(stderr, "fuzz_checkpoint: property violated: %s\n", what);
  std::abort();
}

std::string save(const rescue_optimizer* opt) {
  size_t len = 0;
  if (rescue_save(opt, nullptr, 0, &len) != RESCUE_OK) violated("size query failed");
  std::string text(len + 1, '\0');
  if (rescue_save(opt, &text[0], text.size(), &len) != RESCUE_OK) violated("save failed");
  text.resize(len);
  return text;
}

bool model_free(const rescue_optimizer* opt) {
  const std::string s = rescue_strategy_name(opt);
  return s == "random" || s == "cost-aware-random";
}

// Ordinary calls on a loaded optimizer must return a status, whatever it holds.
void exercise(rescue_optimizer* opt) {
  const int d = rescue_dimension(opt), m = rescue_num_objectives(opt), q = rescue_num_constraints(opt);
  if (d < 1 || m < 1 || q < 0) violated("a loaded optimizer has impossible dimensions");
  int count = 0;
  const rescue_status ps = rescue_pending(opt, nullptr, 0, &count);
  if (ps != RESCUE_OK && ps != RESCUE_ERR_BUFFER_TOO_SMALL) violated("pending count failed");
  double spent = 0, pending = 0, budget = 0;
  rescue_budget(opt, &spent, &pending, &budget);
  rescue_done(opt);
  if (!model_free(opt) || d > 64 || m > 64 || q > 64) return;  // a model fit per input would be too slow
  double x[64], s = 0, y[64], g[64];
  int ticket = 0;
  if (rescue_suggest(opt, x, d, &s, &ticket) == RESCUE_OK) {
    for (int i = 0; i < m; ++i) y[i] = 0.5 * i;
    for (int i = 0; i < q; ++i) g[i] = 1.0;
    if (rescue_observe(opt, ticket, y, m, g, q, nullptr, 0) != RESCUE_OK) violated("observing a fresh ticket failed");
  }
  const int n = rescue_num_observations(opt);
  for (int i = 0; i < n && i < 4; ++i)
    if (rescue_get_observation(opt, i, x, d, &s, y, m, g, q, nullptr) != RESCUE_OK) violated("get_observation failed");
}

void check_journal(const uint8_t* data, size_t size) {
  static const char magic[] = "RESCUE-JOURNAL";
  if (size < sizeof magic - 1 || std::memcmp(data, magic, sizeof magic - 1) != 0) return;
  char path[64];
  std::snprintf(path, sizeof path, "/tmp/rescue-fuzz-%ld.journal", static_cast<long>(getpid()));
  FILE* f = std::fopen(path, "wb");
  if (!f) return;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  rescue_optimizer* opt = nullptr;
  int torn = 0;
  const rescue_status st = rescue_journal_resume(path, &opt, &torn);
  if (st == RESCUE_OK) {
    if (!opt) violated("resume succeeded without a handle");
    const std::string text = save(opt);
    rescue_destroy(opt);
    // The rewritten journal holds the same state.
    opt = nullptr;
    if (rescue_journal_resume(path, &opt, &torn) != RESCUE_OK || torn != 0) violated("rewritten journal fails");
    if (save(opt) != text) violated("rewritten journal differs");
    rescue_destroy(opt);
  } else if (opt) {
    violated("failed resume returned a handle");
  }
  std::remove(path);
  std::remove((std::string(path) + ".tmp").c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rescue_optimizer* opt = reinterpret_cast<rescue_optimizer*>(&size);  // must be overwritten
  const rescue_status st = rescue_load(reinterpret_cast<const char*>(data), size, &opt);
  if (st != RESCUE_OK) {
    if (opt) violated("failed load returned a handle");
    if (rescue_last_error()[0] == '\0') violated("failed load left no message");
  } else {
    if (!opt) violated("load succeeded without a handle");
    const std::string text = save(opt);
    rescue_optimizer* again = nullptr;
    if (rescue_load(text.data(), text.size(), &again) != RESCUE_OK) violated("a saved checkpoint does not load");
    if (save(again) != text) violated("save/load/save is not the identity");
    rescue_destroy(again);
    exercise(opt);
    rescue_destroy(opt);
  }
  check_journal(data, size);
  return 0;
}
