// Kills a journaled optimization process with SIGKILL at random moments and
// resumes it each time: every acknowledged call must be in the recovered state,
// the state must be valid, and the run, resumed again and again, must end in
// exactly the state of an uninterrupted run.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "rescue.h"

namespace {

// Large enough that 50 kills of at most 80 ms of progress each never reach the end on a fast machine.
const char* kBudget = "8000";

struct WorkerRun {
  std::string out;  // everything the worker printed
  bool finished = false;
};

// Starts the worker; returns its pid and the read end of its stdout pipe.
pid_t spawn(const std::string& journal, int* read_fd) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    execl(RESCUE_JOURNAL_WORKER, RESCUE_JOURNAL_WORKER, journal.c_str(), kBudget, static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  *read_fd = fds[0];
  return pid;
}

std::string drain(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return out;
}

// Runs the worker, killing it after `delay` (never when delay < 0).
WorkerRun run_worker(const std::string& journal, std::chrono::microseconds delay) {
  int fd = -1;
  const pid_t pid = spawn(journal, &fd);
  EXPECT_GT(pid, 0);
  WorkerRun r;
  if (delay.count() >= 0) {
    std::this_thread::sleep_for(delay);
    kill(pid, SIGKILL);
  }
  r.out = drain(fd);
  int status = 0;
  waitpid(pid, &status, 0);
  r.finished = WIFEXITED(status);
  if (r.finished) EXPECT_EQ(WEXITSTATUS(status), 0) << r.out;
  return r;
}

std::string state_text(const rescue_optimizer* opt) {
  size_t len = 0;
  rescue_save(opt, nullptr, 0, &len);
  std::string text(len + 1, '\0');
  EXPECT_EQ(rescue_save(opt, &text[0], text.size(), &len), RESCUE_OK);
  text.resize(len);
  return text;
}

nlohmann::json state_doc(const rescue_optimizer* opt) {
  const std::string text = state_text(opt);
  return nlohmann::json::parse(text.substr(text.find('\n') + 1));
}

// Everything acknowledged so far, over all runs.
struct Acks {
  std::set<int> suggested, failed, cancelled;
  std::map<int, std::pair<std::string, std::string>> observed;  // ticket -> objective bits
  int lines = 0;

  void add(const std::string& out) {
    std::istringstream is(out);
    std::string line;
    while (std::getline(is, line)) {
      if (is.eof() && !out.empty() && out.back() != '\n') break;  // a line cut by the kill
      std::istringstream ls(line);
      std::string kind;
      int t = 0;
      ls >> kind;
      if (kind == "DONE") continue;
      ls >> t;
      ++lines;
      if (kind == "S") suggested.insert(t);
      if (kind == "F") failed.insert(t);
      if (kind == "C") cancelled.insert(t);
      if (kind == "O") {
        std::string a, b;
        ls >> a >> b;
        observed[t] = {a, b};
      }
    }
  }
};

std::string hex_bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(b));
  return buf;
}

// Checks that the recovered state holds every acknowledged call.
void check_acknowledged(const rescue_optimizer* opt, const Acks& acks) {
  const nlohmann::json doc = state_doc(opt);
  const long long next = doc.at("next_ticket").get<long long>();
  std::set<int> pending, closed;
  for (const auto& p : doc.at("pending")) pending.insert(p.at("ticket").get<int>());
  for (const auto& c : doc.at("closed_tickets")) closed.insert(c.get<int>());
  std::map<int, nlohmann::json> obs;
  for (const auto& o : doc.at("observations")) obs[o.at("ticket").get<int>()] = o;
  for (int t : acks.suggested) {
    EXPECT_LT(t, next) << "suggested ticket " << t << " lost";
    EXPECT_TRUE(pending.count(t) || closed.count(t)) << "ticket " << t;
  }
  for (const auto& [t, y] : acks.observed) {
    ASSERT_TRUE(obs.count(t)) << "acknowledged observation of ticket " << t << " lost";
    const auto& o = obs[t];
    EXPECT_FALSE(o.at("failed").get<bool>());
    EXPECT_EQ(hex_bits(o.at("y")[0].get<double>()), y.first);
    EXPECT_EQ(hex_bits(o.at("y")[1].get<double>()), y.second);
  }
  for (int t : acks.failed) {
    ASSERT_TRUE(obs.count(t)) << "acknowledged failure of ticket " << t << " lost";
    EXPECT_TRUE(obs[t].at("failed").get<bool>());
  }
  for (int t : acks.cancelled) {
    EXPECT_FALSE(pending.count(t)) << "cancelled ticket " << t << " is pending again";
    EXPECT_FALSE(obs.count(t));
    EXPECT_TRUE(closed.count(t));
  }
}

