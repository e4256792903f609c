#include "engine/files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/error.hpp"

namespace rescue::engine {

std::string sys_error(const std::string& what, const std::string& path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void sync_parent_directory(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail(Status::Io, sys_error("cannot open directory", dir));
  // Some file systems cannot sync a directory (EINVAL); their renames are then
  // as durable as they can be made.
  const bool ok = ::fsync(fd) == 0 || errno == EINVAL;
  const std::string why = ok ? "" : sys_error("cannot sync directory", dir);
  ::close(fd);
  if (!ok) fail(Status::Io, why);
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  // 0666: the umask decides the mode, as for any file the caller's program creates.
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail(Status::Io, sys_error("cannot write", tmp));
  bool ok = write_all(fd, text) && ::fsync(fd) == 0;
  const std::string why = ok ? "" : sys_error("cannot write", tmp);
  ok = (::close(fd) == 0) && ok;
  if (!ok) {
    ::unlink(tmp.c_str());
    fail(Status::Io, why.empty() ? "cannot write '" + tmp + "'" : why);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why2 = sys_error("cannot rename '" + tmp + "' to", path);
    ::unlink(tmp.c_str());
    fail(Status::Io, why2);
  }
  sync_parent_directory(path);
}

std::string read_file(const std::string& path, const std::string& what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(Status::Io, sys_error("cannot open " + what, path));
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = sys_error("cannot read " + what, path);
      ::close(fd);
      fail(Status::Io, why);
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

}  // namespace rescue::engine
