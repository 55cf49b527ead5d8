#include "dpareto/explore/report.hpp"

#include "dpareto/explore/surrogate_maps.hpp"

namespace dpareto::explore {

plot::ReportResult write_report(const std::vector<std::string>& run_dirs, plot::ReportOptions options) {
  options.surrogate_maps = [](const plot::LabelledRun& run) {
    return surrogate_maps(run, rebuild_run_model(run.data, run.directory));
  };
  return plot::write_report(run_dirs, options);
}

}  // namespace dpareto::explore
