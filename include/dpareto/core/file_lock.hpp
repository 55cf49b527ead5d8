#pragma once
// An advisory lock (flock) on a file or a directory, held for the object's lifetime: one dpareto
// process at a time writes a run directory or a privacy ledger (exclusive); the processes sharing a
// study each hold it shared, so that nothing renames it under them. The lock goes with the
// descriptor, so a killed process never leaves it behind.
#include <string>

namespace dpareto {

class FileLock {
 public:
  enum class Wait { no, yes };  // no: refuse at once when another process holds it
  enum class Mode { exclusive, shared };

  // Opens `path` with `open_flags` (O_CLOEXEC is added; O_CREAT creates it with mode 0644) and locks
  // it. Throws InputError "<owner>: cannot open <path> (<reason>)", or, with Wait::no, "<owner>: in use
  // by another dpareto process (locked)".
  FileLock(const std::string& path, int open_flags, Wait wait, const std::string& owner, Mode mode = Mode::exclusive);
  ~FileLock();
  // Turns an exclusive lock into a shared one (other processes may then share it).
  void share();
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&&) = delete;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace dpareto
