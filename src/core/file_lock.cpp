#include "dpareto/core/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "dpareto/core/error.hpp"

namespace dpareto {

FileLock::FileLock(const std::string& path, int open_flags, Wait wait, const std::string& owner, Mode mode) {
  fd_ = ::open(path.c_str(), open_flags | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError(owner + ": cannot open " + path + " (" + std::strerror(errno) + ")");
  int rc = 0;
  do rc = ::flock(fd_, (mode == Mode::shared ? LOCK_SH : LOCK_EX) | (wait == Wait::no ? LOCK_NB : 0));
  while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK) throw InputError(owner + ": in use by another dpareto process (locked)");
    throw InputError(owner + ": cannot lock " + path + " (" + std::strerror(error) + ")");
  }
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_) {
  other.fd_ = -1;
}

void FileLock::share() {
  int rc = 0;
  do rc = ::flock(fd_, LOCK_SH);
  while (rc != 0 && errno == EINTR);
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace dpareto
