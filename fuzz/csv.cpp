// learn::load_csv, the numeric CSV reader (a header row, then rows), with the label column
// "income" and 2 classes. Seeds: rows of the raw UCI Adult files (adult.data, adult.test), as they
// are and with their numeric columns under a header (scripts/fuzz).
#include "dpareto/learn/loaders.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = dpareto::fuzz::write_scratch("data.csv", dpareto::fuzz::input_text(data, size));
  dpareto::fuzz::parses_or_refuses([&] { dpareto::learn::load_csv(path, "income", 2); });
  return 0;
}
