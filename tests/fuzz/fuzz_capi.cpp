// Fuzz target: random sequences of C ABI calls with random arguments, NaN, Inf,
// huge and negative sizes, NULL pointers and unknown tickets. The input is a
// program: each operation takes an opcode byte and then its arguments.
// Properties: no crash and no sanitizer report; every status is a defined
// rescue_status; a failed call on a handle leaves a message; a rejected call
// leaves the optimizer's state unchanged; a query (the causal graph and
// estimates) never changes it; save/load and a journal's resume reproduce it.
// Problems built by the input use model-free strategies; the built-in ones
// default to RESCUE, which runs with small search sizes (opcode 17).
//
// The harness never lies about a buffer: a claimed length larger than the real
// buffer is passed with a NULL pointer, which the library must reject.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "rescue.h"

namespace {

constexpr int kCap = 64;  // capacity of every array the harness passes

[[noreturn]] void violated(const char* what, int op) {
  std::fprintf(stderr, "fuzz_capi: property violated at opcode %d: %s\n", op, what);
  std::abort();
}

class Input {
 public:
  Input(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  bool more() const { return i_ < n_; }
  uint8_t byte() { return i_ < n_ ? d_[i_++] : 0; }
  int integer() {
    static const int special[] = {0, 1, 2, 3, 4, -1, -2, 7, 64, 65, 1000000, -1000000,
                                  std::numeric_limits<int>::max(), std::numeric_limits<int>::min()};
    const uint8_t b = byte();
    if (b < 200) return b % 6;  // small values most of the time
    return special[b % (sizeof special / sizeof special[0])];
  }
  double real() {
    static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-12, 1e12, -1e12, 1e308, -1e308,
                                     std::numeric_limits<double>::quiet_NaN(),
                                     std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity(),
                                     std::numeric_limits<double>::denorm_min(), 4.9e-324, 1e-300, 8.0};
    const uint8_t b = byte();
    if (b < 128) return (b % 17) / 16.0;
    if (b < 160) return (b - 140) * 0.75;
    if (b < 240) return special[b % (sizeof special / sizeof special[0])];
    uint64_t bits = 0;
    for (int k = 0; k < 8; ++k) bits = (bits << 8) | byte();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  const char* name() {
    static const char* names[] = {"a", "b", "c", "f1", "f2", "g", "k", "", nullptr, "a b", "x", "y"};
    return names[byte() % (sizeof names / sizeof names[0])];
  }

 private:
  const uint8_t* d_;
  size_t n_, i_ = 0;
};

bool valid_status(rescue_status s) { return (s >= RESCUE_OK && s <= RESCUE_ERR_CALLBACK) || s == RESCUE_ERR_INTERNAL; }

std::string state(const rescue_optimizer* opt) {
  size_t len = 0;
  rescue_save(opt, nullptr, 0, &len);
  std::string text(len + 1, '\0');
  if (rescue_save(opt, &text[0], text.size(), &len) != RESCUE_OK) return "<save failed>";
  text.resize(len);
  return text;
}

double cost_cb(const double* x, int d, double s, void* user) {
  const int mode = *static_cast<const int*>(user);
  if (mode == 1) return std::numeric_limits<double>::quiet_NaN();
  if (mode == 2) return -1.0;
  return 1.0 + s + (d > 0 ? std::fabs(x[0]) : 0.0);
}

struct Harness {
  rescue_problem* problem[2] = {nullptr, nullptr};
  rescue_optimizer* opt[2] = {nullptr, nullptr};
  std::vector<int> tickets;
  double in[kCap] = {};
  double out[kCap] = {};
  int cb_mode = 0;
  int op = 0;

  ~Harness() {
    for (auto* p : problem) rescue_problem_free(p);
    for (auto* o : opt) rescue_destroy(o);
  }

