// The journal through the C ABI: exact recovery after every kind of call,
// torn last records, corruption, compaction, I/O failures and bad arguments.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "rescue.h"

namespace {

std::string state_text(const rescue_optimizer* opt) {
  size_t len = 0;
  rescue_save(opt, nullptr, 0, &len);
  std::string text(len + 1, '\0');
  EXPECT_EQ(rescue_save(opt, &text[0], text.size(), &len), RESCUE_OK);
  text.resize(len);
  return text;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_all(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

rescue_problem* problem(const char* strategy, double budget = 0.0) {
  rescue_problem* p = nullptr;
  rescue_problem_new(&p);
  rescue_problem_add_option(p, "a", 0.0, 1.0, RESCUE_CONTINUOUS);
  rescue_problem_add_option(p, "n", 1.0, 8.0, RESCUE_INTEGER);
  rescue_problem_set_fidelity_range(p, 0.0, 1.0, 1.0);
  rescue_problem_add_objective(p, "f1", RESCUE_MINIMIZE);
  rescue_problem_add_objective(p, "f2", RESCUE_MINIMIZE);
  rescue_problem_add_indicator(p, "k");
  rescue_problem_set_strategy(p, strategy);
  rescue_problem_set_seed(p, 5);
  rescue_problem_set_budget(p, budget);
  rescue_problem_set_param(p, "kg.pool", 8);
  rescue_problem_set_param(p, "kg.fantasies", 2);
  rescue_problem_set_param(p, "acq.starts", 2);
  rescue_problem_set_param(p, "acq.refine", 1);
  rescue_problem_set_param(p, "acq.refine_evals", 10);
  rescue_problem_set_param(p, "acq.mc_samples", 16);
  return p;
}

rescue_optimizer* make(const char* strategy, double budget = 0.0) {
  rescue_problem* p = problem(strategy, budget);
  rescue_optimizer* opt = nullptr;
  EXPECT_EQ(rescue_create(p, &opt), RESCUE_OK) << rescue_last_error();
  rescue_problem_free(p);
  return opt;
}

void sim(const double* x, double s, double* y, double* z) {
  y[0] = x[0] * x[0] + 0.01 * x[1] + 0.2 * (1.0 - s);
  y[1] = (1.0 - x[0]) * (1.0 - x[0]) + 0.02 * x[1];
  z[0] = x[0] + 0.1 * x[1];
}

class Journal : public ::testing::Test {
 protected:
  void SetUp() override {
    char t[] = "/tmp/rescue-journal-XXXXXX";
    ASSERT_NE(mkdtemp(t), nullptr);
    dir_ = t;
    path_ = dir_ + "/run.journal";
  }
  void TearDown() override {
    for (const char* suffix : {"", ".tmp", ".copy", ".copy.tmp"}) std::remove((path_ + suffix).c_str());
    rmdir(dir_.c_str());
  }
  // Resumes a copy of the journal (resuming takes a journal over, and the live
  // optimizer keeps writing to this one) and returns the recovered state, or "" on failure.
  std::string recovered(int* torn = nullptr, rescue_status* status = nullptr) {
    const std::string copy = path_ + ".copy";
    write_all(copy, read_all(path_));
    rescue_optimizer* opt = nullptr;
    const rescue_status st = rescue_journal_resume(copy.c_str(), &opt, torn);
    std::remove(copy.c_str());
    if (status) *status = st;
    if (st != RESCUE_OK) {
      EXPECT_EQ(opt, nullptr);
      return "";
    }
    EXPECT_EQ(rescue_journal_is_open(opt), 1);
    const std::string s = state_text(opt);
    rescue_destroy(opt);
    return s;
  }
  std::string dir_, path_;
};

// Every kind of state change, each followed by a recovery that must equal the live state.
TEST_F(Journal, RecoversTheExactStateAfterEveryKindOfCall) {
  rescue_optimizer* opt = make("cost-aware-random");
  ASSERT_EQ(rescue_journal_open(opt, path_.c_str()), RESCUE_OK) << rescue_errmsg(opt);
  EXPECT_EQ(recovered(), state_text(opt));
  double x[2], s, y[2], z[1];
  int t1, t2, t3;
  ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t1), RESCUE_OK);
  EXPECT_EQ(recovered(), state_text(opt));
  sim(x, s, y, z);
  ASSERT_EQ(rescue_observe(opt, t1, y, 2, nullptr, 0, z, 1), RESCUE_OK);
  EXPECT_EQ(recovered(), state_text(opt));
  ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t2), RESCUE_OK);
  ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t3), RESCUE_OK);
  ASSERT_EQ(rescue_fail(opt, t2), RESCUE_OK);
  EXPECT_EQ(recovered(), state_text(opt));
  ASSERT_EQ(rescue_cancel(opt, t3), RESCUE_OK);
  EXPECT_EQ(recovered(), state_text(opt));
  const double xa[2] = {0.25, 3.0}, ya[2] = {0.5, 0.75};
  ASSERT_EQ(rescue_observe_at(opt, xa, 2, 0.5, ya, 2, nullptr, 0, nullptr, 0), RESCUE_OK);
  EXPECT_EQ(recovered(), state_text(opt));
  const double rows[2 * 6] = {0.1, 2.0, 1.0, 0.3, 0.2, 0.9, 0.7, 5.0, 0.0, std::nan(""), 0.6, 0.1};
  ASSERT_EQ(rescue_add_observational(opt, rows, 2, 6), RESCUE_OK);
  EXPECT_EQ(recovered(), state_text(opt));
  // Replacing the cost model by a callback changes the state (a callback itself is not saved).
  ASSERT_EQ(rescue_set_cost_callback(opt, [](const double*, int, double s, void*) { return 1.0 + s; }, nullptr),
            RESCUE_OK);
  EXPECT_EQ(recovered(), state_text(opt));
  // The causal knowledge is part of the state too.
  ASSERT_EQ(rescue_set_dag(opt, R"({"edges":[{"from":"a","to":"k"},{"from":"k","to":"f1"},{"from":"n","to":"f2"}]})"), RESCUE_OK) << rescue_errmsg(opt);
  EXPECT_EQ(recovered(), state_text(opt));
  ASSERT_EQ(rescue_set_dag(opt, nullptr), RESCUE_OK) << rescue_errmsg(opt);
  EXPECT_EQ(recovered(), state_text(opt));
  ASSERT_EQ(rescue_constrain_edge(opt, "a", "f2", RESCUE_EDGE_FORBIDDEN), RESCUE_OK) << rescue_errmsg(opt);
  EXPECT_EQ(recovered(), state_text(opt));
  ASSERT_EQ(rescue_constrain_edge(opt, "n", "k", RESCUE_EDGE_REQUIRED), RESCUE_OK) << rescue_errmsg(opt);
  EXPECT_EQ(recovered(), state_text(opt));
  // A rejected call writes nothing.
  const std::string before = read_all(path_);
  const double bad[2] = {std::nan(""), 1.0};
  EXPECT_EQ(rescue_observe_at(opt, xa, 2, 0.5, bad, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_NON_FINITE);
  EXPECT_EQ(rescue_observe(opt, 999, ya, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_UNKNOWN_TICKET);
  EXPECT_EQ(read_all(path_), before);
  rescue_destroy(opt);
}

// A resumed run gives the same suggestions as the uninterrupted one (the
// generator's and the strategy's state are journaled), for a model-based strategy too.
TEST_F(Journal, ResumedRunContinuesLikeTheUninterruptedOne) {
  for (const char* strategy : {"random", "ehvi"}) {
    rescue_optimizer* a = make(strategy);
    rescue_optimizer* b = make(strategy);
    ASSERT_EQ(rescue_journal_open(b, path_.c_str()), RESCUE_OK);
    double x[2], s, y[2], z[1];
    int t;
    const int n = std::string(strategy) == "ehvi" ? 8 : 30;
    for (int i = 0; i < n; ++i) {
      if (i == n / 2) {  // drop b without closing anything, as a crash would, and resume it
        rescue_optimizer* r = nullptr;
        ASSERT_EQ(rescue_journal_resume(path_.c_str(), &r, nullptr), RESCUE_OK);
        rescue_destroy(b);
        b = r;
      }
      double xb[2], sb;
      int tb;
      ASSERT_EQ(rescue_suggest(a, x, 2, &s, &t), RESCUE_OK) << strategy << ": " << rescue_errmsg(a);
      ASSERT_EQ(rescue_suggest(b, xb, 2, &sb, &tb), RESCUE_OK) << strategy << ": " << rescue_errmsg(b);
      EXPECT_EQ(t, tb);
      EXPECT_EQ(x[0], xb[0]);
      EXPECT_EQ(x[1], xb[1]);
      EXPECT_EQ(s, sb);
      sim(x, s, y, z);
      ASSERT_EQ(rescue_observe(a, t, y, 2, nullptr, 0, z, 1), RESCUE_OK);
      ASSERT_EQ(rescue_observe(b, tb, y, 2, nullptr, 0, z, 1), RESCUE_OK);
    }
    EXPECT_EQ(state_text(a), state_text(b));
    EXPECT_EQ(recovered(), state_text(b));
    rescue_destroy(a);
    rescue_destroy(b);
  }
}

// Cutting the file anywhere inside the last record gives the state before that
// record's call; cutting at a record boundary loses nothing.
TEST_F(Journal, TornLastRecordIsIgnored) {
  rescue_optimizer* opt = make("random");
  ASSERT_EQ(rescue_journal_open(opt, path_.c_str()), RESCUE_OK);
  double x[2], s, y[2], z[1];
  int t;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t), RESCUE_OK);
    sim(x, s, y, z);
    ASSERT_EQ(rescue_observe(opt, t, y, 2, nullptr, 0, z, 1), RESCUE_OK);
  }
  ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t), RESCUE_OK);
  const std::string before_last = state_text(opt);
  const size_t size_before = read_all(path_).size();
  sim(x, s, y, z);
  ASSERT_EQ(rescue_observe(opt, t, y, 2, nullptr, 0, z, 1), RESCUE_OK);
  const std::string full = read_all(path_), after_last = state_text(opt);
  rescue_destroy(opt);
  ASSERT_GT(full.size(), size_before);
  for (size_t cut = size_before; cut <= full.size(); cut += (cut + 7 < full.size() ? 7 : 1)) {
    write_all(path_, full.substr(0, cut));
    int torn = -1;
    const std::string got = recovered(&torn);
    if (cut == full.size()) {
      EXPECT_EQ(got, after_last);
      EXPECT_EQ(torn, 0);
    } else {
      EXPECT_EQ(got, before_last) << "cut at " << cut;
      EXPECT_EQ(torn, cut == size_before ? 0 : 1) << "cut at " << cut;
    }
  }
  // A damaged last record whose newline reached the disk is torn as well.
  std::string damaged = full;
  damaged[full.size() - 20] ^= 0x01;
  write_all(path_, damaged);
  int torn = 0;
  EXPECT_EQ(recovered(&torn), before_last);
  EXPECT_EQ(torn, 1);
}

