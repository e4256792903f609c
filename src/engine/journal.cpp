#include "engine/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cstdio>

#include "engine/files.hpp"
#include "util/error.hpp"

namespace rescue::engine {
namespace {

using nlohmann::json;

const char kMagic[] = "RESCUE-JOURNAL";
constexpr int kFormat = 1;

std::array<std::uint32_t, 256> crc_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[i] = c;
  }
  return t;
}

std::string hex(std::uint32_t v) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", v);
  return buf;
}

std::string record(char kind, std::uint64_t seq, const json& state, const std::string& body) {
  std::string payload = std::string(1, kind) + " " + std::to_string(seq) + " " + hex(crc32(state.dump())) + " " + body;
  const std::string crc = hex(crc32(payload));
  return payload + " " + crc + "\n";
}

[[noreturn]] void corrupt(const std::string& what) { fail(Status::CorruptCheckpoint, "corrupt journal: " + what); }

}  // namespace

std::uint32_t crc32(const std::string& bytes) {
  static const std::array<std::uint32_t, 256> table = crc_table();  // immutable after initialization
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) c = table[(c ^ b) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

nlohmann::json replay_journal(const std::string& text, ReplayInfo* info) {
  ReplayInfo local;
  ReplayInfo& out = info ? *info : local;
  out = ReplayInfo{};
  std::size_t pos = text.find('\n');
  if (pos == std::string::npos) corrupt("no header line");
  {
    const std::string header = text.substr(0, pos);
    const std::string prefix = std::string(kMagic) + " ";
    if (header.compare(0, prefix.size(), prefix) != 0) corrupt("the first line must start with RESCUE-JOURNAL");
    long long format = 0;
    try {
      std::size_t used = 0;
      format = std::stoll(header.substr(prefix.size()), &used);
      if (prefix.size() + used != header.size()) corrupt("malformed format number");
    } catch (const std::logic_error&) {
      corrupt("malformed format number");
    }
    if (format < 1) corrupt("malformed format number");
    if (format > kFormat)
      fail(Status::UnsupportedVersion, "journal format " + std::to_string(format) + " is newer than this library reads (" +
                                           std::to_string(kFormat) + "); upgrade the library");
  }
  ++pos;
  json state;
  std::string state_crc;
  std::uint64_t seq = 0;
  while (pos < text.size()) {
    const std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) {  // killed while writing the last record
      out.torn_tail = true;
      break;
    }
    const std::string line = text.substr(pos, eol - pos);
    const bool last = eol + 1 == text.size();
    pos = eol + 1;
    const std::size_t sp = line.find_last_of(' ');
    const bool crc_ok = sp != std::string::npos && line.size() - sp - 1 == 8 &&
                        hex(crc32(line.substr(0, sp))) == line.substr(sp + 1);
    if (!crc_ok) {
      if (last) {  // a torn write that still got its newline onto the disk
        out.torn_tail = true;
        break;
      }
      corrupt("record " + std::to_string(seq) + " fails its checksum");
    }
    // "<kind> <seq> <state-crc> <json>"
    const std::size_t a = line.find(' '), b = line.find(' ', a + 1), c = line.find(' ', b + 1);
    if (a != 1 || b == std::string::npos || c == std::string::npos || c >= sp || c - b - 1 != 8)
      corrupt("record " + std::to_string(seq) + " is malformed");
    const char kind = line[0];
    if (line.substr(a + 1, b - a - 1) != std::to_string(seq)) corrupt("records out of sequence at " + std::to_string(seq));
    json body = json::parse(line.begin() + static_cast<std::ptrdiff_t>(c) + 1, line.begin() + static_cast<std::ptrdiff_t>(sp),
                            nullptr, false);
    if (body.is_discarded()) corrupt("record " + std::to_string(seq) + " is not valid JSON");
    if (kind == 'B') {
      if (seq != 0) corrupt("a base record after the start");
      state = std::move(body);
    } else if (kind == 'P') {
      if (seq == 0) corrupt("the journal does not start with a base record");
      try {
        state.patch_inplace(body);
      } catch (const json::exception& e) {
        corrupt("record " + std::to_string(seq) + " does not apply: " + e.what());
      }
    } else {
      corrupt("unknown record kind at " + std::to_string(seq));
    }
    state_crc = line.substr(b + 1, 8);
    ++seq;
  }
  if (seq == 0) corrupt("no base record");
  if (hex(crc32(state.dump())) != state_crc) corrupt("the replayed state does not match its checksum");
  out.records = seq;
  return state;
}

Journal::Journal(std::string path, nlohmann::json state) : path_(std::move(path)), state_(std::move(state)) {}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::attach(Optimizer& opt, const std::string& path) {
  if (path.empty()) fail(Status::InvalidArgument, "the journal path is empty");
  std::unique_ptr<Journal> j(new Journal(path, opt.to_json()));
  j->rewrite();
  opt.set_listener(std::move(j));
}

std::unique_ptr<Optimizer> Journal::resume(const std::string& path, ReplayInfo* info) {
  if (path.empty()) fail(Status::InvalidArgument, "the journal path is empty");
  const json state = replay_journal(read_file(path, "journal"), info);
  // A state whose records check out but that the library refuses is
  // CorruptCheckpoint from from_json, as rescue_load reports it.
  std::unique_ptr<Optimizer> opt = Optimizer::from_json(state);
  // Starting over from the recovered state drops a torn tail and the history.
  attach(*opt, path);
  return opt;
}

void Journal::rewrite() {
  const std::string base = state_.dump();
  const std::string text = std::string(kMagic) + " " + std::to_string(kFormat) + "\n" + record('B', 0, state_, base);
  write_file_atomically(path_, text);
  if (fd_ >= 0) ::close(fd_);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) {
    broken_ = sys_error("cannot reopen journal", path_);
    fail(Status::Io, broken_);
  }
  next_seq_ = 1;
  base_bytes_ = text.size();
  patch_bytes_ = 0;
}

void Journal::append(const std::string& line) {
  const off_t end = ::lseek(fd_, 0, SEEK_END);
  if (end >= 0 && write_all(fd_, line) && ::fsync(fd_) == 0) {
    patch_bytes_ += line.size();
    return;
  }
  broken_ = sys_error("cannot append to journal", path_);
  // Cut a partial record so the file stays a valid journal of the acknowledged calls.
  if (end >= 0 && ::ftruncate(fd_, end) == 0) ::fsync(fd_);
  fail(Status::Io, broken_ + "; this call took effect in memory but is not durable; the journal is stopped");
}

void Journal::ready() const {
  if (!broken_.empty())
    fail(Status::Io, "the journal is stopped (" + broken_ + "); this call changed nothing; close the journal "
                     "and open a new one");
}

void Journal::changed(const Optimizer& opt) {
  ready();
  json now = opt.to_json();
  const json patch = json::diff(state_, now);
  if (patch.empty()) return;
  append(record('P', next_seq_, now, patch.dump()));
  ++next_seq_;
  state_ = std::move(now);
  // Compaction keeps replay linear: patches may take up to four times the base.
  // The change is already durable, so a failed compaction only stops the journal.
  if (patch_bytes_ > 4 * base_bytes_ + 4096) {
    try {
      rewrite();
    } catch (const Error& e) {
      broken_ = e.what();
    }
  }
}

}  // namespace rescue::engine
