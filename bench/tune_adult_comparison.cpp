// End-to-end comparison of the private tuning methods of `dpareto tune` on Adult (issue 7,
// "Experiments"): logistic regression by Poisson-sampled DP-SGD (adult-logreg-sgd, sampling=poisson),
// a fixed set of 8 DP-SGD candidates (good, mediocre and clearly bad ones, as a real tuning set
// would have), each total ε in {0.5, 1, 2, 4} at δ = 1e-5, each method run with seeds 0..R−1
// (settings.seed = run index: reproducible, so the certificates say "seeded (not for release)").
//
// Per run: the released model's test accuracy (certificate "test_utility"; when nothing is released
// — K = 0, no candidate passed a propose-test, or the final run diverged — the majority-class
// predictor's test accuracy counts), the certificate's ε and the training ε of its split.
//
// The candidate order is shuffled per run (a permutation seeded by the run index, the same for
// every method and ε): propose-test records the first candidate that passes and DP-HYPE's clients
// break loss ties towards the lower index, so a fixed order would favour whichever candidate is
// listed first. The set itself never changes.
//
// Oracle: for each candidate and ε, σ is calibrated (privacy::calibrate_sigma, Poisson accountant)
// so that one training run on all training rows is (ε, δ)-DP, and the run is repeated R times with
// different seeds; the oracle is the best candidate's mean test accuracy (tuning cost ignored).
//
// Also reported per (method, ε): the selection loss (oracle − mean oracle accuracy of the selected
// candidate at the full ε; nothing released counts as the majority-class accuracy) and the budget
// loss (the rest of the gap: the selected candidate trained with what remains of the budget after
// the tuning, on fewer rows for random-stopping / grid / subsampled variant 1).
//
// Writes OUT_CSV (the summary), and beside it <stem>_runs.csv (one row per run) and
// <stem>_oracle.csv (one row per candidate and ε).
// Run 0's certificate of every (method, ε) is kept in <dir>/certificates/ for inspection.
// Usage: bench_tune_adult_comparison [OUT_CSV] [runs] [epsilons] [workers] [threads] [data_dir] [flags]
//        (defaults: out/tune_adult/summary.csv, 10, 0.5,1,2,4, 2, 1, the problems' default data dir
//        ("" keeps it), the fixed flags below). `flags` overrides them for a sensitivity study, e.g.
//        "methods=grid,random-stopping;mu=20;score_epsilon=0.03" (keys: methods, mu, score_epsilon,
//        validation_fraction, subsample_rate, tuning_share, partitions, granularity, utility_floor,
//        clients, top_k).
// `workers` tuning runs go at once, each training with `threads` threads (the problem option); for
// this small model two single-threaded runs at once are about twice as fast as one run on 2 threads.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dpareto/core/random.hpp"
#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/problems/registry.hpp"
#include "dpareto/select/candidate_file.hpp"
#include "dpareto/select/tuning_pipeline.hpp"

using namespace dpareto;

namespace {

constexpr double kDelta = 1e-5;

// The tuning set: within adult-logreg-sgd's domains (epochs [1, 64], lot [8, 512], learning rate
// [5e-4, 5e-2], clip [0.1, 4]); noise_multiplier is calibrated by every method.
struct Candidate {
  int epochs;
  int lot_size;
  double learning_rate;
  double clip_norm;
  const char* note;
};
const std::vector<Candidate> kCandidates = {
    {16, 256, 0.05, 4.0, "bench_learn_accuracy's setting"},
    {32, 512, 0.05, 1.0, "long, large lots"},
    {4, 128, 0.02, 1.0, "short"},
    {8, 64, 0.01, 0.5, "small lr, small clip"},
    {24, 384, 0.001, 2.0, "lr too small"},
    {64, 16, 0.05, 4.0, "tiny lots, 64 epochs: very many steps, large sigma"},
    {1, 32, 0.002, 0.2, "one short epoch, tiny lr and clip"},
    {2, 512, 0.0005, 0.1, "barely moves from the initialization"},
};

struct Method {
  std::string label;
  select::TuningMethod method;
  int variant = 1;
};

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}
double std_error(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / (v.size() - 1) / v.size());
}

std::vector<double> parse_list(const std::string& text) {
  std::vector<double> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(std::stod(item));
  return out;
}

select::CandidateFile candidate_file(const std::vector<std::size_t>& order) {
  select::CandidateFile file;
  file.source = "bench_tune_adult_comparison candidates";
  file.problem = "adult-logreg-sgd";
  for (std::size_t i : order) {
    const auto& c = kCandidates[i];
    file.candidates.push_back({{"epochs", c.epochs},
                               {"lot_size", c.lot_size},
                               {"learning_rate", c.learning_rate},
                               {"clip_norm", c.clip_norm}});
  }
  return file;
}

