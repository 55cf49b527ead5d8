#pragma once
// RDP of tuning on a Poisson subsample X₁ (rate q) of the data (Koskela & Kulkarni 2023, Sec. 3).
// Both bounds hold at integer orders only: a fractional order in `orders` gets +inf (never
// dropped). Curves of the component mechanisms are given at every integer order:
// `*_by_order[j]` = ε(j) for j = 2 .. max (entries 0 and 1 are ignored); an order above that
// range is an InputError.
#include <vector>

namespace dpareto::privacy {

// Variant 1: tune on X₁, train the final model on X \ X₁ (their eq. 3.1), Thm 1:
// ε(α) = max{ε₁(α), ε₂(α)} of their eqs. 3.6 and 3.7.
std::vector<double> subsampled_tuning_rdp(const std::vector<double>& orders, const std::vector<double>& tune_by_order,
                                          const std::vector<double>& base_by_order, double q);

// Poisson subsampling amplification of a general RDP mechanism (add/remove neighbours), Zhu &
// Wang 2019, as stated in Koskela & Kulkarni 2023, Thm 4. Variant 2 (tune on X₁, train on X;
// their eq. 3.2) is this applied to the tuning curve plus the base curve (composition).
std::vector<double> poisson_subsampled_rdp(const std::vector<double>& orders,
                                           const std::vector<double>& mechanism_by_order, double q);

}  // namespace dpareto::privacy
