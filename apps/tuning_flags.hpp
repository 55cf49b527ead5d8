#pragma once
// The flags of a tuning run, shared by `dpareto tune` and `dpareto account tuning --method` (which
// prints what tune would certify for the same flags): the candidates, the method and its settings.
#include "cli_options.hpp"
#include "dpareto/select/tuning_pipeline.hpp"

namespace dpareto::apps {

void add_tuning_flags(po::options_description& options);
// The settings the flags describe; InputError naming the flag for any bad value.
select::TuningSettings tuning_settings(const po::variables_map& vm);

}  // namespace dpareto::apps