  void fill(Input& r, int n) {
    for (int i = 0; i < n && i < kCap; ++i) in[i] = r.real();
  }
  // The input array for a claimed length: NULL when asked or when it does not fit.
  const double* array(Input& r, int claimed) {
    const uint8_t b = r.byte();
    if (b % 8 == 0 || claimed > kCap || claimed < 0) return nullptr;
    fill(r, claimed);
    return in;
  }
  double* outbuf(int claimed) { return claimed > kCap || claimed < 0 ? nullptr : out; }
  int ticket(Input& r) {
    const uint8_t b = r.byte();
    if (!tickets.empty() && b < 200) return tickets[b % tickets.size()];
    return r.integer();
  }

  // The property every handle call must keep: a defined status, a message on
  // failure, and no change to the state when rejected (except the budget of a
  // failing cost callback, which has nothing to change either).
  void check(rescue_status s, const rescue_optimizer* o, const std::string* before) {
    if (!valid_status(s)) violated("undefined status", op);
    if (s == RESCUE_ERR_INTERNAL) violated(o ? rescue_errmsg(o) : rescue_last_error(), op);
    if (s != RESCUE_OK && o && rescue_errmsg(o)[0] == '\0') violated("failure without a message", op);
    if (s != RESCUE_OK && o && before) {
      const std::string after = state(o);
      if (after != *before) {
        // Show where the saved states part, so the failure says what changed.
        size_t at = 0;
        while (at < after.size() && at < before->size() && after[at] == (*before)[at]) ++at;
        const size_t from = at > 80 ? at - 80 : 0;
        std::fprintf(stderr, "fuzz_capi: status %d (%s); state before: ...%s\nstate after:  ...%s\n",
                     static_cast<int>(s), rescue_errmsg(o), before->substr(from, 240).c_str(),
                     after.substr(from, 240).c_str());
        violated("a rejected call changed the state", op);
      }
    }
  }
  void checkp(rescue_status s, const rescue_problem* p) {
    if (!valid_status(s)) violated("undefined status", op);
    if (s == RESCUE_ERR_INTERNAL) violated(p ? rescue_problem_errmsg(p) : rescue_last_error(), op);
    if (s != RESCUE_OK && p && rescue_problem_errmsg(p)[0] == '\0') violated("problem failure without a message", op);
  }

