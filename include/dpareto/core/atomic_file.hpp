#pragma once
// Replaces a file's content in one step (write a new PATH.tmp.<pid>.<n>, then rename): a reader,
// or a process killed half-way, sees the old content or the new, never a mix; a symlink at PATH
// or at the temporary name is replaced or refused, never written through. A device or pipe named
// directly (/dev/stdout, /dev/full, a FIFO) is written in place instead.
#include <filesystem>
#include <string>

namespace dpareto {

// InputError naming the file when it cannot be written.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace dpareto