TEST_F(Journal, DamageBeforeTheLastRecordIsCorruption) {
  rescue_optimizer* opt = make("random");
  ASSERT_EQ(rescue_journal_open(opt, path_.c_str()), RESCUE_OK);
  double x[2], s;
  int t;
  for (int i = 0; i < 4; ++i) ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t), RESCUE_OK);
  rescue_destroy(opt);
  const std::string full = read_all(path_);
  // One flipped bit in each earlier line (header, base, first patches).
  size_t line_start = 0;
  for (int line = 0; line < 4; ++line) {
    std::string damaged = full;
    damaged[line_start + 3] ^= 0x04;
    write_all(path_, damaged);
    rescue_status st = RESCUE_OK;
    EXPECT_EQ(recovered(nullptr, &st), "");
    EXPECT_EQ(st, RESCUE_ERR_CORRUPT_CHECKPOINT) << "line " << line;
    line_start = full.find('\n', line_start) + 1;
  }
  // A record dropped from the middle breaks the sequence.
  const size_t l2 = full.find('\n', full.find('\n') + 1) + 1, l3 = full.find('\n', l2) + 1;
  write_all(path_, full.substr(0, l2) + full.substr(l3));
  rescue_status st = RESCUE_OK;
  recovered(nullptr, &st);
  EXPECT_EQ(st, RESCUE_ERR_CORRUPT_CHECKPOINT);
  // A newer format is refused as such; a non-journal as corrupt.
  write_all(path_, "RESCUE-JOURNAL 2\n" + full.substr(full.find('\n') + 1));
  recovered(nullptr, &st);
  EXPECT_EQ(st, RESCUE_ERR_UNSUPPORTED_VERSION);
  write_all(path_, "RESCUE-CHECKPOINT 1\n{}\n");
  recovered(nullptr, &st);
  EXPECT_EQ(st, RESCUE_ERR_CORRUPT_CHECKPOINT);
  write_all(path_, "");
  recovered(nullptr, &st);
  EXPECT_EQ(st, RESCUE_ERR_CORRUPT_CHECKPOINT);
}

