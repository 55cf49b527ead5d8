// select::read_candidate_file (`dpareto tune --candidates FILE`, measured_on included), then
// candidate_params against the space of the synthetic DP-training problems, as tune checks them.
#include "dpareto/select/candidate_file.hpp"
#include "dpareto/space/space_json.hpp"
#include "fuzz_support.hpp"

namespace {

const dpareto::space::Space& training_space() {
  static const auto space = dpareto::space::space_from_json(nlohmann::json::parse(R"({"parameters": [
      {"name": "epochs", "kind": "integer", "low": 1, "high": 50},
      {"name": "lot_size", "kind": "integer", "low": 8, "high": 1024, "scale": "log"},
      {"name": "learning_rate", "kind": "continuous", "low": 0.001, "high": 1, "scale": "log"},
      {"name": "clip_norm", "kind": "continuous", "low": 0.1, "high": 10}]})"),
                                                            "fuzz space");
  return space;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = dpareto::fuzz::write_scratch("candidates.json", dpareto::fuzz::input_text(data, size));
  dpareto::fuzz::parses_or_refuses([&] {
    const auto file = dpareto::select::read_candidate_file(path.string());
    dpareto::select::candidate_params(file, training_space());
  });
  return 0;
}
