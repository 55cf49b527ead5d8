// study::read_run_directory (a run's summary.json and evaluations.csv, read by pick, report, plot
// and explore's resume), then what pick and report compute from them: the data the front was
// measured on (summary.json's settings), the front and the hypervolume.
// Input: summary.json's bytes, "#EVALUATIONS#\n", evaluations.csv's bytes.
#include "dpareto/select/candidate_file.hpp"
#include "dpareto/study/run_record.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [summary, evaluations] = dpareto::fuzz::split_at(dpareto::fuzz::input_text(data, size), "#EVALUATIONS#\n");
  dpareto::fuzz::write_scratch("summary.json", summary);
  dpareto::fuzz::write_scratch("evaluations.csv", evaluations);
  const std::string dir = dpareto::fuzz::scratch_dir().string();
  dpareto::fuzz::parses_or_refuses([&] {
    const auto run = dpareto::study::read_run_directory(dir);
    const auto settings = run.info.extra.contains("settings") ? run.info.extra["settings"] : nlohmann::json();
    dpareto::select::measured_on_from_settings(settings, dir + "/summary.json: settings");
    dpareto::study::run_front(run.records, run.info.objectives);
    dpareto::study::run_hypervolume(run.info, run.records);
  });
  return 0;
}
