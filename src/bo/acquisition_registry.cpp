#include "dpareto/bo/acquisition_registry.hpp"

#include <map>

#include "dpareto/core/did_you_mean.hpp"
#include "dpareto/core/error.hpp"

namespace dpareto::bo {
namespace {

std::map<std::string, std::function<std::unique_ptr<Acquisition>()>>& table() {
  static std::map<std::string, std::function<std::unique_ptr<Acquisition>()>> acquisitions;
  return acquisitions;
}

}  // namespace

AcquisitionRegistration::AcquisitionRegistration(const std::string& name,
                                                 std::function<std::unique_ptr<Acquisition>()> make) {
  table()[name] = std::move(make);
}

bool acquisition_exists(const std::string& name) {
  return table().count(name) > 0;
}

std::unique_ptr<Acquisition> make_acquisition(const std::string& name) {
  const auto it = table().find(name);
  if (it == table().end())
    throw InputError("unknown acquisition '" + name + "'" + did_you_mean(name, acquisition_names()) +
                     " (known: " + acquisition_choices(", ", ", ") + ")");
  return it->second();
}

std::vector<std::string> acquisition_names() {
  std::vector<std::string> names;
  if (acquisition_exists(kDefaultAcquisition)) names.push_back(kDefaultAcquisition);
  for (const auto& [name, make] : table())
    if (name != kDefaultAcquisition) names.push_back(name);
  return names;
}

std::string acquisition_choices(const std::string& separator, const std::string& last_separator) {
  const auto names = acquisition_names();
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? last_separator : separator) + names[i];
  return text;
}

}  // namespace dpareto::bo
