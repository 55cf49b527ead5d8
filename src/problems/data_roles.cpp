#include "dpareto/problems/data_roles.hpp"

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/random.hpp"

namespace dpareto::problems {
namespace {

// A fixed stream of derive_seed: row i is in the proxy split iff its 64-bit hash, read as a
// fraction of 2^64, is below proxy_fraction.
constexpr std::uint64_t kProxySalt = 0x70726f7879ULL;  // "proxy"

bool in_proxy(int row, double fraction) {
  const std::uint64_t h = derive_seed(kProxySalt, static_cast<std::uint64_t>(row));
  return static_cast<double>(h >> 11) * 0x1.0p-53 < fraction;
}

}  // namespace

const char* DataRoles::training_role() const {
  return split == TrainingSplit::proxy || declared_public ? "public" : "private";
}

const char* to_string(TrainingSplit split) {
  switch (split) {
    case TrainingSplit::all:
      return "all";
    case TrainingSplit::proxy:
      return "proxy";
    case TrainingSplit::private_rows:
      return "private";
  }
  return "?";
}

DataRoles parse_data_roles(const ProblemOptions& options, const std::string& problem) {
  DataRoles roles;
  const std::string split = option_string(options, "split", "all");
  if (split == "all")
    roles.split = TrainingSplit::all;
  else if (split == "proxy")
    roles.split = TrainingSplit::proxy;
  else if (split == "private")
    roles.split = TrainingSplit::private_rows;
  else
    throw InputError(problem + ": option split=" + split + ": expected all, proxy or private");
  roles.proxy_fraction = option_double(options, "proxy_fraction", 0.5);
  if (!(roles.proxy_fraction > 0 && roles.proxy_fraction < 1))
    throw InputError(problem + ": option proxy_fraction=" + format_number(roles.proxy_fraction) +
                     ": expected in (0, 1)");
  if (roles.split == TrainingSplit::all && options.count("proxy_fraction"))
    throw InputError(problem + ": option proxy_fraction needs split=proxy or split=private");
  const std::string role = option_string(options, "data_role", "private");
  if (role != "private" && role != "public")
    throw InputError(problem + ": option data_role=" + role + ": expected private or public");
  if (role == "public" && roles.split != TrainingSplit::all)
    throw InputError(problem +
                     ": option data_role=public needs split=all (the proxy split is public by definition, "
                     "the private split is not)");
  roles.declared_public = role == "public";
  return roles;
}

std::vector<int> kept_rows(int n, const DataRoles& roles) {
  std::vector<int> rows;
  for (int i = 0; i < n; ++i) {
    const bool keep =
        roles.split == TrainingSplit::all || (roles.split == TrainingSplit::proxy) == in_proxy(i, roles.proxy_fraction);
    if (keep) rows.push_back(i);
  }
  return rows;
}

}  // namespace dpareto::problems
