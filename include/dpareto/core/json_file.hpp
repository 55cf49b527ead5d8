#pragma once
// Reading a JSON file someone else wrote (space.json, candidate files, ledgers): it must be a
// regular file of at most `max_bytes`, valid JSON (numbers that overflow a double included) and
// nested at most 64 deep; anything else is one InputError naming the file.
#include <cstddef>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace dpareto {

// `what` names the file's role in messages ("space file", "candidates file").
nlohmann::json read_json_file(const std::filesystem::path& path, const std::string& what,
                              std::size_t max_bytes = std::size_t{64} << 20);

// The deepest nesting of [ and { outside strings (the parser recurses, so depth is checked first).
int json_nesting_depth(const std::string& text);

}  // namespace dpareto
