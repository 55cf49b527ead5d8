#pragma once
// Internal to the select module (issue 15 item 5): what every number a `tune` certificate releases
// depends on, stated in the certificate itself as "depends_on": {key: dependence}. The categories
// (docs/tune.md, "certificate.json"): settings (flags, candidate file, problem), public sizes (row
// counts of the training data and its splits), DP outputs (covered by the certificate's ε), test
// split (the problem's test data, outside the private training rows; see --test-split).
#include <nlohmann/json.hpp>

namespace dpareto::select {

// `certificate` with "depends_on" added for each of its top-level keys. Throws Error for a key the
// table does not know: a new released value must say what it depends on.
nlohmann::json with_data_dependence(nlohmann::json certificate);

}  // namespace dpareto::select