// The journal's checksums (CRC-32, as the journal computes them: reflected,
// polynomial 0xEDB88320), so that a test can write records that pass them.
std::string crc_hex(const std::string& bytes) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", c ^ 0xFFFFFFFFu);
  return buf;
}

// Records whose checksums hold but whose state the library refuses (bounds in
// the wrong order, an unknown strategy, a count parameter out of its domain)
// are damage like any other: RESCUE_ERR_CORRUPT_CHECKPOINT, as rescue_load
// reports the same state, not the status of the setter that refused it.
TEST_F(Journal, ARefusedStateBehindValidChecksumsIsCorruption) {
  rescue_optimizer* opt = make("random");
  ASSERT_EQ(rescue_journal_open(opt, path_.c_str()), RESCUE_OK);
  rescue_destroy(opt);
  const std::string full = read_all(path_);
  const size_t l1 = full.find('\n') + 1;
  const std::string base = full.substr(l1, full.find('\n', l1) - l1);  // "B 0 <state crc> <state> <crc>"
  const size_t body_at = base.find(' ', 4) + 1;
  const std::string body = base.substr(body_at, base.rfind(' ') - body_at);
  ASSERT_EQ(base, "B 0 " + crc_hex(body) + " " + body + " " + crc_hex(base.substr(0, base.rfind(' '))))
      << "the test's record format no longer matches the journal's";
  const std::pair<const char*, const char*> edits[] = {
      {"\"lower\":0.0,\"name\":\"a\"", "\"lower\":5.0,\"name\":\"a\""},
      {"\"strategy\":\"random\"", "\"strategy\":\"nope\""},
      {"\"kg.fantasies\":2.0", "\"kg.fantasies\":1000000000.0"},
  };
  for (const auto& [from, to] : edits) {
    SCOPED_TRACE(to);
    const size_t at = body.find(from);
    ASSERT_NE(at, std::string::npos) << body;
    const std::string edited = body.substr(0, at) + to + body.substr(at + std::strlen(from));
    const std::string payload = "B 0 " + crc_hex(edited) + " " + edited;
    write_all(path_, full.substr(0, l1) + payload + " " + crc_hex(payload) + "\n");
    rescue_status st = RESCUE_OK;
    EXPECT_EQ(recovered(nullptr, &st), "");
    EXPECT_EQ(st, RESCUE_ERR_CORRUPT_CHECKPOINT) << rescue_last_error();
    // The same edit in a checkpoint is refused the same way.
    const std::string ckpt = "RESCUE-CHECKPOINT 1\n" + edited;
    rescue_optimizer* back = nullptr;
    EXPECT_EQ(rescue_load(ckpt.data(), ckpt.size(), &back), RESCUE_ERR_CORRUPT_CHECKPOINT) << rescue_last_error();
    EXPECT_EQ(back, nullptr);
  }
}

