#include "dpareto/core/shell_words.hpp"

#include <glib.h>

#include <memory>

#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto {

std::vector<std::string> shell_words(const std::string& text, const std::string& source) {
  if (text.find('\0') != std::string::npos) throw InputError(source + ": the command contains a NUL byte");
  int argc = 0;
  char** argv = nullptr;
  GError* error = nullptr;
  if (!g_shell_parse_argv(text.c_str(), &argc, &argv, &error)) {
    const std::unique_ptr<GError, decltype(&g_error_free)> owned(error, &g_error_free);
    if (owned->domain == G_SHELL_ERROR && owned->code == G_SHELL_ERROR_EMPTY_STRING)
      throw InputError(source + ": the command is empty");
    throw InputError(source + ": " + (owned->domain == G_SHELL_ERROR && owned->code == G_SHELL_ERROR_BAD_QUOTING
                                          ? std::string("mismatched quotes")
                                          : printable(owned->message)) +
                     " in '" + printable(text) + "'");
  }
  const std::unique_ptr<char*, decltype(&g_strfreev)> owned(argv, &g_strfreev);
  return std::vector<std::string>(argv, argv + argc);
}

}  // namespace dpareto
