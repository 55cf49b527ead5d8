#pragma once
// `dpareto report`: plot::write_report with the surrogate figures of DPareto runs, whose maps come
// from each run's rebuilt surrogates (explore::surrogate_maps).
#include <string>
#include <vector>

#include "dpareto/plot/report.hpp"

namespace dpareto::explore {

plot::ReportResult write_report(const std::vector<std::string>& run_dirs, plot::ReportOptions options);

}  // namespace dpareto::explore
