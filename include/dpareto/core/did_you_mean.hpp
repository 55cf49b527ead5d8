#pragma once
// "Did you mean": the known names closest to a mistyped one, for the one-line errors about unknown
// commands, flags, problems, methods and the like (issue 21).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dpareto {

// Optimal-string-alignment distance (Damerau–Levenshtein without edits inside a transposed pair):
// the fewest insertions, deletions, substitutions and swaps of two neighbours turning a into b.
std::size_t edit_distance(std::string_view a, std::string_view b);

// "; did you mean 'explore'?" (or "'a' or 'b'", "'a', 'b' or 'c'" for ties) naming the known names
// nearest to `typed`, ignoring ASCII case, when within max(1, |typed| / 3) edits and not wholly
// rewritten; "" when none is that close.
std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known);

}  // namespace dpareto