TEST(CrashResume, FiftySigkillsLoseNoAcknowledgedCall) {
  char dir_template[] = "/tmp/rescue-crash-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  const std::string reference = dir + "/reference.journal", crashed = dir + "/crashed.journal";

  // The uninterrupted run.
  const WorkerRun ref = run_worker(reference, std::chrono::microseconds(-1));
  ASSERT_TRUE(ref.finished);
  rescue_optimizer* ref_opt = nullptr;
  ASSERT_EQ(rescue_journal_resume(reference.c_str(), &ref_opt, nullptr), RESCUE_OK);
  const std::string ref_state = state_text(ref_opt);
  const int ref_obs = rescue_num_observations(ref_opt);
  rescue_destroy(ref_opt);
  ASSERT_GT(ref_obs, 250);

  std::mt19937 gen(20261122);
  // Kill moments from process start, so start-up, resume and compaction are hit too.
  std::uniform_int_distribution<int> delay_us(0, 80000);
  Acks acks;
  int kills_mid_run = 0, torn_tails = 0, unacknowledged_durable = 0;
  for (int i = 0; i < 50; ++i) {
    const WorkerRun r = run_worker(crashed, std::chrono::microseconds(delay_us(gen)));
    ASSERT_FALSE(r.finished) << "the run ended before kill " << i << "; raise the budget";
    ++kills_mid_run;
    acks.add(r.out);
    if (access(crashed.c_str(), F_OK) != 0) {  // killed before the journal's base was written
      EXPECT_EQ(acks.lines, 0);
      continue;
    }
    rescue_optimizer* opt = nullptr;
    int torn = 0;
    ASSERT_EQ(rescue_journal_resume(crashed.c_str(), &opt, &torn), RESCUE_OK) << "after kill " << i;
    torn_tails += torn;
    check_acknowledged(opt, acks);
    // A loaded copy of the recovered state is a valid checkpoint that saves back identically.
    const std::string text = state_text(opt);
    rescue_optimizer* copy = nullptr;
    ASSERT_EQ(rescue_load(text.data(), text.size(), &copy), RESCUE_OK);
    EXPECT_EQ(state_text(copy), text);
    rescue_destroy(copy);
    const int n = rescue_num_observations(opt);
    if (n > static_cast<int>(acks.observed.size() + acks.failed.size())) ++unacknowledged_durable;
    rescue_destroy(opt);
    if (HasFatalFailure()) break;
  }
  // Let the resumed run finish: it must end where the uninterrupted one ended.
  const WorkerRun last = run_worker(crashed, std::chrono::microseconds(-1));
  ASSERT_TRUE(last.finished);
  acks.add(last.out);
  rescue_optimizer* opt = nullptr;
  ASSERT_EQ(rescue_journal_resume(crashed.c_str(), &opt, nullptr), RESCUE_OK);
  check_acknowledged(opt, acks);
  EXPECT_EQ(state_text(opt), ref_state);
  rescue_destroy(opt);
  std::printf("[crash test] %d SIGKILLs during the run, %d acknowledged calls checked, %d torn last records ignored,"
              " %d recoveries also held the call in flight at the kill (written, not yet acknowledged); final state identical to the uninterrupted run"
              " (%d observations)\n",
              kills_mid_run, acks.lines, torn_tails, unacknowledged_durable, ref_obs);
  RecordProperty("kills", kills_mid_run);
  RecordProperty("acknowledged", acks.lines);
  std::remove(reference.c_str());
  std::remove(crashed.c_str());
  rmdir(dir.c_str());
}

}  // namespace
