// space::read_space_json (space.json of the external oracle, through read_json_file). A space that
// parses must survive the round trip through space_to_json.
#include "dpareto/space/space_json.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = dpareto::fuzz::write_scratch("space.json", dpareto::fuzz::input_text(data, size));
  dpareto::fuzz::parses_or_refuses([&] {
    const auto space = dpareto::space::read_space_json(path.string());
    if (dpareto::space::space_from_json(dpareto::space::space_to_json(space), "round trip").signature() !=
        space.signature())
      std::abort();
  });
  return 0;
}
