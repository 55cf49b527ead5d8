// select::read_model_file (model.bin of `dpareto tune`), alone and against an expectation (what
// `dpareto predict` compares with the problem's network).
#include "dpareto/select/model_file.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = dpareto::fuzz::write_scratch("model.bin", dpareto::fuzz::input_text(data, size)).string();
  dpareto::fuzz::parses_or_refuses([&] { dpareto::select::read_model_file(path); });
  const dpareto::select::ModelExpectation expected{"logreg", 21, "problem synthetic-logreg-sgd's network"};
  dpareto::fuzz::parses_or_refuses([&] { dpareto::select::read_model_file(path, &expected); });
  return 0;
}
