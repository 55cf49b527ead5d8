#pragma once
// --accountant rdp|pld, shared by account dpsgd, calibrate and tune. Without the flag the
// accountant is privacy::kDefaultAccountant, except that --orders or --conversion (RDP notions)
// select RDP.
#include <string>

#include "cli_options.hpp"
#include "dpareto/privacy/accountant.hpp"

namespace dpareto::apps {

inline void add_accountant_flag(po::options_description& options) {
  options.add_options()("accountant", po::value<std::string>(),
                        "pld (privacy-loss distribution: tight, with an [optimistic, pessimistic] bracket; the "
                        "default) or rdp (the default when --orders or --conversion is given)");
}

inline privacy::AccountantKind accountant_from(const po::variables_map& vm) {
  if (vm.count("accountant")) return privacy::parse_accountant(vm["accountant"].as<std::string>(), "--accountant");
  const bool rdp_flags = vm.count("orders") > 0 || (vm.count("conversion") > 0 && !vm["conversion"].defaulted());
  return rdp_flags ? privacy::AccountantKind::rdp : privacy::kDefaultAccountant;
}

}  // namespace dpareto::apps