std::vector<std::size_t> run_order(std::uint64_t run) {
  std::vector<std::size_t> order(kCandidates.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(derive_seed(20250907, run));
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double number_or(const nlohmann::json& j, double fallback) {
  return j.is_number() ? j.get<double>() : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path out_csv = argc > 1 ? argv[1] : "out/tune_adult/summary.csv";
  const int runs = argc > 2 ? std::atoi(argv[2]) : 10;
  const std::vector<double> epsilons = parse_list(argc > 3 ? argv[3] : "0.5,1,2,4");
  const int workers = std::max(1, argc > 4 ? std::atoi(argv[4]) : 2);
  const std::string threads = argc > 5 ? argv[5] : "1";
  const std::string data_dir = argc > 6 ? argv[6] : "";
  const std::string flags = argc > 7 ? argv[7] : "";
  const auto wall_start = std::chrono::steady_clock::now();

  problems::ProblemOptions options{{"sampling", "poisson"}, {"threads", threads}, {"repeats", "1"}};
  if (!data_dir.empty()) options["data_dir"] = data_dir;
  std::unique_ptr<problems::Problem> made;
  try {
    made = problems::make_problem("adult-logreg-sgd", options);
  } catch (const std::exception& e) {
    std::printf("skipped: %s\n", e.what());
    return 0;
  }
  const auto& problem = dynamic_cast<const problems::DpTrainingProblem&>(*made);
  const auto& data = problem.data();
  const int n = data.train.size();
  const double majority = data.test.label_fraction(data.train.majority_class());
  std::printf("adult-logreg-sgd, Poisson lots: %d training rows, %d test rows, majority-class test accuracy %.4f\n", n,
              data.test.size(), majority);
  std::printf("%zu candidates, %d runs, epsilons", kCandidates.size(), runs);
  for (double e : epsilons) std::printf(" %g", e);
  std::printf(", delta %g, %d workers x %s threads\n", kDelta, workers, threads.c_str());

  std::filesystem::create_directories(out_csv.has_parent_path() ? out_csv.parent_path() : ".");
  const auto cert_dir = out_csv.parent_path() / "certificates";
  std::filesystem::create_directories(cert_dir);
  const auto sibling = [&](const std::string& suffix) {
    return (out_csv.parent_path() / (out_csv.stem().string() + suffix)).string();
  };

  // ---- oracle: every candidate calibrated alone to (ε, δ) on all rows, R seeds ----
  const auto oracle_start = std::chrono::steady_clock::now();
  std::map<double, std::vector<double>> oracle_mean, oracle_se;  // [ε][candidate]
  std::map<double, double> oracle_best, oracle_best_se;
  std::map<double, std::size_t> oracle_arg;
  std::ofstream oracle_csv(sibling("_oracle.csv"));
  oracle_csv
      << "epsilon,candidate,epochs,lot_size,learning_rate,clip_norm,sigma,steps,mean_accuracy,std_error,diverged\n";
  std::printf("\noracle (each candidate alone at (eps, delta) on all %d rows, %d seeds): mean test accuracy\n", n,
              runs);
  std::printf("%-44s", "candidate");
  for (double e : epsilons) std::printf("  eps=%-12g", e);
  std::printf("\n");
  std::vector<std::vector<std::string>> oracle_cells(kCandidates.size());
  for (double eps : epsilons) {
    for (std::size_t i = 0; i < kCandidates.size(); ++i) {
      const auto& c = kCandidates[i];
      learn::TrainConfig cfg;
      cfg.optimizer = learn::Optimizer::sgd;
      cfg.sampling = privacy::Sampling::poisson;
      cfg.epochs = c.epochs;
      cfg.lot_size = c.lot_size;
      cfg.learning_rate = c.learning_rate;
      cfg.clip_norm = c.clip_norm;
      cfg.threads = problem.threads();
      const long long steps = learn::training_steps(cfg, n);
      cfg.noise_multiplier =
          privacy::calibrate_sigma(privacy::Sampling::poisson, double(cfg.lot_size) / n, steps, eps, kDelta);
      std::vector<double> acc(static_cast<std::size_t>(runs));
      std::vector<int> diverged_runs(static_cast<std::size_t>(runs), 0);
      std::vector<std::thread> pool;
      for (int w = 0; w < workers; ++w)
        pool.emplace_back([&, w] {
          for (int r = w; r < runs; r += workers) {
            const auto res = learn::train(problem.network(), data.train, cfg, derive_seed(7000 + i, std::uint64_t(r)));
            diverged_runs[std::size_t(r)] = res.diverged;
            acc[std::size_t(r)] =
                res.diverged ? majority : learn::accuracy(problem.network(), res.params, data.test, cfg.threads);
          }
        });
      for (auto& t : pool) t.join();
      const int diverged = std::accumulate(diverged_runs.begin(), diverged_runs.end(), 0);
      oracle_mean[eps].push_back(mean(acc));
      oracle_se[eps].push_back(std_error(acc));
      oracle_csv << eps << ',' << i << ',' << c.epochs << ',' << c.lot_size << ',' << c.learning_rate << ','
                 << c.clip_norm << ',' << cfg.noise_multiplier << ',' << steps << ',' << mean(acc) << ','
                 << std_error(acc) << ',' << diverged << '\n';
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.4f (s=%.2f)", mean(acc), cfg.noise_multiplier);
      oracle_cells[i].push_back(cell);
    }
    const auto& m = oracle_mean[eps];
    const std::size_t best = static_cast<std::size_t>(std::max_element(m.begin(), m.end()) - m.begin());
    oracle_arg[eps] = best;
    oracle_best[eps] = m[best];
    oracle_best_se[eps] = oracle_se[eps][best];
  }
  for (std::size_t i = 0; i < kCandidates.size(); ++i) {
    const auto& c = kCandidates[i];
    char name[96];
    std::snprintf(name, sizeof name, "%zu: ep %d, lot %d, lr %g, clip %g", i, c.epochs, c.lot_size, c.learning_rate,
                  c.clip_norm);
    std::printf("%-44s", name);
    for (const auto& cell : oracle_cells[i]) std::printf("  %-16s", cell.c_str());
    std::printf("\n");
  }
  std::printf("oracle time %.1f s\n", seconds_since(oracle_start));

  // ---- the methods ----
  // Flags fixed in advance for every ε and run (docs/tune.md, "Adult end-to-end comparison").
  select::TuningSettings base;
  base.delta = kDelta;
  base.validation_fraction = 0.2;
  // μ and the score ε_s: the library defaults (select::effective_stopping / effective_score_epsilon:
  // μ = 2.5 × candidates, ε_s = √2/(0.005 · validation rows) capped at ε/10).
  base.subsample_rate = 0.1;
  base.tuning_share = 0.25;  // the final training decides the accuracy; RDP composition makes the tuning cheap
  base.partitions = 10;
  base.granularity = 0.02;  // with u₀ = 0.5 (chance level of a binary task): 2M − 1 = 49 iterations, not 199
  base.utility_floor = 0.5;
  base.clients = 10;
  base.top_k = 1;
  std::vector<Method> methods = {
      {"random-stopping", select::TuningMethod::random_stopping},
      {"grid", select::TuningMethod::grid},
      {"subsampled-v1", select::TuningMethod::subsampled, 1},
      {"subsampled-v2", select::TuningMethod::subsampled, 2},
      {"propose-test", select::TuningMethod::propose_test},
      {"dp-hype", select::TuningMethod::dp_hype},
  };
  {
    std::stringstream ss(flags);
    std::string item;
    while (std::getline(ss, item, ';')) {
      if (item.empty()) continue;
      const auto eq = item.find('=');
      const std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
      if (key == "methods") {
        std::vector<Method> kept;
        std::stringstream names(value);
        std::string name;
        while (std::getline(names, name, ','))
          for (const auto& m : methods)
            if (m.label == name) kept.push_back(m);
        methods = kept;
      } else if (key == "mu") {
        base.stopping = select::PoissonStopping{std::stod(value)};
      } else if (key == "score_epsilon") {
        base.score_epsilon = std::stod(value);
      } else if (key == "validation_fraction") {
        base.validation_fraction = std::stod(value);
      } else if (key == "subsample_rate") {
        base.subsample_rate = std::stod(value);
      } else if (key == "tuning_share") {
        base.tuning_share = std::stod(value);
      } else if (key == "partitions") {
        base.partitions = std::stoul(value);
      } else if (key == "granularity") {
        base.granularity = std::stod(value);
      } else if (key == "utility_floor") {
        base.utility_floor = std::stod(value);
      } else if (key == "clients") {
        base.clients = std::stoul(value);
      } else if (key == "top_k") {
        base.top_k = std::stoul(value);
      } else {
        std::printf("unknown flag '%s' in '%s'\n", key.c_str(), flags.c_str());
        return 2;
      }
    }
  }
  const auto shown = [](bool set, double v) { return set ? std::to_string(v) : std::string("default"); };
  std::printf(
      "\nflags: mu %s, score_epsilon %s, validation_fraction %g, subsample_rate %g, tuning_share %g, "
      "partitions %zu, granularity %g, utility_floor %g, clients %zu, top_k %zu\n",
      shown(base.stopping.has_value(), base.stopping ? std::get<select::PoissonStopping>(*base.stopping).mu : 0)
          .c_str(),
      shown(base.score_epsilon.has_value(), base.score_epsilon.value_or(0)).c_str(), base.validation_fraction,
      base.subsample_rate, base.tuning_share, base.partitions, base.granularity, base.utility_floor, base.clients,
      base.top_k);

  std::ofstream runs_csv(sibling("_runs.csv"));
  runs_csv << "method,epsilon,run,released,selected_candidate,test_accuracy,certificate_epsilon,tuning_epsilon,"
              "training_epsilon,released_sigma,released_rows,seconds,note\n";
  struct Row {
    std::string method;
    double epsilon, mean_acc, se, gap_pp, selection_pp, budget_pp, cert_eps, train_eps, tune_eps, sigma, seconds;
    int not_released, failed;
    std::vector<int> picks;
  };
  std::vector<Row> rows;
  for (double eps : epsilons) {
    for (const auto& m : methods) {
      Row row{m.label, eps, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, std::vector<int>(kCandidates.size(), 0)};
      std::vector<double> acc, selected_oracle, cert_eps, train_eps, tune_eps, sigmas;
      const auto method_start = std::chrono::steady_clock::now();
      // The runs, `workers` at a time; each writes only its own slot.
      struct Slot {
        double accuracy = 0, seconds = 0;
        int picked = -1;
        bool failed = false;  // tune threw: the target is unreachable, or the final run diverged
        std::string note;
        nlohmann::json cert;
      };
      std::vector<Slot> slots(static_cast<std::size_t>(runs));
      const auto tune_run = [&](int r) {
        Slot& out = slots[static_cast<std::size_t>(r)];
        const auto order = run_order(std::uint64_t(r));
        const auto file = candidate_file(order);
        select::TuningSettings s = base;
        s.method = m.method;
        s.subsampled_variant = m.variant;
        s.target_epsilon = eps;
        s.seed = std::uint64_t(r);
        const auto run_start = std::chrono::steady_clock::now();
        out.accuracy = majority;
        try {
          const auto outcome = select::tune(problem, file, s);
          out.cert = outcome.certificate;
          if (outcome.weights) {
            out.accuracy = out.cert["test_utility"].get<double>();
            out.picked = static_cast<int>(order[out.cert["selected_index"].get<std::size_t>()]);
          } else {
            out.note = out.cert.value("note", std::string("nothing released"));
          }
        } catch (const std::exception& e) {
          out.failed = true;
          out.note = e.what();  // e.g. the final run diverged: nothing released
        }
        out.seconds = seconds_since(run_start);
      };
      std::vector<std::thread> pool;
      for (int w = 0; w < workers; ++w)
        pool.emplace_back([&, w] {
          for (int r = w; r < runs; r += workers) tune_run(r);
        });
      for (auto& t : pool) t.join();
      if (runs > 0 && slots[0].cert.is_object()) {
        char name[160];
        std::snprintf(name, sizeof name, "%s_eps%g_run0.json", m.label.c_str(), eps);
        std::ofstream(cert_dir / name) << slots[0].cert.dump(1) << "\n";
      }
      for (int r = 0; r < runs; ++r) {
        const Slot& slot = slots[static_cast<std::size_t>(r)];
        const double a = slot.accuracy, secs = slot.seconds;
        const int picked = slot.picked;
        const nlohmann::json& cert = slot.cert;
        std::string note = slot.note;
        row.failed += slot.failed;
        acc.push_back(a);
        if (picked >= 0) {
          ++row.picks[static_cast<std::size_t>(picked)];
          selected_oracle.push_back(oracle_mean[eps][static_cast<std::size_t>(picked)]);
        } else {
          ++row.not_released;
          selected_oracle.push_back(majority);
        }
        const double ce = cert.is_object() ? number_or(cert["epsilon"], NAN) : NAN;
        const double te = cert.is_object() ? number_or(cert["split"]["training_epsilon"], NAN) : NAN;
        const double ue = cert.is_object() ? number_or(cert["split"]["tuning_epsilon"], NAN) : NAN;
        const bool trained = cert.is_object() && cert.contains("trained_with");
        const double sg = trained ? number_or(cert["trained_with"]["noise_multiplier"], NAN) : NAN;
        const int released_rows = trained ? cert["trained_with"]["rows"].get<int>() : 0;
        if (std::isfinite(ce)) cert_eps.push_back(ce);
        if (std::isfinite(te)) train_eps.push_back(te);
        if (std::isfinite(ue)) tune_eps.push_back(ue);
        if (std::isfinite(sg)) sigmas.push_back(sg);
        std::replace(note.begin(), note.end(), ',', ';');
        std::replace(note.begin(), note.end(), '\n', ' ');
        runs_csv << m.label << ',' << eps << ',' << r << ',' << (picked >= 0) << ',' << picked << ',' << a << ',' << ce
                 << ',' << ue << ',' << te << ',' << sg << ',' << released_rows << ',' << secs << ',' << note << '\n';
        runs_csv.flush();
      }
      row.mean_acc = mean(acc);
      row.se = std_error(acc);
      row.gap_pp = 100 * (oracle_best[eps] - row.mean_acc);
      row.selection_pp = 100 * (oracle_best[eps] - mean(selected_oracle));
      row.budget_pp = row.gap_pp - row.selection_pp;
      row.cert_eps = cert_eps.empty() ? NAN : mean(cert_eps);
      row.train_eps = train_eps.empty() ? NAN : mean(train_eps);
      row.tune_eps = tune_eps.empty() ? NAN : mean(tune_eps);
      row.sigma = sigmas.empty() ? NAN : mean(sigmas);
      row.seconds = seconds_since(method_start);
      rows.push_back(row);
      std::printf(
          "eps %-4g %-16s acc %.4f +- %.4f  gap %6.2f pp (selection %5.2f, budget %5.2f)  none %d/%d "
          "(failed %d)  "
          "cert eps %.4f  tuning eps %.4f  training eps %.4f  released sigma %.3f  picks",
          eps, m.label.c_str(), row.mean_acc, row.se, row.gap_pp, row.selection_pp, row.budget_pp, row.not_released,
          runs, row.failed, row.cert_eps, row.tune_eps, row.train_eps, row.sigma);
      for (int p : row.picks) std::printf(" %d", p);
      std::printf("  (%.1f s)\n", row.seconds);
      for (const auto& slot : slots)
        if (slot.failed) {
          std::printf("         %d run(s) failed, e.g.: %s\n", row.failed, slot.note.c_str());
          break;
        }
      std::fflush(stdout);
    }
  }

  std::ofstream csv(out_csv);
  csv << "method,epsilon,mean_accuracy,std_error,gap_pp,not_released,failed,runs,selection_loss_pp,budget_loss_pp,"
         "certificate_epsilon,tuning_epsilon,training_epsilon,released_sigma,picks,seconds\n";
  std::printf("\nmethod,epsilon,mean_accuracy,std_error,gap_pp,not_released,failed\n");
  for (double eps : epsilons) {
    csv << "oracle," << eps << ',' << oracle_best[eps] << ',' << oracle_best_se[eps] << ",0,0,0," << runs << ",0,0,"
        << eps << ",0," << eps << ",,"
        << "candidate " << oracle_arg[eps] << ",\n";
    std::printf("oracle,%g,%.4f,%.4f,0.00,0,0\n", eps, oracle_best[eps], oracle_best_se[eps]);
    for (const auto& r : rows) {
      if (r.epsilon != eps) continue;
      std::string picks;
      for (std::size_t i = 0; i < r.picks.size(); ++i) picks += (i ? " " : "") + std::to_string(r.picks[i]);
      csv << r.method << ',' << eps << ',' << r.mean_acc << ',' << r.se << ',' << r.gap_pp << ',' << r.not_released
          << ',' << r.failed << ',' << runs << ',' << r.selection_pp << ',' << r.budget_pp << ',' << r.cert_eps << ','
          << r.tune_eps << ',' << r.train_eps << ',' << r.sigma << ',' << picks << ',' << r.seconds << '\n';
      std::printf("%s,%g,%.4f,%.4f,%.2f,%d,%d\n", r.method.c_str(), eps, r.mean_acc, r.se, r.gap_pp, r.not_released,
                  r.failed);
    }
  }
  std::printf("\nwrote %s, %s, %s\n", out_csv.string().c_str(), sibling("_runs.csv").c_str(),
              sibling("_oracle.csv").c_str());
  std::printf("total wall time %.1f s\n", seconds_since(wall_start));
}
