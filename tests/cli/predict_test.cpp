// dpareto predict: a model.bin from a real training run is loaded into the problem's network; the
// printed accuracy equals learn::accuracy on the same examples, the CSV has one row per example,
// and bad input is one line naming the value, exit 2, no output file.
// GCC 12 false positives inside AVX-512 intrinsics inlined from Eigen (GCC PR 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../support/test_support.hpp"
#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/learn/loaders.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/select/model_file.hpp"

namespace fs = std::filesystem;
using dpareto::test::run_cli;
using namespace dpareto;

namespace {

const test::TempRoot predict_root("dpareto_predict_test_");

std::vector<std::vector<std::string>> read_csv(const fs::path& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::stringstream s(line);
    for (std::string f; std::getline(s, f, ',');) fields.push_back(f);
    rows.push_back(fields);
  }
  return rows;
}

// A model trained by DP-SGD for one epoch on the problem's training split.
Eigen::VectorXf train_model(const problems::DpTrainingProblem& p, std::uint64_t seed) {
  learn::TrainConfig c;
  c.epochs = 1;
  c.lot_size = std::min(64, p.data().train.size());
  c.learning_rate = 0.05;
  c.noise_multiplier = 1;
  c.clip_norm = 1;
  return learn::train(p.network(), p.data().train, c, seed).params;
}

std::unique_ptr<problems::DpTrainingProblem> make_training_problem(const std::string& name,
                                                                   const problems::ProblemOptions& options) {
  auto problem = problems::make_problem(name, options);
  auto* dp = dynamic_cast<problems::DpTrainingProblem*>(problem.get());
  REQUIRE(dp != nullptr);
  problem.release();
  return std::unique_ptr<problems::DpTrainingProblem>(dp);
}

// Checks `predict ARGS --json --out CSV` against learn::accuracy on `data`.
void check_predict(const std::string& args, const learn::Network& net, const Eigen::VectorXf& w,
                   const learn::Dataset& data, const fs::path& csv, const std::vector<std::string>& score_columns) {
  CAPTURE(args);
  const auto r = run_cli("predict " + args + " --json --out " + csv.string());
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const auto j = nlohmann::json::parse(r.output);
  const double expected = learn::accuracy(net, w, data, 2);
  CHECK(j["examples"] == data.size());
  CHECK(j["correct"] == std::llround(expected * data.size()));
  CHECK(j["accuracy"].get<double>() == doctest::Approx(expected).epsilon(1e-15));
  const auto rows = read_csv(csv);
  REQUIRE(rows.size() == static_cast<std::size_t>(data.size()) + 1);  // header + one row per example
  std::vector<std::string> header{"index", "label", "predicted"};
  header.insert(header.end(), score_columns.begin(), score_columns.end());
  CHECK(rows[0] == header);
  long long correct = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    REQUIRE(rows[i].size() == header.size());
    CHECK(std::stoi(rows[i][0]) == static_cast<int>(i - 1));
    CHECK(std::stoi(rows[i][1]) == data.labels()[i - 1]);
    const int predicted = std::stoi(rows[i][2]);
    correct += predicted == data.labels()[i - 1];
    if (score_columns.size() >= 2) {  // probabilities: they sum to 1 and the largest is the class
      double sum = 0, best = -1;
      int argmax = 0;
      for (std::size_t k = 3; k < rows[i].size(); ++k) {
        const double p = std::stod(rows[i][k]);
        sum += p;
        if (p > best) {
          best = p;
          argmax = static_cast<int>(k - 3);
        }
      }
      CHECK(sum == doctest::Approx(1).epsilon(1e-5));
      if (std::abs(best - 0.5) > 1e-6) {
        CHECK(argmax == predicted);
      }
    } else {  // the SVM margin: class 1 iff > 0
      CHECK((std::stod(rows[i][3]) > 0) == (predicted == 1));
    }
  }
  CHECK(correct == j["correct"].get<long long>());
}

}  // namespace

TEST_CASE("predict: accuracy equals learn::accuracy on the test and train splits; one CSV row per example") {
  const auto dir = predict_root.dir("synthetic");
  const auto problem = make_training_problem("synthetic-logreg-sgd", {{"train_subset", "3000"}, {"threads", "2"}});
  const Eigen::VectorXf w = train_model(*problem, 5);
  select::write_model_file((dir / "model.bin").string(), {"logreg", w});
  const std::string flags =
      "--model " + (dir / "model.bin").string() + " --problem synthetic-logreg-sgd --set train_subset=3000 --threads 2";
  check_predict(flags, problem->network(), w, problem->data().test, dir / "test.csv", {"p0", "p1"});
  check_predict(flags + " --data train", problem->network(), w, problem->data().train, dir / "train.csv", {"p0", "p1"});
  // The plain-text line carries the same accuracy.
  const auto r = run_cli("predict " + flags);
  REQUIRE(r.status == 0);
  const double expected = learn::accuracy(problem->network(), w, problem->data().test, 1);
  const auto at = r.output.find("accuracy ");
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(r.output.substr(at + 9)) == doctest::Approx(expected).epsilon(1e-15));
}

