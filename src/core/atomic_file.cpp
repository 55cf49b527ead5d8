#include "dpareto/core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "dpareto/core/error.hpp"

namespace dpareto {

namespace {

// A temporary file beside `path` that did not exist before: O_EXCL never opens what is there
// already, a symlink planted under that name included.
int create_temporary(const std::filesystem::path& path, std::string& tmp) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    tmp = path.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

bool write_all(int fd, const std::string& content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Paths written in place, never renamed over: a device or pipe named directly (`--out /dev/stdout`,
// /dev/full, a FIFO). Only a path the user typed gets here: a symlink inside a directory (a run
// directory from elsewhere pointing report/front.png at /dev/sda) is not followed, it is replaced.
bool written_in_place(const std::filesystem::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode) && !S_ISDIR(st.st_mode))
    return true;
  const std::string absolute = std::filesystem::absolute(path).lexically_normal().string();
  return absolute.starts_with("/dev/") || absolute.starts_with("/proc/");
}

void write_in_place(const std::filesystem::path& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw InputError("cannot write " + path.string() + " (" + std::strerror(errno) + ")");
  const bool written = write_all(fd, content);
  const int write_errno = errno;
  if (::close(fd) != 0 || !written)
    throw InputError("cannot write " + path.string() + " (" + std::strerror(written ? errno : write_errno) +
                     ": disk full or not writable?)");
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  if (written_in_place(path)) return write_in_place(path, content);
  std::string tmp;
  const int fd = create_temporary(path, tmp);
  if (fd < 0) throw InputError("cannot write " + path.string() + " (" + std::strerror(errno) + ")");
  const bool written = write_all(fd, content);
  const int write_errno = errno;
  if (::close(fd) != 0 || !written) {
    ::unlink(tmp.c_str());
    throw InputError("cannot write " + path.string() + " (" + std::strerror(written ? errno : write_errno) +
                     ": disk full or not writable?)");
  }
  // rename replaces a symlink at `path` itself; it never writes through it.
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw InputError("cannot replace " + path.string() + " (" + std::strerror(e) + ")");
  }
}

}  // namespace dpareto
