// learn::load_idx on an image file and a label file (MNIST's IDX format, gzip-compressed or raw).
// Input: one flag byte (bit 0: gzip the image file, bit 1: gzip the label file, as the harness
// writes them; gzip bytes in the input itself reach zlib's stream checks), then the image file's
// bytes, "#LABELS#", the label file's bytes.
#include <zlib.h>

#include "dpareto/learn/loaders.hpp"
#include "fuzz_support.hpp"

namespace {

std::filesystem::path write_file(const std::string& name, std::string_view bytes, bool gzip) {
  if (!gzip) return dpareto::fuzz::write_scratch(name, bytes);
  const auto path = dpareto::fuzz::scratch_dir() / name;
  gzFile f = gzopen(path.string().c_str(), "wb1");
  if (!f || (!bytes.empty() && gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())) <= 0)) std::abort();
  gzclose(f);
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned flags = data[0];
  const auto [images, labels] = dpareto::fuzz::split_at(dpareto::fuzz::input_text(data + 1, size - 1), "#LABELS#");
  const auto image_path = write_file("images", images, flags & 1);
  const auto label_path = write_file("labels", labels, flags & 2);
  dpareto::fuzz::parses_or_refuses([&] { dpareto::learn::load_idx(image_path, label_path, 10); });
  return 0;
}
