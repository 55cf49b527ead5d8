#pragma once
// Acquisitions by name. Each acquisition's file registers itself with one AcquisitionRegistration,
// so adding one never edits a shared file: `--acquisition NAME`, its help and its error list it.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dpareto/bo/acquisition.hpp"

namespace dpareto::bo {

inline constexpr const char* kDefaultAcquisition = "hvpoi";

struct AcquisitionRegistration {
  AcquisitionRegistration(const std::string& name, std::function<std::unique_ptr<Acquisition>()> make);
};

bool acquisition_exists(const std::string& name);
// InputError naming the known acquisitions for an unknown name.
std::unique_ptr<Acquisition> make_acquisition(const std::string& name);
// The registered names, the default first, then alphabetically.
std::vector<std::string> acquisition_names();
// acquisition_names() as text: ("hvpoi", "ehvi") with (", ", " or ") -> "hvpoi or ehvi".
std::string acquisition_choices(const std::string& separator, const std::string& last_separator);

}  // namespace dpareto::bo
