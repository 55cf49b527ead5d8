#pragma once
// Replaces a file's content in one step (write PATH.tmp, then rename): a reader, or a process
// killed half-way, sees the old content or the new, never a mix.
#include <filesystem>
#include <string>

namespace dpareto {

// InputError naming the file when it cannot be written.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace dpareto
