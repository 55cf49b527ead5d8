#pragma once
// The smallest study the storage tests use: problem "toy", one parameter x, a fixed seed.
#include "dpareto/study/storage.hpp"

namespace dpareto::test {

inline study::StudyIdentity identity_of(const std::string& problem) {
  study::StudyIdentity identity;
  identity.problem = problem;
  return identity;
}

inline study::RunInfo one_parameter() {
  study::RunInfo info;
  info.problem = "toy";
  info.method = "random";
  info.seed = 3;
  info.parameter_names = {"x"};
  return info;
}

}  // namespace dpareto::test
