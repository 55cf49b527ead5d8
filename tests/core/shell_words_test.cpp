// core/shell_words (GLib's g_shell_parse_argv): /bin/sh quoting, and nothing expanded or run.
#include <doctest/doctest.h>

#include <filesystem>

#include "dpareto/core/error.hpp"
#include "dpareto/core/shell_words.hpp"

using namespace dpareto;
using Words = std::vector<std::string>;

TEST_CASE("words split as the shell quotes them") {
  CHECK(shell_words("python3 train.py --lr {lr}", "t") == Words{"python3", "train.py", "--lr", "{lr}"});
  CHECK(shell_words("  a \t \"b c\"  d\\ e  ", "t") == Words{"a", "b c", "d e"});
  CHECK(shell_words(R"(x "a\"b" 'c\d' '')", "t") == Words{"x", "a\"b", "c\\d", ""});
  CHECK(shell_words("a'b'\"c\"d", "t") == Words{"abcd"});
  CHECK(shell_words("train.py --seed {seed} # a note", "t") == Words{"train.py", "--seed", "{seed}"});
}

TEST_CASE("nothing is expanded and nothing runs: variables, tilde, globs, operators, command substitution") {
  const auto marker = std::filesystem::temp_directory_path() / "dpareto_shell_words_marker";
  std::filesystem::remove(marker);
  const std::string line = "echo $HOME ~ *.cpp a;b a|b $(touch " + marker.string() + ") `touch " + marker.string() + "`";
  CHECK(shell_words(line, "t") == Words{"echo", "$HOME", "~", "*.cpp", "a;b", "a|b", "$(touch", marker.string() + ")",
                                        "`touch", marker.string() + "`"});
  CHECK_FALSE(std::filesystem::exists(marker));
}

TEST_CASE("mismatched quotes and empty lines are one-line errors naming the source") {
  CHECK_THROWS_WITH_AS(shell_words("python3 'train.py", "--oracle-cmd"),
                       "--oracle-cmd: mismatched quotes in 'python3 'train.py'", InputError);
  CHECK_THROWS_WITH_AS(shell_words("a \"b", "--oracle-cmd"), doctest::Contains("mismatched quotes"), InputError);
  for (const char* empty : {"", "   ", "# only a comment"})
    CHECK_THROWS_WITH_AS(shell_words(empty, "--oracle-cmd"), "--oracle-cmd: the command is empty", InputError);
  CHECK_THROWS_WITH_AS(shell_words(std::string("a\0b", 3), "--oracle-cmd"), doctest::Contains("NUL"), InputError);
}
