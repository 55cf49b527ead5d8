#include "tuning_flags.hpp"

#include <optional>
#include <string>

#include "dpareto/core/error.hpp"

namespace dpareto::apps {
namespace {

std::optional<select::StoppingRule> stopping_rule(const po::variables_map& vm) {
  const std::string distribution = vm["distribution"].as<std::string>();
  if (distribution == "poisson") {
    if (!vm.count("mu")) return std::nullopt;  // the default μ
    return select::PoissonStopping{vm["mu"].as<double>()};
  }
  if (distribution == "tnb") {
    if (!vm.count("eta") || !vm.count("gamma")) throw InputError("--distribution tnb needs --eta and --gamma");
    return select::TruncatedNegativeBinomialStopping{vm["eta"].as<double>(), vm["gamma"].as<double>()};
  }
  throw InputError("--distribution '" + distribution + "' is not poisson or tnb");
}

}  // namespace

void add_tuning_flags(po::options_description& options) {
  options.add_options()("candidates", po::value<std::string>()->required(),
                        "candidate file (JSON, see docs/select.md)")(
      "method", po::value<std::string>()->required(), "random-stopping, grid, subsampled, propose-test or dp-hype")(
      "target-epsilon", po::value<double>()->required(), "epsilon of the whole procedure (tuning + training), > 0")(
      "delta", po::value<double>()->required(), "delta in (0, 1)")(
      "validation-fraction", po::value<double>()->default_value(0.2, "0.2"),
      "share of the rows a run trains on held out to score it")(
      "conversion", po::value<std::string>()->default_value("improved"), "RDP -> (eps, delta): improved or classic")(
      "test-split", po::value<std::string>()->default_value("public"),
      "public: report the released model's test accuracy; private: the test split is private, nothing from it is "
      "released")(
      "release-test-utility", po::bool_switch(),
      "with --test-split private: release the test accuracy anyway, named in the certificate as unaccounted")(
      "accountant", po::value<std::string>()->default_value(privacy::to_string(privacy::kDefaultAccountant)),
      "propose-test, dp-hype: the final training's accountant, pld or rdp (random stopping is accounted in RDP)")(
      "candidates-from-private-front", po::bool_switch(),
      "accept candidates picked from a front measured on the same private rows (the certificate says the choice is not "
      "covered)");
  po::options_description stopping("random-stopping, grid, subsampled");
  stopping.add_options()("distribution", po::value<std::string>()->default_value("poisson"),
                         "law of the number of runs K: poisson or tnb")(
      "mu", po::value<double>(), "poisson: mean of K, >= 1 (default 2.5 x candidates)")(
      "eta", po::value<double>(), "tnb: eta > -1 (1: geometric, 0: logarithmic)")("gamma", po::value<double>(),
                                                                                  "tnb: gamma in (0, 1)")(
      "score-epsilon", po::value<double>(),
      "epsilon of each run's noisy validation score (discrete Laplace; default: "
      "noise std 0.5 pp of accuracy, sqrt(2)/(0.005 rows), at most target/10)")(
      "subsample-rate", po::value<double>()->default_value(0.1, "0.1"),
      "subsampled: Poisson rate q of the tuning subsample X1")(
      "variant", po::value<int>()->default_value(1), "subsampled: 1 = final training on X minus X1, 2 = on X");
  po::options_description retrain("propose-test, dp-hype");
  retrain.add_options()("tuning-share", po::value<double>()->default_value(0.5),
                        "share of the target epsilon for the tuning alone, in (0, 1)")(
      "partitions", po::value<int>()->default_value(10),
      "propose-test: k partitions for subsample-and-aggregate, >= 2")(
      "granularity", po::value<double>()->default_value(0.01), "propose-test: g in (0, 1)")(
      "utility-floor", po::value<double>()->default_value(0.0), "propose-test: u0 in [0, 1)")(
      "clients", po::value<int>()->default_value(10), "dp-hype: number of clients, >= 2 and <= training rows")(
      "top-k", po::value<int>()->default_value(1), "dp-hype: votes per client, <= candidates")(
      "client-split", po::value<std::string>()->default_value("iid"), "dp-hype: iid or label-skew")(
      "label-skew", po::value<double>()->default_value(0.8, "0.8"),
      "dp-hype label-skew: share of rows sent to their label's clients");
  options.add(stopping).add(retrain);
}

select::TuningSettings tuning_settings(const po::variables_map& vm) {
  select::TuningSettings s;
  s.method = select::parse_tuning_method(vm["method"].as<std::string>(), "--method");
  s.target_epsilon = vm["target-epsilon"].as<double>();
  s.delta = vm["delta"].as<double>();
  s.conversion = privacy::parse_conversion(vm["conversion"].as<std::string>(), "--conversion");
  if (vm.count("seed")) s.seed = vm["seed"].as<std::uint64_t>();
  s.validation_fraction = vm["validation-fraction"].as<double>();
  if (vm.count("score-epsilon")) s.score_epsilon = vm["score-epsilon"].as<double>();
  s.stopping = stopping_rule(vm);
  s.subsample_rate = vm["subsample-rate"].as<double>();
  s.subsampled_variant = vm["variant"].as<int>();
  s.tuning_share = vm["tuning-share"].as<double>();
  s.granularity = vm["granularity"].as<double>();
  s.utility_floor = vm["utility-floor"].as<double>();
  s.label_skew = vm["label-skew"].as<double>();
  const auto count = [&](const char* flag) {
    const int v = vm[flag].as<int>();
    if (v < 1) throw InputError(std::string("--") + flag + " " + std::to_string(v) + " must be >= 1");
    return static_cast<std::size_t>(v);
  };
  s.partitions = count("partitions");
  s.clients = count("clients");
  s.top_k = count("top-k");
  const std::string split = vm["client-split"].as<std::string>();
  if (split == "iid")
    s.client_split = select::ClientSplit::iid;
  else if (split == "label-skew")
    s.client_split = select::ClientSplit::label_skew;
  else
    throw InputError("--client-split '" + split + "' is not iid or label-skew");
  const std::string test_split = vm["test-split"].as<std::string>();
  if (test_split != "public" && test_split != "private")
    throw InputError("--test-split '" + test_split + "' is not public or private");
  s.test_split_public = test_split == "public";
  s.release_test_utility = vm["release-test-utility"].as<bool>();
  if (s.release_test_utility && s.test_split_public)
    throw InputError(
        "--release-test-utility needs --test-split private (a public test split's accuracy is released anyway)");
  s.candidates_from_private_front = vm["candidates-from-private-front"].as<bool>();
  s.accountant = privacy::parse_accountant(vm["accountant"].as<std::string>(), "--accountant");
  select::check_tuning_settings(s);
  return s;
}

}  // namespace dpareto::apps
