#pragma once
// Text from a file or a child process, made safe for where it goes.
#include <cstddef>
#include <string>
#include <string_view>

namespace dpareto {

// For a one-line message: control bytes (NUL, newlines, escapes) and bytes outside ASCII become
// '?', so a message is never cut at a NUL, split over lines or able to drive a terminal; longer
// than `max` characters ends in "...".
std::string printable(std::string_view text, std::size_t max = 200);

// For a figure or a document: valid UTF-8, with every invalid sequence (a stray continuation
// byte, an overlong form, a surrogate, a code point above U+10FFFF, a truncated sequence) replaced
// by U+FFFD and every control character but '\n' (C0, DEL, C1) replaced by a space.
std::string clean_utf8(std::string_view text);

}  // namespace dpareto
