#pragma once
// Fronts that survive noise (issue 13 item 3). A run's utilities are means of R noisy repeats and
// its observed front keeps the luckiest of them, so it is optimistic: on SVT at R = 50 its
// hypervolume sits above the same settings re-scored at R = 2000 (bench_svt_sample_efficiency
// prints both). The robust utility of an evaluated setting is the utility GP's posterior median
// there (the inverse transform of the latent mean: sigmoid of the logit), which pools the nearby
// evaluations and leaves out the noise the GP learned; the robust front is the non-dominated set
// of the evaluated settings under (ε, robust utility, further objectives as observed).
#include <optional>
#include <string>

#include "dpareto/explore/run_model.hpp"
#include "dpareto/study/run_record.hpp"

namespace dpareto::explore {

// The run with every ok record's utility replaced by its robust utility (utility_min and
// utility_max, the observed worst and best repeats, are kept): its run_front and run_hypervolume
// are the robust front and its hypervolume; `model` is the run's rebuilt model.
study::RunData robust_run(const RunModel& model, const study::RunData& run);

// Why the run gets no robust front by default, or "" when it does: its model fits a GP on every
// evaluation (O(n³) per likelihood step), so runs of more than bo::Explorer::kMaxGpObservations
// evaluations (a long random or grid run, `dpareto exact`) are left to the observed front.
std::string robust_front_unavailable(const study::RunData& run);

// robust_run of the run read from `directory`, its model rebuilt (rebuild_run_model, the oracle
// command not trusted: nothing runs); nullopt with `why` set where robust_front_unavailable says so
// or the model cannot be rebuilt (say, fewer than 2 ok evaluations).
std::optional<study::RunData> robust_run_of(const study::RunData& run, const std::string& directory, std::string& why);

}  // namespace dpareto::explore
