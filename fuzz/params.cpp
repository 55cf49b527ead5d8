// space::Space::parse, the `name=value,...` text of `dpareto evaluate --params`, on the example
// oracle's space (experiments/example_oracle_space.json: a log-scale, an integer and a linear name).
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& space = dpareto::fuzz::example_oracle_space();
  dpareto::fuzz::parses_or_refuses([&] {
    const auto params = space.parse(std::string(dpareto::fuzz::input_text(data, size)), "--params");
    if (params.size() != space.dimension()) std::abort();
    space.contains(params);
  });
  return 0;
}
