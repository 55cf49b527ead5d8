// learn::load_libsvm on a file with the Adult problems' 123 features (a9a).
#include "dpareto/learn/loaders.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = dpareto::fuzz::write_scratch("data.libsvm", dpareto::fuzz::input_text(data, size));
  dpareto::fuzz::parses_or_refuses([&] { dpareto::learn::load_libsvm(path, 123); });
  return 0;
}
