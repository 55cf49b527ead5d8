#include "dpareto/select/model_file.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "dpareto/core/atomic_file.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::select {
namespace {

constexpr char kMagic[8] = {'D', 'P', 'M', 'O', 'D', 'E', 'L', '2'};
constexpr char kOutMajorMagic[8] = {'D', 'P', 'M', 'O', 'D', 'E', 'L', '1'};

void put_u32(std::ostream& out, std::uint32_t v) {
  const std::array<unsigned char, 4> b = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
                                          static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 24)};
  out.write(reinterpret_cast<const char*>(b.data()), 4);
}

std::uint32_t get_u32(std::istream& in, const std::string& path, const char* what) {
  std::array<unsigned char, 4> b{};
  if (!in.read(reinterpret_cast<char*>(b.data()), 4)) throw InputError(path + ": truncated model file (" + what + ")");
  return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
}

}  // namespace

void write_model_file(const std::string& path, const ModelFile& model) {
  if (model.architecture.size() > std::numeric_limits<std::uint32_t>::max() ||
      static_cast<std::uint64_t>(model.weights.size()) > std::numeric_limits<std::uint32_t>::max())
    throw InputError(path + ": model too large for the DPMODEL2 format");
  std::ostringstream out;
  out.write(kMagic, sizeof kMagic);
  put_u32(out, static_cast<std::uint32_t>(model.architecture.size()));
  out.write(model.architecture.data(), static_cast<std::streamsize>(model.architecture.size()));
  put_u32(out, static_cast<std::uint32_t>(model.weights.size()));
  for (Eigen::Index i = 0; i < model.weights.size(); ++i) {
    std::uint32_t bits = 0;
    const float w = model.weights[i];
    std::memcpy(&bits, &w, 4);
    put_u32(out, bits);
  }
  write_file_atomically(path, out.str());
}

ModelFile read_model_file(const std::string& path, const ModelExpectation* expected) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open model file");
  char magic[8] = {};
  ModelFile model;
  const bool read = static_cast<bool>(in.read(magic, sizeof magic));
  model.out_major_weights = read && std::memcmp(magic, kOutMajorMagic, sizeof magic) == 0;
  if (!read || (std::memcmp(magic, kMagic, sizeof magic) != 0 && !model.out_major_weights))
    throw InputError(path + ": not a DPMODEL2 (or DPMODEL1) file (bad magic)");
  const std::uint32_t name_length = get_u32(in, path, "name length");
  if (name_length > 4096)
    throw InputError(path + ": architecture name length " + std::to_string(name_length) + " too large");
  model.architecture.resize(name_length);
  if (!in.read(model.architecture.data(), name_length)) throw InputError(path + ": truncated model file (name)");
  if (expected && model.architecture != expected->architecture)
    throw InputError(path + ": architecture '" + printable(model.architecture) + "' does not match " + expected->owner +
                     " '" + expected->architecture + "'");
  const std::uint32_t count = get_u32(in, path, "weight count");
  if (expected && count != expected->weights)
    throw InputError(path + ": " + std::to_string(count) + " weights, but " + expected->owner + " '" +
                     expected->architecture + "' has " + std::to_string(expected->weights));
  // Check the length before allocating: a corrupt count must not ask for gigabytes.
  const std::streamoff at = in.tellg();
  in.seekg(0, std::ios::end);
  const std::streamoff left = in.tellg() - at;
  in.seekg(at);
  if (left != 4 * static_cast<std::streamoff>(count))
    throw InputError(path + ": " + std::to_string(count) + " weights declared but " + std::to_string(left) +
                     " bytes follow (expected " + std::to_string(4 * static_cast<std::uint64_t>(count)) + ")");
  model.weights.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t bits = get_u32(in, path, "weights");
    float w = 0;
    std::memcpy(&w, &bits, 4);
    if (!std::isfinite(w)) throw InputError(path + ": weight " + std::to_string(i) + " is not finite");
    model.weights[i] = w;
  }
  if (in.peek() != std::char_traits<char>::eof()) throw InputError(path + ": trailing bytes after the weights");
  return model;
}

}  // namespace dpareto::select
