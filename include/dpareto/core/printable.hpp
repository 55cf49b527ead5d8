#pragma once
// Text from a file or a child process, made safe to put in a one-line message: control bytes
// (NUL, newlines, escapes) and bytes outside ASCII become '?', so a message is never cut at a NUL,
// split over lines or able to drive a terminal; longer than `max` characters ends in "...".
#include <cstddef>
#include <string>
#include <string_view>

namespace dpareto {

std::string printable(std::string_view text, std::size_t max = 200);

}  // namespace dpareto
