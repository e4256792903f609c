// Checkpoints as text: the line "RESCUE-CHECKPOINT <format>", then the
// optimizer's state (Optimizer::to_json) as JSON. The C ABI's rescue_save,
// rescue_load and their file forms are these functions.
#pragma once
#include <memory>
#include <string>

#include "engine/optimizer.hpp"

namespace rescue::engine {

/// The format checkpoint_text writes (RESCUE_CHECKPOINT_FORMAT); it reads every format up to it.
constexpr int kCheckpointFormat = 1;

/// The optimizer's state as checkpoint text.
std::string checkpoint_text(const Optimizer& opt);

/// Rebuilds an optimizer from checkpoint text. Throws CorruptCheckpoint for
/// text that is not a checkpoint or holds a state the library refuses, and
/// UnsupportedVersion for a format newer than kCheckpointFormat.
std::unique_ptr<Optimizer> optimizer_from_checkpoint(const std::string& text);

/// Writes the checkpoint text to `path` atomically (engine/files.hpp). Throws Io.
void save_checkpoint(const Optimizer& opt, const std::string& path);

/// Reads a checkpoint file: Io when it cannot be read, otherwise as optimizer_from_checkpoint.
std::unique_ptr<Optimizer> load_checkpoint(const std::string& path);

}  // namespace rescue::engine