// Compaction keeps the file within a constant factor of a checkpoint.
TEST_F(Journal, StaysSmallThroughCompaction) {
  rescue_optimizer* opt = make("random");
  ASSERT_EQ(rescue_journal_open(opt, path_.c_str()), RESCUE_OK);
  double x[2], s, y[2], z[1];
  int t;
  size_t largest_ratio_x100 = 0;
  for (int i = 0; i < 120; ++i) {
    ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t), RESCUE_OK);
    sim(x, s, y, z);
    ASSERT_EQ(rescue_observe(opt, t, y, 2, nullptr, 0, z, 1), RESCUE_OK);
    const size_t file = read_all(path_).size(), checkpoint = state_text(opt).size();
    if (i > 20) largest_ratio_x100 = std::max(largest_ratio_x100, 100 * file / checkpoint);
  }
  EXPECT_LT(largest_ratio_x100, 700u);
  EXPECT_EQ(recovered(), state_text(opt));
  rescue_destroy(opt);
}

TEST_F(Journal, CloseStopsRecording) {
  rescue_optimizer* opt = make("random");
  EXPECT_EQ(rescue_journal_is_open(opt), 0);
  ASSERT_EQ(rescue_journal_open(opt, path_.c_str()), RESCUE_OK);
  EXPECT_EQ(rescue_journal_is_open(opt), 1);
  double x[2], s;
  int t;
  ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t), RESCUE_OK);
  const std::string at_close = state_text(opt), file = read_all(path_);
  EXPECT_EQ(rescue_journal_close(opt), RESCUE_OK);
  EXPECT_EQ(rescue_journal_close(opt), RESCUE_OK);
  EXPECT_EQ(rescue_journal_is_open(opt), 0);
  ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t), RESCUE_OK);
  EXPECT_EQ(read_all(path_), file);
  EXPECT_EQ(recovered(), at_close);
  rescue_destroy(opt);
}

