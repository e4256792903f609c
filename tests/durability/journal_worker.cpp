// An optimization process for the crash test: it runs an ask/tell loop with a
// journal and prints one acknowledgement line to stdout (flushed) after every
// call that returned RESCUE_OK:
//   S <ticket>                    a suggestion was issued
//   O <ticket> <y0> <y1>          an observation (objective bits in hex)
//   F <ticket> / C <ticket>       a failure / cancellation was reported
//   DONE <observations>           the budget is spent
// Every decision is a function of the optimizer's state alone (at most two
// tickets pending, the oldest handled first; the ticket number decides whether
// it is observed, failed or cancelled), so a run that is killed and resumed any
// number of times makes exactly the calls of an uninterrupted run.
//
// Usage: journal_worker <journal> <budget>. Resumes when the journal exists.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "rescue.h"

#include "../capi/test_helpers.hpp"

namespace {

struct Pending {
  std::vector<double> x;
  double s = 0.0;
};

[[noreturn]] void die(const char* what, const rescue_optimizer* opt) {
  std::fprintf(stderr, "journal_worker: %s: %s\n", what, opt ? rescue_errmsg(opt) : rescue_last_error());
  std::exit(2);
}

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

using rescue_test::simulate;

rescue_optimizer* fresh(const std::string& path, double budget) {
  // The C ABI tests' problem and simulator, so both exercise the same run.
  rescue_problem* p = rescue_test::small_problem("cost-aware-random", 11);
  rescue_problem_set_budget(p, budget);
  rescue_optimizer* opt = nullptr;
  if (rescue_create(p, &opt) != RESCUE_OK) die("create", nullptr);
  rescue_problem_free(p);
  if (rescue_journal_open(opt, path.c_str()) != RESCUE_OK) die("journal_open", opt);
  return opt;
}

// The pending tickets of a resumed optimizer, read from its checkpoint (the C
// ABI lists pending ticket numbers only).
std::map<int, Pending> pending_of(const rescue_optimizer* opt) {
  size_t len = 0;
  rescue_save(opt, nullptr, 0, &len);
  std::string text(len + 1, '\0');
  if (rescue_save(opt, &text[0], text.size(), &len) != RESCUE_OK) die("save", opt);
  text.resize(len);
  const auto doc = nlohmann::json::parse(text.substr(text.find('\n') + 1));
  std::map<int, Pending> out;
  for (const auto& t : doc.at("pending")) {
    Pending p;
    p.x = t.at("x").get<std::vector<double>>();
    p.s = t.at("s").get<double>();
    out[t.at("ticket").get<int>()] = p;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: journal_worker <journal> <budget>\n");
    return 2;
  }
  const std::string path = argv[1];
  const double budget = std::atof(argv[2]);
  struct stat st;
  rescue_optimizer* opt = nullptr;
  if (stat(path.c_str(), &st) == 0) {
    if (rescue_journal_resume(path.c_str(), &opt, nullptr) != RESCUE_OK) die("journal_resume", nullptr);
  } else {
    opt = fresh(path, budget);
  }
  std::map<int, Pending> pending = pending_of(opt);
  for (;;) {
    while (pending.size() < 2 && !rescue_done(opt)) {
      Pending p;
      p.x.resize(3);
      int ticket = 0;
      const rescue_status st2 = rescue_suggest(opt, p.x.data(), 3, &p.s, &ticket);
      if (st2 == RESCUE_ERR_BUDGET_EXHAUSTED) break;
      if (st2 != RESCUE_OK) die("suggest", opt);
      std::printf("S %d\n", ticket);
      std::fflush(stdout);
      pending[ticket] = p;
    }
    if (pending.empty()) break;
    const int ticket = pending.begin()->first;
    const Pending p = pending.begin()->second;
    if (ticket % 11 == 5) {
      if (rescue_fail(opt, ticket) != RESCUE_OK) die("fail", opt);
      std::printf("F %d\n", ticket);
    } else if (ticket % 13 == 7) {
      if (rescue_cancel(opt, ticket) != RESCUE_OK) die("cancel", opt);
      std::printf("C %d\n", ticket);
    } else {
      double y[2], g[1], z[1];
      simulate(p.x.data(), p.s, y, g, z);
      if (rescue_observe(opt, ticket, y, 2, g, 1, z, 1) != RESCUE_OK) die("observe", opt);
      std::printf("O %d %016" PRIx64 " %016" PRIx64 "\n", ticket, bits(y[0]), bits(y[1]));
    }
    std::fflush(stdout);
    pending.erase(pending.begin());
  }
  std::printf("DONE %d\n", rescue_num_observations(opt));
  std::fflush(stdout);
  rescue_destroy(opt);
  return 0;
}
