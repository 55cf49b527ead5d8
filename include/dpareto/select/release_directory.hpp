#pragma once
// The output directory of `dpareto tune`, replaced as a whole or refused, never mixed (issues 23,
// 24): a model is never left without its certificate, nor a new certificate beside a previous
// run's model, nor a stale model.bin after a run that released nothing.
//
// The release is written into a fresh sibling DIR.tmp-XXXXXX and then swapped in with one
// renameat2(RENAME_EXCHANGE) (or a plain rename when DIR does not exist yet); the previous
// contents, now in the sibling, are removed. A crash at any point leaves either the old release or
// the new one under DIR, plus at most a stray sibling.
#include <filesystem>
#include <optional>
#include <string>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

namespace dpareto::select {

// InputError unless DIR is absent, empty, or holds only a previous release (certificate.json and
// model.bin): called before tuning, so a wrong --out costs no privacy budget.
void check_release_directory(const std::filesystem::path& dir);

// Writes certificate.json (and model.bin when `weights` is given) and swaps them in as DIR.
void write_release_directory(const std::filesystem::path& dir, const nlohmann::json& certificate,
                             const std::string& architecture, const std::optional<Eigen::VectorXf>& weights);

}  // namespace dpareto::select