// When a record cannot be written the call reports RESCUE_ERR_IO, the file
// keeps only complete records, and the journal refuses further records.
TEST_F(Journal, WriteFailureIsReportedAndLeavesAValidFile) {
  rescue_optimizer* opt = make("random");
  ASSERT_EQ(rescue_journal_open(opt, path_.c_str()), RESCUE_OK);
  double x[2], s;
  int t;
  ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t), RESCUE_OK);
  const std::string durable = state_text(opt);
  const size_t size = read_all(path_).size();
  // The file may not grow by a whole record: the write is cut short.
  struct rlimit old;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
  struct rlimit lim = old;
  lim.rlim_cur = size + 16;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
  const rescue_status st = rescue_suggest(opt, x, 2, &s, &t);
  const std::string msg = rescue_errmsg(opt);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);
  signal(SIGXFSZ, old_handler);
  EXPECT_EQ(st, RESCUE_ERR_IO);
  EXPECT_NE(msg.find("journal"), std::string::npos) << msg;
  EXPECT_EQ(read_all(path_).size(), size);
  // Stopped: later state-changing calls fail before they change anything, so
  // a caller that retries them does not apply them twice.
  const std::string after_failure = state_text(opt);
  EXPECT_EQ(rescue_suggest(opt, x, 2, &s, &t), RESCUE_ERR_IO);
  EXPECT_NE(std::string(rescue_errmsg(opt)).find("changed nothing"), std::string::npos) << rescue_errmsg(opt);
  const double y[2] = {0.5, 0.5}, xo[2] = {0.5, 3.0};
  EXPECT_EQ(rescue_observe_at(opt, xo, 2, 1.0, y, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_IO);
  EXPECT_EQ(rescue_cancel(opt, t), RESCUE_ERR_IO);
  EXPECT_TRUE(state_text(opt) == after_failure) << "a refused call changed the state";
  int torn = 1;
  EXPECT_EQ(recovered(&torn), durable);
  EXPECT_EQ(torn, 0);
  // Closing and reopening starts a healthy journal.
  EXPECT_EQ(rescue_journal_close(opt), RESCUE_OK);
  ASSERT_EQ(rescue_journal_open(opt, path_.c_str()), RESCUE_OK);
  ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t), RESCUE_OK);
  EXPECT_EQ(recovered(), state_text(opt));
  rescue_destroy(opt);
}

TEST_F(Journal, BadArguments) {
  rescue_optimizer* opt = make("random");
  rescue_optimizer* out = reinterpret_cast<rescue_optimizer*>(&opt);
  EXPECT_EQ(rescue_journal_open(nullptr, path_.c_str()), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_journal_open(opt, nullptr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_journal_open(opt, ""), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_journal_open(opt, (dir_ + "/no/such/dir/j").c_str()), RESCUE_ERR_IO);
  EXPECT_NE(std::string(rescue_errmsg(opt)).find("no/such/dir"), std::string::npos);
  EXPECT_EQ(rescue_journal_is_open(opt), 0);
  // A journal that cannot replace the attached one leaves it attached and recording.
  ASSERT_EQ(rescue_journal_open(opt, path_.c_str()), RESCUE_OK);
  EXPECT_EQ(rescue_journal_open(opt, (dir_ + "/no/such/dir/j").c_str()), RESCUE_ERR_IO);
  EXPECT_EQ(rescue_journal_is_open(opt), 1);
  double x[2], s;
  int t;
  ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t), RESCUE_OK);
  EXPECT_EQ(recovered(), state_text(opt));
  EXPECT_EQ(rescue_journal_close(opt), RESCUE_OK);
  EXPECT_EQ(rescue_journal_close(nullptr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_journal_is_open(nullptr), -1);
  EXPECT_EQ(rescue_journal_resume(path_.c_str(), nullptr, nullptr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_journal_resume(nullptr, &out, nullptr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(out, nullptr);
  out = reinterpret_cast<rescue_optimizer*>(&opt);
  EXPECT_EQ(rescue_journal_resume((dir_ + "/missing").c_str(), &out, nullptr), RESCUE_ERR_IO);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(rescue_journal_resume("", &out, nullptr), RESCUE_ERR_INVALID_ARGUMENT);
  rescue_destroy(opt);
}

}  // namespace
