#include "dpareto/explore/report.hpp"

#include "dpareto/explore/robust_front.hpp"
#include "dpareto/explore/surrogate_maps.hpp"

namespace dpareto::explore {

plot::ReportResult write_report(const std::vector<std::string>& run_dirs, plot::ReportOptions options) {
  options.surrogate_maps = [](const plot::LabelledRun& run) {
    return surrogate_maps(run, rebuild_run_model(run.data, run.directory));
  };
  options.robust_run = [](const plot::LabelledRun& run, std::string& why) {
    return robust_run_of(run.data, run.directory, why);
  };
  return plot::write_report(run_dirs, options);
}

}  // namespace dpareto::explore
