#pragma once
// Student-t inference on a difference of means, as DPareto's Table 2 uses it (Sec. 4: "two-sided
// confidence intervals for these differences ... t-statistic for these differences being zero").
#include <vector>

namespace dpareto {

struct MeanDifference {
  double mean = 0;                 // estimated difference
  double low = 0, high = 0;        // two-sided confidence interval at `level`
  double t = 0;                    // t statistic for a zero difference
  double degrees_of_freedom = 0;   // Welch–Satterthwaite for two samples
  double p_value = 1;              // two-sided
  double level = 0.95;
};

// The paper's statistic: `fixed` (one DPareto run, taken as deterministic) minus each of `samples`
// (the random-sampling runs), a one-sample t on the differences; n − 1 degrees of freedom.
// InputError with fewer than 2 samples or a level outside (0, 1).
MeanDifference difference_from_fixed(double fixed, const std::vector<double>& samples, double level = 0.95);

// Welch's two-sample t: mean(a) − mean(b) when both sides vary (several DPareto seeds against the
// random runs). InputError with fewer than 2 values on a side.
MeanDifference welch_difference(const std::vector<double>& a, const std::vector<double>& b, double level = 0.95);

}  // namespace dpareto
