// A write-ahead journal that makes every state change of an Optimizer durable
// before the changing call returns, so that a process killed at any moment can
// be resumed with every acknowledged call.
//
// File format (text, one record per line):
//   RESCUE-JOURNAL 1
//   B <seq> <state-crc> <checkpoint JSON> <line-crc>      the base: a full checkpoint
//   P <seq> <state-crc> <JSON patch> <line-crc>           one change (RFC 6902 patch)
// Sequence numbers count up from 0. <line-crc> is the CRC-32 (hex) of everything
// before it on the line; <state-crc> is the CRC-32 of the full state document
// after the record, checked once at the end of a replay. A final line that is
// incomplete or fails its CRC was being written when the process died: it was
// never acknowledged, and replay ignores it. A bad line anywhere else is
// corruption. The journal is compacted (rewritten atomically with the current
// state as the new base) when the patches outgrow the base, so its size stays
// within a constant factor of a checkpoint's.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/optimizer.hpp"

namespace rescue::engine {

/// CRC-32 (IEEE 802.3, reflected, as in zlib) of a byte string.
std::uint32_t crc32(const std::string& bytes);

/// What a replay found.
struct ReplayInfo {
  std::size_t records = 0;   ///< valid records applied (the base included)
  bool torn_tail = false;    ///< an unacknowledged, partly written last record was ignored
};

/// Rebuilds the state document (Optimizer::to_json format) from journal text.
/// Throws CorruptCheckpoint (or UnsupportedVersion) on a malformed journal.
nlohmann::json replay_journal(const std::string& text, ReplayInfo* info = nullptr);

class Journal final : public Optimizer::Listener {
 public:
  /// Starts a journal at `path` for `opt`: writes the current state as the base
  /// (atomically, replacing any file there) and attaches itself to `opt`.
  static void attach(Optimizer& opt, const std::string& path);
  /// Rebuilds an optimizer from the journal at `path` and attaches a fresh
  /// journal there (compacted to the recovered state), so the run continues durably.
  static std::unique_ptr<Optimizer> resume(const std::string& path, ReplayInfo* info = nullptr);

  ~Journal() override;
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  /// Appends the change since the last record and syncs it to disk. Throws Io
  /// when that fails; the journal then refuses further records.
  void ready() const override;
  void changed(const Optimizer& opt) override;

 private:
  Journal(std::string path, nlohmann::json state);
  void rewrite();  // compaction: a new base holding state_
  void append(const std::string& line);

  std::string path_;
  nlohmann::json state_;  // the state the journal's records lead to
  int fd_ = -1;
  std::uint64_t next_seq_ = 0;
  std::size_t base_bytes_ = 0, patch_bytes_ = 0;
  std::string broken_;  // why the journal stopped, empty while healthy
};

}  // namespace rescue::engine
