#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

// Every test binary keeps the privacy ledgers of the `tune` runs it starts in a folder of its own
// (never the user's ~/.local/share/dpareto/ledgers), removed at exit.
int main(int argc, char** argv) {
  const auto ledgers = std::filesystem::temp_directory_path() / ("dpareto_test_ledgers_" + std::to_string(::getpid()));
  ::setenv("DPARETO_LEDGER_DIR", ledgers.c_str(), 1);
  doctest::Context context(argc, argv);
  const int status = context.run();
  std::filesystem::remove_all(ledgers);
  return status;
}
