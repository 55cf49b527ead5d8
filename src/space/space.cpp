#include "dpareto/space/space.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

#include "dpareto/core/did_you_mean.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::space {
namespace {

double scaled(const Parameter& p, double v) {
  return p.scale == Scale::log ? std::log(v) : v;
}
double unscaled(const Parameter& p, double v) {
  return p.scale == Scale::log ? std::exp(v) : v;
}

double snap_value(const Parameter& p, double v) {
  if (p.kind == Kind::integer) v = std::round(v);
  return std::clamp(v, p.low, p.high);
}

}  // namespace

Space::Space(std::vector<Parameter> parameters) : parameters_(std::move(parameters)) {
  std::set<std::string> seen;
  for (const auto& p : parameters_) {
    const std::string where = "parameter '" + p.name + "'";
    if (p.name.empty()) throw InputError("space: a parameter has an empty name");
    // Names become CSV columns, placeholders and file keys: letters, digits, '_', '-', '.' only.
    for (char c : p.name)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'))
        throw InputError("space: parameter name '" + printable(p.name) +
                         "' may hold only letters, digits, '_', '-' and '.'");
    if (!seen.insert(p.name).second) throw InputError("space: duplicate " + where);
    if (!std::isfinite(p.low) || !std::isfinite(p.high))
      throw InputError("space: " + where + " has non-finite bounds [" + format_number(p.low) + ", " +
                       format_number(p.high) + "]");
    if (!(p.low < p.high))
      throw InputError("space: " + where + " has empty or inverted bounds [" + format_number(p.low) + ", " +
                       format_number(p.high) + "]");
    if (p.scale == Scale::log && p.low <= 0)
      throw InputError("space: " + where + " is log-scale but its lower bound " + format_number(p.low) +
                       " is not positive");
    if (p.kind == Kind::integer && (p.low != std::round(p.low) || p.high != std::round(p.high)))
      throw InputError("space: integer " + where + " has non-integer bounds");
    constexpr double kMaxInteger = 9007199254740992.0;  // 2^53: every integer below is a double
    if (p.kind == Kind::integer && (std::abs(p.low) > kMaxInteger || std::abs(p.high) > kMaxInteger))
      throw InputError("space: integer " + where + " has bounds [" + format_number(p.low) + ", " +
                       format_number(p.high) + "] beyond +-2^53 (9.0e15)");
  }
}

std::size_t Space::index_of(const std::string& name) const {
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    if (parameters_[i].name == name) return i;
  std::string known;
  std::vector<std::string> names;
  for (const auto& p : parameters_) {
    known += (known.empty() ? "" : ", ") + p.name;
    names.push_back(p.name);
  }
  throw InputError("unknown parameter '" + printable(name) + "'" + did_you_mean(name, names) + " (known: " + known +
                   ")");
}

std::vector<double> Space::to_unit(const Params& params) const {
  std::vector<double> u(dimension());
  for (std::size_t i = 0; i < dimension(); ++i) {
    const auto& p = parameters_[i];
    const double lo = scaled(p, p.low), hi = scaled(p, p.high);
    u[i] = (scaled(p, params.at(i)) - lo) / (hi - lo);
  }
  return u;
}

Params Space::from_unit(const std::vector<double>& unit) const {
  Params v(dimension());
  for (std::size_t i = 0; i < dimension(); ++i) {
    const auto& p = parameters_[i];
    const double lo = scaled(p, p.low), hi = scaled(p, p.high);
    v[i] = snap_value(p, unscaled(p, lo + std::clamp(unit.at(i), 0.0, 1.0) * (hi - lo)));
  }
  return v;
}

Params Space::snap(const Params& params) const {
  Params v(params);
  for (std::size_t i = 0; i < dimension(); ++i) v[i] = snap_value(parameters_[i], v.at(i));
  return v;
}

bool Space::contains(const Params& params) const {
  if (params.size() != dimension()) return false;
  for (std::size_t i = 0; i < dimension(); ++i) {
    const auto& p = parameters_[i];
    if (!(params[i] >= p.low && params[i] <= p.high)) return false;
    if (p.kind == Kind::integer && params[i] != std::round(params[i])) return false;
  }
  return true;
}

