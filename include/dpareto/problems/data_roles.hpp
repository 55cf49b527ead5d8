#pragma once
// The roles of a DP-training problem's data (issue 17): which of its training rows it uses — all of
// them, a public stand-in (the proxy split) or the private rest — and what the user declared them
// to be. Options: split=all|proxy|private (default all), proxy_fraction=F (default 0.5, the share
// of rows in the proxy split), data_role=private|public (default private; split=all only: declares
// the whole training data, e.g. a separate public file given by data_dir, public).
//
// The proxy split assigns row i by a fixed hash of its index alone (never of its content), so it is
// data-independent, the same on every machine, and proxy and private never share a row. The
// exploration trains on the problem's training rows and measures utility on its test split;
// `tune` selects and trains on the training rows and reports test accuracy on the test split.
#include <string>
#include <vector>

#include "dpareto/problems/registry.hpp"

namespace dpareto::problems {

enum class TrainingSplit { all, proxy, private_rows };

struct DataRoles {
  TrainingSplit split = TrainingSplit::all;
  double proxy_fraction = 0.5;
  bool declared_public = false;  // data_role=public

  // "public" (the proxy split, or declared public) or "private".
  const char* training_role() const;
};

// From the problem options above; InputError naming the option for a bad or contradictory value.
DataRoles parse_data_roles(const ProblemOptions& options, const std::string& problem);

// "all" / "proxy" / "private".
const char* to_string(TrainingSplit split);

// The rows of an n-row training set that `roles` keeps, ascending.
std::vector<int> kept_rows(int n, const DataRoles& roles);

}  // namespace dpareto::problems
