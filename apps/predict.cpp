// dpareto predict: load a released model (model.bin from `dpareto tune`), rebuild the problem's
// network, print its accuracy on a split (or a user LIBSVM file for the Adult problems), and
// optionally write one CSV row per example.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "command.hpp"
#include "dpareto/core/atomic_file.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/learn/prediction.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/select/model_file.hpp"
#include "problem_flags.hpp"

namespace dpareto::apps {
namespace {

namespace fs = std::filesystem;

// The examples to predict: a split of the problem, or a LIBSVM file for the Adult problems.
learn::Dataset load_examples(const problems::DpTrainingProblem& problem, const std::string& data) {
  if (data == "test") return problem.data().test;
  if (data == "train") return problem.data().train;
  if (problem.data_source() != problems::DataSource::adult)
    throw InputError("--data " + data + ": expected test or train (problem " + problem.name() +
                     " reads no data file; LIBSVM files are accepted for the adult problems)");
  if (!fs::is_regular_file(data))
    throw InputError("--data " + data + ": no such file (expected test, train or a LIBSVM file)");
  return learn::load_libsvm(data, problem.network().architecture().inputs);
}

// index,label,predicted,<scores>; written whole and renamed into place, so no partial file remains.
void write_csv(const std::string& path, const learn::Dataset& data, const learn::Predictions& p) {
  std::ostringstream out;
  out << "index,label,predicted";
  for (const auto& name : p.score_names) out << "," << name;
  out << "\n";
  char number[32];
  for (int i = 0; i < data.size(); ++i) {
    out << i << "," << data.labels()[static_cast<std::size_t>(i)] << "," << p.classes[static_cast<std::size_t>(i)];
    for (Eigen::Index k = 0; k < p.scores.cols(); ++k) {
      std::snprintf(number, sizeof number, "%.9g", static_cast<double>(p.scores(i, k)));  // float round trip
      out << "," << number;
    }
    out << "\n";
  }
  try {
    write_file_atomically(path, out.str());
  } catch (const InputError& e) {
    throw InputError("--out " + path + ": " + e.what());
  }
}

int run_predict(int argc, char** argv) {
  po::options_description options("predict options");
  options.add_options()("model", po::value<std::string>(), "model file written by dpareto tune (DIR/model.bin)");
  add_problem_flags(options);
  options.add_options()(
      "data", po::value<std::string>()->default_value("test"),
      "test | train (the problem's splits), or FILE: a LIBSVM file, for the adult-* problems only (123 features, "
      "labels -1/0 and +1/1); the MNIST and synthetic problems take test or train")(
      "out", po::value<std::string>(), "write index,label,predicted and the class scores per example to this CSV")(
      "json", po::bool_switch(), "print one JSON object");
  const auto parsed = parse_command_line(
      "dpareto predict --model DIR/model.bin --problem NAME [--set k=v ...] [--data test|train|FILE] [--out FILE]",
      "dpareto predict --model tuned/model.bin --problem synthetic-logreg-sgd --set split=private", options, argc,
      argv);
  if (!parsed) return 0;
  const auto& vm = *parsed;
  if (!vm.count("model")) throw InputError("--model is required (the model.bin written by dpareto tune)");
  const std::string model_path = vm["model"].as<std::string>();
  const auto problem = make_problem_from(vm);
  const auto* dp = dynamic_cast<const problems::DpTrainingProblem*>(problem.get());
  if (!dp)
    throw InputError("--problem " + problem->name() +
                     ": no trained network to load (predict takes the DP-training problems)");
  const learn::Network& net = dp->network();
  const select::ModelExpectation expected{net.architecture().name, net.num_parameters(),
                                          "problem " + dp->name() + "'s network"};
  select::ModelFile model;
  try {
    model = select::read_model_file(model_path, &expected);
  } catch (const InputError& e) {
    throw InputError(std::string("--model ") + e.what());
  }
  if (model.out_major_weights) model.weights = net.from_out_major_weights(model.weights);
  const std::string data_name = vm["data"].as<std::string>();
  const learn::Dataset data = load_examples(*dp, data_name);
  if (data.size() == 0) throw InputError("--data " + data_name + ": no examples");
  const learn::Predictions p = learn::predict(net, model.weights, data, dp->threads());
  const double accuracy = static_cast<double>(p.correct) / data.size();
  if (vm.count("out")) write_csv(vm["out"].as<std::string>(), data, p);
  if (vm["json"].as<bool>()) {
    nlohmann::json j = {{"accuracy", json_number(accuracy)},
                        {"correct", p.correct},
                        {"examples", data.size()},
                        {"data", data_name},
                        {"model", model_path},
                        {"architecture", model.architecture}};
    if (vm.count("out")) j["out"] = vm["out"].as<std::string>();
    std::cout << j.dump() << "\n";
  } else {
    std::cout << dp->name() << " model " << model_path << " on " << data_name << ": accuracy "
              << readable_number(accuracy) << " (" << p.correct << " of " << data.size() << " correct)"
              << (vm.count("out") ? ", predictions in " + vm["out"].as<std::string>() : "") << "\n";
  }
  return 0;
}

const CommandRegistration predict_registration("predict", "accuracy and per-example predictions of a model.bin",
                                               run_predict);

}  // namespace
}  // namespace dpareto::apps