Params Space::sample_uniform(Rng& rng) const {
  Params v(dimension());
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (std::size_t i = 0; i < dimension(); ++i) {
    const auto& p = parameters_[i];
    if (p.kind == Kind::integer && p.scale == Scale::linear) {
      v[i] =
          static_cast<double>(std::uniform_int_distribution<long long>(std::llround(p.low), std::llround(p.high))(rng));
    } else {
      const double lo = scaled(p, p.low), hi = scaled(p, p.high);
      v[i] = snap_value(p, unscaled(p, lo + unit(rng) * (hi - lo)));
    }
  }
  return v;
}

Params Space::sample_prior(Rng& rng) const {
  Params v = sample_uniform(rng);
  for (std::size_t i = 0; i < dimension(); ++i)
    if (parameters_[i].prior) v[i] = snap_value(parameters_[i], parameters_[i].prior->sample(rng));
  return v;
}

std::vector<double> Space::grid_axis(std::size_t i, int points_per_dimension) const {
  if (points_per_dimension < 1 || points_per_dimension > kMaxGridPoints)
    throw InputError("grid: points per dimension must be in [1, " + std::to_string(kMaxGridPoints) + "], got " +
                     std::to_string(points_per_dimension));
  const auto& p = parameters_.at(i);
  std::vector<double> axis;
  // As many points as the integers in range: each of them, on either scale (30 log-spaced points of
  // [1, 30] round to fewer than 30 distinct integers).
  if (p.kind == Kind::integer && points_per_dimension >= p.high - p.low + 1) {
    for (double v = p.low; v <= p.high; ++v) axis.push_back(v);
    return axis;
  }
  const double lo = scaled(p, p.low), hi = scaled(p, p.high);
  for (int k = 0; k < points_per_dimension; ++k) {
    const double t = points_per_dimension == 1 ? 0.5 : double(k) / (points_per_dimension - 1);
    // Endpoints exactly (exp(log(low)) need not equal low).
    const double v = t == 0 ? p.low : t == 1 ? p.high : snap_value(p, unscaled(p, lo + t * (hi - lo)));
    if (axis.empty() || axis.back() != v) axis.push_back(v);
  }
  return axis;
}

Params Space::parse(const std::string& text, const std::string& source) const {
  Params v(dimension(), std::nan(""));
  std::vector<bool> given(dimension(), false);
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const auto eq = item.find('=');
    // The text is the user's (a flag, a file): echoed only through printable(), on one line.
    if (eq == std::string::npos || eq == 0)
      throw InputError(source + ": '" + printable(item) + "' is not of the form name=value");
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    std::size_t i = 0;
    try {
      i = index_of(name);
    } catch (const InputError& e) {
      throw InputError(source + ": " + e.what());
    }
    if (given[i]) throw InputError(source + ": parameter '" + name + "' given twice");
    double x = 0;
    const auto res = std::from_chars(value.data(), value.data() + value.size(), x);
    if (value.empty() || res.ec != std::errc() || res.ptr != value.data() + value.size() || !std::isfinite(x))
      throw InputError(source + ": value '" + printable(value) + "' of parameter '" + name +
                       "' is not a finite number");
    if (parameters_[i].kind == Kind::integer && x != std::round(x))
      throw InputError(source + ": parameter '" + name + "' is an integer, got " + printable(value));
    v[i] = x;
    given[i] = true;
    start = end + 1;
  }
  for (std::size_t i = 0; i < dimension(); ++i)
    if (!given[i]) throw InputError(source + ": parameter '" + parameters_[i].name + "' is missing");
  return v;
}

std::string Space::format(const Params& params) const {
  std::string out;
  for (std::size_t i = 0; i < dimension(); ++i)
    out += (i ? "," : "") + parameters_[i].name + "=" + format_number(params.at(i));
  return out;
}

std::string Space::signature() const {
  std::ostringstream os;
  for (const auto& p : parameters_)
    os << p.name << ':' << (p.kind == Kind::integer ? "integer" : "continuous") << ':'
       << (p.scale == Scale::log ? "log" : "linear") << ':' << format_number(p.low) << ':' << format_number(p.high)
       << ';';
  return os.str();
}

}  // namespace dpareto::space
