// File input and output for checkpoints and journals: whole-file reads,
// atomic and durable replacement, and appends that survive a crash (POSIX).
#pragma once
#include <string>

namespace rescue::engine {

/// "<what> '<path>': <strerror(errno)>", the message of a failed system call.
std::string sys_error(const std::string& what, const std::string& path);

/// Writes all of `data` to the descriptor, retrying short writes and
/// interrupted calls. False on failure, with errno set.
bool write_all(int fd, const std::string& data);

/// Makes the directory holding `path` durable (fsync of the directory), so that
/// a rename into it survives a power loss. Throws Io on failure.
void sync_parent_directory(const std::string& path);

/// Writes `text` to `path` atomically: `path.tmp`, fsync, rename, fsync of the
/// directory. Throws Io on failure (the old file, if any, is left intact).
void write_file_atomically(const std::string& path, const std::string& text);

/// The whole content of the file at `path`. Throws Io when it cannot be opened
/// or read (a directory included); `what` names the file in the message
/// ("cannot open journal '<path>': ...").
std::string read_file(const std::string& path, const std::string& what);

}  // namespace rescue::engine
