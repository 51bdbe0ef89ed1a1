// Atomic file output and checked file input.
#include "common/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <fmt/core.h>

#include "common/error.h"

namespace strobe {

namespace {

/// How write_file_atomic writes a path.
enum class OutputKind { Replace, Stream };

/// The file write_file_atomic writes for `path` (a symbolic link's target) and how; throws
/// InputError naming `path` for a kind it refuses.
std::pair<std::string, OutputKind> output_target(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) throw InputError("cannot write '': no file named");
  std::error_code ec;
  std::string target = path;
  if (fs::is_symlink(path, ec)) {
    // Replacing the link's target keeps the link; a dangling link names the file to create.
    const fs::path link = fs::read_symlink(path, ec);
    if (ec) throw InputError(fmt::format("cannot write '{}': {}", path, ec.message()));
    target = (link.is_absolute() ? link : fs::path(path).parent_path() / link).lexically_normal().string();
  }
  const fs::file_status st = fs::status(target, ec);
  switch (st.type()) {
    case fs::file_type::not_found:
    case fs::file_type::regular:
      return {target, OutputKind::Replace};
    case fs::file_type::fifo:
    case fs::file_type::character:
      return {target, OutputKind::Stream};
    case fs::file_type::directory:
      throw InputError(fmt::format("cannot write '{}': it is a directory", path));
    default:
      throw InputError(fmt::format("cannot write '{}': it is not a regular file, a FIFO or a character device", path));
  }
}

/// Writes all of `content` to `fd`; false (errno set) on failure.
bool write_all(int fd, std::string_view content) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += size_t(n);
  }
  return true;
}

}  // namespace

void write_file_atomic(const std::string& path, std::string_view content) {
  const auto [target, kind] = output_target(path);
  auto fail = [&path](int err) { return InputError(fmt::format("cannot write '{}': {}", path, std::strerror(err))); };
  if (kind == OutputKind::Stream) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw fail(errno);
    const bool ok = write_all(fd, content);
    const int err = errno;
    ::close(fd);
    if (!ok) throw fail(err);
    return;
  }
  const std::string tmp = target + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw fail(errno);
  if (!write_all(fd, content)) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    throw fail(err);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw fail(err);
  }
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw fail(err);
  }
}

std::string replaced_file(const std::string& path) {
  const auto [target, kind] = output_target(path);
  if (kind != OutputKind::Replace)
    throw InputError(fmt::format("cannot write '{}': it is a FIFO or a device, and this output must be a regular file",
                                 path));
  return target;
}

void check_output_path(const std::string& path) {
  namespace fs = std::filesystem;
  const auto [target, kind] = output_target(path);
  if (kind == OutputKind::Stream) {
    if (::access(target.c_str(), W_OK) != 0)
      throw InputError(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
    return;
  }
  // The temporary file goes beside the target: its directory must exist and take new files.
  fs::path dir = fs::path(target).parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError(fmt::format("cannot write '{}': directory '{}' does not exist", path, dir.string()));
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError(fmt::format("cannot write '{}': directory '{}': {}", path, dir.string(), std::strerror(errno)));
}

void remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  const std::string prefix = fs::path(path).filename().string() + ".tmp.";
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string pid_text = name.substr(prefix.size());
    if (pid_text.find_first_not_of("0123456789") != std::string::npos || pid_text.size() > 9) continue;
    const pid_t pid = pid_t(std::stol(pid_text));
    // ESRCH: no such process, so no write of it is under way.
    if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH) fs::remove(it->path(), ec), ec.clear();
  }
}

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(fmt::format("cannot read '{}': it is a directory", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(fmt::format("cannot read '{}': read error", path));
  return ss.str();
}

}  // namespace strobe
