#pragma once
// A command line split into words the way /bin/sh quotes them, and nothing more: no variable, glob,
// tilde or command expansion, no operators, nothing run (GLib's g_shell_parse_argv). Single quotes
// keep everything literally, double quotes and backslashes escape as in the shell, and a '#' that
// begins a word starts a comment.
#include <string>
#include <vector>

namespace dpareto {

// InputError naming `source` and the text for mismatched quoting or a line with no word.
std::vector<std::string> shell_words(const std::string& text, const std::string& source);

}  // namespace dpareto
