#include "certificate_dependence.hpp"

#include <map>
#include <string>

#include "dpareto/core/error.hpp"

namespace dpareto::select {
namespace {

constexpr const char* kSettings = "settings";
constexpr const char* kSizes = "public sizes";
constexpr const char* kSettingsSizes = "settings, public sizes";
constexpr const char* kDp = "DP outputs";

// The same table as docs/tune.md's "depends on" column (tests/select/tune_outputs_test.cpp
// compares the two).
const std::map<std::string, const char*>& dependence_table() {
  static const std::map<std::string, const char*> table = {{"method", kSettings},
                                                           {"problem", kSettings},
                                                           {"candidates", kSettings},
                                                           {"candidate_file", kSettings},
                                                           {"training_rows", kSizes},
                                                           {"sampling", kSettings},
                                                           {"epsilon", kSettingsSizes},
                                                           {"delta", kSettingsSizes},
                                                           {"order", kSettingsSizes},
                                                           {"conversion", kSettingsSizes},
                                                           {"target_epsilon", kSettings},
                                                           {"randomness", kSettings},
                                                           {"randomness_note", kSettings},
                                                           {"test_split", kSettings},
                                                           {"candidates_source", kSettings},
                                                           {"covers", kSettings},
                                                           {"accountant", kSettings},
                                                           {"accountant_note", kSettings},
                                                           {"candidates_measured_on", kSettings},
                                                           {"data_roles", kSettingsSizes},
                                                           {"assumptions", kSettings},
                                                           {"depends_on", kSettings},
                                                           {"selected", kDp},
                                                           {"selected_index", kDp},
                                                           {"trained_with", "DP outputs, settings, public sizes"},
                                                           {"validation_utility", kDp},
                                                           {"validation_utility_note", kSettings},
                                                           {"test_utility", "DP outputs, test split"},
                                                           {"test_utility_note", kSettings},
                                                           {"note", kDp},
                                                           {"components", kSettingsSizes},
                                                           {"split", kSettingsSizes},
                                                           {"stopping", kSettings},
                                                           {"noise_multiplier", kSettingsSizes},
                                                           {"calibration", kSettingsSizes},
                                                           {"validation", kSettingsSizes},
                                                           {"variant", kSettings},
                                                           {"subsample_rate", kSettings},
                                                           {"rows", kSizes},
                                                           {"epsilon0", kSettings},
                                                           {"iteration_bound", kSettings},
                                                           {"partitions", kSettings},
                                                           {"granularity", kSettings},
                                                           {"utility_floor", kSettings},
                                                           {"candidate_order", "settings (random)"},
                                                           {"iterations", kDp},
                                                           {"utility_reached", kDp},
                                                           {"clients", kSettings},
                                                           {"client_split", kSettings},
                                                           {"label_skew", kSettings},
                                                           {"top_k", kSettings},
                                                           {"vote_sigma", kSettings},
                                                           {"noisy_votes", kDp}};
  return table;
}

}  // namespace

nlohmann::json with_data_dependence(nlohmann::json certificate) {
  const auto& table = dependence_table();
  nlohmann::json depends_on = nlohmann::json::object();
  certificate["depends_on"] = nullptr;  // listed too
  for (const auto& [key, value] : certificate.items()) {
    const auto it = table.find(key);
    if (it == table.end()) throw Error("tune certificate: key '" + key + "' has no stated data dependence");
    depends_on[key] = it->second;
  }
  certificate["depends_on"] = depends_on;
  return certificate;
}

}  // namespace dpareto::select