  void step(Input& r) {
    op = r.byte() % 36;
    const int slot = r.byte() & 1;
    rescue_problem*& p = problem[slot];
    rescue_optimizer*& o = opt[slot];
    const std::string before = o ? state(o) : std::string();
    const std::string* bp = o ? &before : nullptr;
    switch (op) {
      case 0:
        rescue_problem_free(p);
        p = nullptr;
        checkp(rescue_problem_new(r.byte() % 16 ? &p : nullptr), nullptr);
        break;
      case 1: {
        static const char* builtins[] = {"branin-currin", "park",    "healthcare", "robot-standin",
                                         "branin-currin-mixed", "nope", nullptr};
        rescue_problem_free(p);
        p = nullptr;
        checkp(rescue_problem_builtin(builtins[r.byte() % 7], &p), nullptr);
        break;
      }
      case 2: {
        const char* n = r.name();
        if (r.byte() % 4 == 0) {  // a categorical option: labels may repeat, be empty or NULL
          const int k = r.integer();
          std::vector<const char*> labels;
          for (int i = 0; i < std::min(k, 8); ++i) labels.push_back(r.name());
          checkp(rescue_problem_add_categorical(p, n, r.byte() % 16 ? labels.data() : nullptr, std::min(k, 8)), p);
          break;
        }
        const double lo = r.real(), hi = r.real();
        checkp(rescue_problem_add_option(p, n, lo, hi, r.integer()), p);
        break;
      }
      case 3: {
        const double lo = r.real(), hi = r.real(), t = r.real();
        checkp(rescue_problem_set_fidelity_range(p, lo, hi, t), p);
        break;
      }
      case 4: {
        const int n = r.integer();
        const double* lv = array(r, n);
        checkp(rescue_problem_set_fidelity_levels(p, lv, n, r.real()), p);
        break;
      }
      case 5: checkp(rescue_problem_set_cost_exponential(p, r.real()), p); break;
      case 6: {
        const int n = r.integer();
        checkp(rescue_problem_set_cost_levels(p, array(r, n), n), p);
        break;
      }
      case 7: {
        const char* n = r.name();
        checkp(rescue_problem_add_objective(p, n, r.integer()), p);
        break;
      }
      case 8: {
        const char* n = r.name();
        const double t = r.real();
        checkp(rescue_problem_add_constraint(p, n, t, r.integer()), p);
        break;
      }
      case 9: checkp(rescue_problem_add_indicator(p, r.name()), p); break;
      case 10: {
        const int m = r.integer();
        checkp(rescue_problem_set_reference_point(p, array(r, m), m), p);
        break;
      }
      case 11: checkp(rescue_problem_set_seed(p, static_cast<unsigned>(r.integer())), p); break;
      case 12: {
        static const char* strategies[] = {"random", "cost-aware-random", "no-such-strategy", nullptr, ""};
        checkp(rescue_problem_set_strategy(p, strategies[r.byte() % 5]), p);
        break;
      }
      case 13: checkp(rescue_problem_set_budget(p, r.real()), p); break;
      case 14: checkp(rescue_problem_set_initial_budget(p, r.real()), p); break;
      case 15: {
        static const char* keys[] = {"kg.pool", "acq.starts", "x y", "", nullptr, "anything"};
        const char* k = keys[r.byte() % 6];
        checkp(rescue_problem_set_param(p, k, r.real()), p);
        double value = 0.0;
        checkp(rescue_problem_get_param(p, k, r.byte() % 8 ? &value : nullptr), p);
        double lo = 0.0, hi = 0.0;
        int kind = 0;
        check(rescue_param_info(k, nullptr, &kind, &lo, &hi, nullptr), nullptr, nullptr);
        break;
      }
      case 16:
        cb_mode = r.byte() % 3;
        checkp(rescue_problem_set_cost_callback(p, r.byte() % 8 ? cost_cb : nullptr, &cb_mode), p);
        break;
      case 17:
        rescue_destroy(o);
        o = nullptr;
        tickets.clear();
        // The default strategy is RESCUE: with its default search sizes one suggestion takes
        // seconds under the sanitizers, and a few of them exceed the fuzzer's time limit. The
        // same code paths run with small sizes (inputs may still change them, op 15).
        if (p) {
          static const std::pair<const char*, double> small[] = {
              {"acq.starts", 8},       {"acq.refine", 1},          {"acq.refine_evals", 8},
              {"acq.mc_samples", 16},  {"kg.fantasies", 2},        {"kg.pool", 16},
              {"kg.set_size", 3},      {"recommend.population", 12}, {"recommend.generations", 4},
              {"recommend.points", 8}};
          for (const auto& [key, value] : small) rescue_problem_set_param(p, key, value);
        }
        check(rescue_create(p, r.byte() % 16 ? &o : nullptr), nullptr, nullptr);
        break;
      case 18: {
        const int d = r.integer() % 2 ? rescue_dimension(o) : r.integer();
        double s = 0;
        int t = 0;
        const rescue_status st = rescue_suggest(o, outbuf(d), d, r.byte() % 16 ? &s : nullptr, &t);
        if (st == RESCUE_OK) tickets.push_back(t);
        check(st, o, st == RESCUE_OK ? nullptr : bp);
        break;
      }
      case 19: {
        const int t = ticket(r);
        const int m = r.byte() % 4 ? rescue_num_objectives(o) : r.integer();
        const double* y = array(r, m);
        double yc[kCap];
        if (y) std::memcpy(yc, y, sizeof yc);
        const int q = r.byte() % 4 ? rescue_num_constraints(o) : r.integer();
        double gc[kCap];
        const double* g = array(r, q);
        if (g) std::memcpy(gc, g, sizeof gc);
        const int k = r.byte() % 2 ? 0 : rescue_num_indicators(o);
        const double* z = k ? array(r, k) : nullptr;
        const rescue_status st = rescue_observe(o, t, y ? yc : nullptr, m, g ? gc : nullptr, q, z, k);
        check(st, o, st == RESCUE_OK ? nullptr : bp);
        break;
      }
      case 20: {
        const int d = r.byte() % 4 ? rescue_dimension(o) : r.integer();
        double xc[kCap];
        const double* x = array(r, d);
        if (x) std::memcpy(xc, x, sizeof xc);
        const double s = r.real();
        const int m = rescue_num_objectives(o);
        const double* y = array(r, m);
        const rescue_status st = rescue_observe_at(o, x ? xc : nullptr, d, s, y, m, nullptr, rescue_num_constraints(o), nullptr, 0);
        check(st, o, st == RESCUE_OK ? nullptr : bp);
        break;
      }
      case 21: {
        const rescue_status st = rescue_cancel(o, ticket(r));
        check(st, o, st == RESCUE_OK ? nullptr : bp);
        break;
      }
      case 22: {
        const rescue_status st = rescue_fail(o, ticket(r));
        check(st, o, st == RESCUE_OK ? nullptr : bp);
        break;
      }
      case 23: {
        int ids[kCap], count = -7;
        const int cap = r.integer();
        const rescue_status st = rescue_pending(o, cap > kCap || cap < 0 ? nullptr : ids, cap, r.byte() % 16 ? &count : nullptr);
        check(st, o, bp);
        break;
      }
      case 24: {
        const int i = r.integer();
        const int d = r.byte() % 2 ? rescue_dimension(o) : r.integer();
        const int m = r.byte() % 2 ? rescue_num_objectives(o) : r.integer();
        double s, g[kCap];
        int failed;
        check(rescue_get_observation(o, i, outbuf(d), d, &s, m > kCap || m < 0 ? nullptr : out + 0, m, g, rescue_num_constraints(o), &failed), o, bp);
        break;
      }
      case 25: {
        const int d = r.byte() % 4 ? rescue_dimension(o) : r.integer();
        const double* x = array(r, d);
        double c;
        check(rescue_cost(o, x, d, r.real(), r.byte() % 16 ? &c : nullptr), o, bp);
        break;
      }
      case 26: {
        double a, b, c;
        check(rescue_budget(o, &a, r.byte() % 2 ? &b : nullptr, &c), o, bp);
        rescue_done(o);
        const int i = r.integer();
        rescue_option_name(o, i);
        rescue_objective_name(o, i);
        rescue_constraint_name(o, i);
        rescue_indicator_name(o, i);
        rescue_objective_sense(o, i);
        rescue_strategy_name(o);
        rescue_strategy_list(i);
        double lo, hi, t;
        int kind;
        check(rescue_option_info(o, i, &lo, &hi, &kind), o, bp);
        const int levels = rescue_option_levels(o, i);
        if (levels < -1 || (!o && levels != -1)) violated("rescue_option_levels out of its range", op);
        const char* label = rescue_option_label(o, i, r.integer());
        if (label && levels < 2) violated("a label of an option without levels", op);
        check(rescue_constraint_info(o, i, &t, &kind), o, bp);
        check(rescue_target_fidelity(o, r.byte() % 8 ? &t : nullptr), o, bp);
        const int m = r.integer();
        check(rescue_reference_point(o, outbuf(m), m), o, bp);
        break;
      }
      case 27: {
        // The Pareto set may fit a model: keep it to small data.
        if (rescue_num_observations(o) > 24) break;
        const int cap = r.integer();
        const int d = rescue_dimension(o), m = rescue_num_objectives(o);
        static double xs[kCap * kCap], ys[kCap * kCap];
        const bool fits = cap >= 0 && d >= 0 && m >= 0 && static_cast<long long>(cap) * d <= kCap * kCap &&
                          static_cast<long long>(cap) * m <= kCap * kCap;
        int count = 0;
        check(rescue_pareto(o, fits ? xs : nullptr, fits ? ys : nullptr, cap, r.byte() % 16 ? &count : nullptr), o, bp);
        break;
      }
      case 28: {
        const int n = r.integer(), w = r.byte() % 4 ? (rescue_dimension(o) + 1 + rescue_num_indicators(o) +
                                                         rescue_num_objectives(o) + rescue_num_constraints(o))
                                                      : r.integer();
        const bool fits = n >= 0 && w >= 0 && static_cast<long long>(n) * w <= kCap;
        double rows[kCap];
        if (fits) {
          fill(r, n * w);
          std::memcpy(rows, in, sizeof rows);
        }
        const rescue_status st = rescue_add_observational(o, fits ? rows : nullptr, n, w);
        check(st, o, st == RESCUE_OK ? nullptr : bp);
        break;
      }
      case 29: {
        if (!o) break;
        const std::string text = state(o);
        rescue_optimizer* copy = nullptr;
        if (rescue_load(text.data(), text.size(), &copy) != RESCUE_OK) violated(rescue_last_error(), op);
        if (state(copy) != text) violated("save/load/save is not the identity", op);
        rescue_destroy(copy);
        break;
      }
      case 30: {
        const int n = r.integer(), m = r.integer();
        const bool fits = n >= 0 && m >= 0 && static_cast<long long>(n) * m <= kCap;
        double pts[kCap], ref[kCap];
        if (fits) {
          fill(r, n * m);
          std::memcpy(pts, in, sizeof pts);
        }
        const double* rf = array(r, m);
        if (rf) std::memcpy(ref, rf, sizeof ref);
        double hv;
        checkp(rescue_hypervolume(fits ? pts : nullptr, n, m, rf ? ref : nullptr, r.byte() % 16 ? &hv : nullptr), nullptr);
        break;
      }
      case 31: {
        const int n = r.integer(), m = r.integer();
        const bool fits = n >= 0 && m >= 0 && static_cast<long long>(n) * m <= kCap;
        double pts[kCap], viol[kCap];
        if (fits) {
          fill(r, n * m);
          std::memcpy(pts, in, sizeof pts);
        }
        const double* v = n <= kCap ? array(r, n) : nullptr;
        if (v) std::memcpy(viol, v, sizeof viol);
        int keep[kCap], count;
        checkp(rescue_pareto_filter(fits ? pts : nullptr, n, m, v ? viol : nullptr, fits && n <= kCap ? keep : nullptr,
                                    r.byte() % 16 ? &count : nullptr),
               nullptr);
        break;
      }
      case 32: {
        const int d = r.integer() % 2 ? 2 : r.integer();
        const double* x = array(r, d);
        const int m = r.integer();
        double y[kCap], g[kCap], z[kCap];
        checkp(rescue_problem_evaluate(p, x, d, r.real(), m <= kCap && m >= 0 ? y : nullptr, m, g, r.integer() % 3, z,
                                       r.byte() % 2 ? 0 : r.integer()),
               p);
        break;
      }
      case 33: {
        check(rescue_set_cost_callback(o, r.byte() % 8 ? cost_cb : nullptr, &cb_mode), o, nullptr);
        break;
      }
      case 34: {
        // Journals write and sync files: rare, and only on a private path.
        if (r.byte() % 4) break;
        char path[64];
        std::snprintf(path, sizeof path, "/tmp/rescue-fuzz-capi-%ld-%d.journal", static_cast<long>(getpid()), slot);
        if (!o) {
          check(rescue_journal_open(o, path), nullptr, nullptr);
          break;
        }
        if (rescue_journal_is_open(o) == 1) {
          check(rescue_journal_close(o), o, nullptr);
          rescue_optimizer* back = nullptr;
          if (rescue_journal_resume(path, &back, nullptr) != RESCUE_OK) violated("journal does not resume", op);
          if (state(back) != state(o)) violated("journal does not hold the state", op);
          rescue_destroy(back);
          std::remove(path);
        } else {
          check(rescue_journal_open(o, path), o, nullptr);
        }
        break;
      }
      default:
        // Opcode 35 has sub-operations: the causal knowledge and queries.
        // (New calls go here rather than into new opcodes, so that the
        // regression inputs keep their meaning.)
        switch (r.byte() % 5) {
          case 0:
            rescue_status_string(static_cast<rescue_status>(r.integer()));
            rescue_errmsg(o);
            rescue_problem_errmsg(p);
            rescue_num_observational(o);
            rescue_num_observations(o);
            break;
          case 1: {
            static const char* dags[] = {
                nullptr, "", "{", "[]", R"({"edges":[]})", R"({"edges":[{"from":"a","to":"f1"}]})",
                R"({"edges":[{"from":"a","to":"k"},{"from":"k","to":"f1"},{"from":"b","to":"f2"}]})",
                R"({"edges":[{"from":"f1","to":"a"}]})", R"({"edges":[{"from":"a","to":"a"}]})",
                R"({"edges":[{"from":"k","to":"g"},{"from":"g","to":"k"}]})", R"({"edges":[{"from":1,"to":"f1"}]})"};
            const rescue_status st = rescue_set_dag(o, dags[r.byte() % (sizeof dags / sizeof dags[0])]);
            check(st, o, st == RESCUE_OK ? nullptr : bp);
            break;
          }
          case 2: {
            const char* from = r.name();
            const char* to = r.name();
            const rescue_status st = rescue_constrain_edge(o, from, to, r.integer());
            check(st, o, st == RESCUE_OK ? nullptr : bp);
            break;
          }
          case 3: {
            // A query: it may learn a causal model to answer, but never changes the state.
            // Model learning is slow under the sanitizers: small data only.
            if (rescue_num_observations(o) + rescue_num_observational(o) > 24) break;
            static char text[1 << 14];
            const int cap = r.integer();
            size_t len = 0;
            check(rescue_causal_graph(o, r.integer(), r.byte() % 2, cap > 0 ? text : nullptr,
                                      cap > 0 ? sizeof text : 0, r.byte() % 16 ? &len : nullptr),
                  o, bp);
            if (o && state(o) != before) violated("a causal graph query changed the state", op);
            break;
          }
          case 4: {
            if (rescue_num_observations(o) + rescue_num_observational(o) > 24) break;
            const int n = r.integer(), d = r.byte() % 4 ? rescue_dimension(o) : r.integer();
            const int q = r.byte() % 4 ? rescue_num_objectives(o) + rescue_num_constraints(o) : r.integer();
            const bool fits = n >= 0 && d >= 0 && q >= 0 && static_cast<long long>(n) * d <= kCap &&
                              static_cast<long long>(n) * q <= kCap && n <= kCap;
            double xs[kCap], ss[kCap], mean[kCap], sd[kCap];
            if (fits) {
              fill(r, n * d);
              std::memcpy(xs, in, sizeof xs);
              fill(r, n);
              std::memcpy(ss, in, sizeof ss);
            }
            check(rescue_causal_estimates(o, fits ? xs : nullptr, n, d, fits ? ss : nullptr, fits ? mean : nullptr,
                                          r.byte() % 2 ? sd : nullptr, q),
                  o, bp);
            if (o && state(o) != before) violated("a causal estimates query changed the state", op);
            break;
          }
        }
        break;
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input r(data, size);
  Harness h;
  for (int steps = 0; r.more() && steps < 256; ++steps) h.step(r);
  for (int slot = 0; slot < 2; ++slot) {
    char path[64];
    std::snprintf(path, sizeof path, "/tmp/rescue-fuzz-capi-%ld-%d.journal", static_cast<long>(getpid()), slot);
    rescue_journal_close(h.opt[slot]);
    std::remove(path);
  }
  return 0;
}