TEST_CASE("predict: a user LIBSVM file for the adult problems (logistic and SVM models)") {
  const auto dir = predict_root.dir("adult");
  fs::create_directories(dir / "data" / "adult");
  dpareto::test::write_libsvm(dir / "data" / "adult" / "a9a", 400, 1);
  dpareto::test::write_libsvm(dir / "data" / "adult" / "a9a.t", 200, 2);
  dpareto::test::write_libsvm(dir / "mine.libsvm", 150, 3);
  const learn::Dataset mine = learn::load_libsvm(dir / "mine.libsvm", 123);
  for (const auto& [name, scores] : {std::pair<std::string, std::vector<std::string>>{"adult-logreg-sgd", {"p0", "p1"}},
                                     {"adult-svm-sgd", {"margin"}}}) {
    const auto problem = make_training_problem(name, {{"data_dir", (dir / "data").string()}, {"threads", "1"}});
    const Eigen::VectorXf w = train_model(*problem, 8);
    const auto model = dir / (name + ".bin");
    select::write_model_file(model.string(), {problem->network().architecture().name, w});
    const std::string flags =
        "--model " + model.string() + " --problem " + name + " --data-dir " + (dir / "data").string();
    check_predict(flags + " --data " + (dir / "mine.libsvm").string(), problem->network(), w, mine, dir / "mine.csv",
                  scores);
    check_predict(flags, problem->network(), w, problem->data().test, dir / "test.csv", scores);
  }
}

TEST_CASE("predict: an MLP model of the earlier out-major layout (DPMODEL1) predicts as its converted weights") {
  const auto dir = predict_root.dir("mnist");
  const auto problem = make_training_problem("mnist-mlp2-sgd", {{"train_subset", "1000"}, {"threads", "2"}});
  const learn::Network& net = problem->network();
  dpareto::Rng rng(17);
  const Eigen::VectorXf w = net.initial_parameters(rng);
  // Each layer's W (in × out) written as Wᵀ row-major, as dpareto wrote MLPs before DPMODEL2.
  Eigen::VectorXf out_major = w;
  Eigen::Index at = 0;
  for (auto [in, out] : {std::pair{784, 128}, {128, 64}, {64, 10}}) {
    Eigen::Map<learn::MatrixF>(out_major.data() + at, out, in) =
        Eigen::Map<const learn::MatrixF>(w.data() + at, in, out).transpose();
    at += in * out + out;
  }
  REQUIRE(at == w.size());
  const auto model = dir / "mlp2.bin";
  select::write_model_file(model.string(), {"mlp2", out_major});
  std::string bytes = dpareto::test::read_text(model);
  bytes[7] = '1';
  std::ofstream(model, std::ios::binary) << bytes;
  check_predict("--model " + model.string() + " --problem mnist-mlp2-sgd --set train_subset=1000 --threads 2", net, w,
                problem->data().test, dir / "test.csv", {"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"});
}

TEST_CASE("predict: bad input is one line naming the value, exit 2, no output file") {
  const auto dir = predict_root.dir("bad");
  const auto problem = make_training_problem("synthetic-logreg-sgd", {{"train_subset", "500"}});
  const Eigen::VectorXf w = train_model(*problem, 1);
  select::write_model_file((dir / "good.bin").string(), {"logreg", w});
  select::write_model_file((dir / "mlp.bin").string(), {"mlp2", w});
  select::write_model_file((dir / "adult.bin").string(), {"logreg", Eigen::VectorXf::Zero(124)});
  std::ofstream(dir / "junk.bin") << "NOTAMODEL";
  {  // a valid header declaring 10^9 weights, followed by 8 bytes
    std::ofstream out(dir / "huge.bin", std::ios::binary);
    out.write("DPMODEL2", 8);
    const unsigned char name[] = {6,    0,    0,    0,    'l', 'o', 'g', 'r', 'e', 'g',         // name length, name
                                  0x00, 0xCA, 0x9A, 0x3B, 1,   2,   3,   4,   5,   6,   7, 8};  // count 10^9, 8 bytes
    out.write(reinterpret_cast<const char*>(name), sizeof name);
  }
  std::ofstream(dir / "rows.libsvm") << "+1 1:1\n";
  const auto out = dir / "out.csv";
  const std::string problem_flags = " --problem synthetic-logreg-sgd --set train_subset=500 --out " + out.string();
  auto model = [&](const std::string& file) { return "--model " + (dir / file).string(); };
  const std::pair<std::string, std::string> cases[] = {
      {model("none.bin") + problem_flags, "none.bin"},
      {model("junk.bin") + problem_flags, "junk.bin: not a DPMODEL2 (or DPMODEL1) file"},
      {model("huge.bin") + problem_flags,
       "1000000000 weights, but problem synthetic-logreg-sgd's network 'logreg' has 21"},
      {model("mlp.bin") + problem_flags, "architecture 'mlp2' does not match"},
      {model("adult.bin") + problem_flags, "124 weights"},
      {model("good.bin") + problem_flags + " --data tset", "--data tset"},
      {model("good.bin") + problem_flags + " --data " + (dir / "rows.libsvm").string(), "expected test or train"},
      {model("good.bin") + " --problem svt --out " + out.string(), "--problem svt"},
      {model("good.bin") + " --problem nosuch --out " + out.string(), "nosuch"},
      {"--problem synthetic-logreg-sgd --out " + out.string(), "--model is required"},
      {model("good.bin") + " --problem synthetic-logreg-sgd --set train_subset=500 --out " +
           (dir / "no" / "x.csv").string(),
       "--out"},
  };
  for (const auto& [args, needle] : cases) {
    CAPTURE(args);
    const auto r = run_cli("predict " + args);
    CHECK(r.status == 2);
    CHECK_MESSAGE(r.output.find(needle) != std::string::npos, r.output);
    CHECK_MESSAGE(std::count(r.output.begin(), r.output.end(), '\n') == 1, r.output);
    CHECK(!fs::exists(out));
  }
  CHECK(!fs::exists(dir / "no"));
  // --help documents the data restriction.
  const auto help = run_cli("predict --help");
  CHECK(help.status == 0);
  CHECK(help.output.find("LIBSVM") != std::string::npos);
}
