#include "dpareto/core/did_you_mean.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace dpareto {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme: i - 2 (for swaps), i - 1 and i.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known) {
  const std::string text = lower(typed);
  const std::size_t limit = std::max<std::size_t>(1, text.size() / 3);
  std::size_t best = limit + 1;
  std::vector<std::string> closest;
  for (const auto& name : known) {
    // Names whose lengths differ by more than the limit are never close (and a long typo stays cheap).
    if (std::max(name.size(), text.size()) - std::min(name.size(), text.size()) > limit) continue;
    const std::size_t d = edit_distance(text, lower(name));
    if (d > best || d >= name.size()) continue;
    if (d < best) closest.clear();
    best = d;
    if (std::find(closest.begin(), closest.end(), name) == closest.end()) closest.push_back(name);
  }
  if (closest.empty()) return "";
  std::string out = "; did you mean";
  for (std::size_t i = 0; i < closest.size(); ++i)
    out += std::string(i == 0 ? " '" : i + 1 == closest.size() ? " or '" : ", '") + closest[i] + "'";
  return out + "?";
}

}  // namespace dpareto
