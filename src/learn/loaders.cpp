#include "dpareto/learn/loaders.hpp"

#include <zlib.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string_view>

#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::learn {
namespace fs = std::filesystem;
namespace {

// A data file must be a regular file: a FIFO or device would block or never end.
void check_regular(const fs::path& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!ec && fs::exists(status) && !fs::is_regular_file(status))
    throw InputError(path.string() + ": not a regular file (a directory, FIFO or device cannot be a data file)");
}

std::string read_text(const fs::path& path) {
  check_regular(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open " + path.string() + " (set --data-dir or DPARETO_DATA)");
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// Reads through zlib (which passes non-gzip files through unchanged) until `limit(bytes so far)`
// bytes are in, or the end. `limit` sees the data read so far, so a caller can bound the rest by
// what a header declares before inflating it: a small gzip bomb never expands beyond that.
template <typename Limit>
std::string read_maybe_gzip(const fs::path& path, Limit&& limit) {
  check_regular(path);
  // Closed however the read ends: `limit` throws for a header that declares too much.
  const std::unique_ptr<gzFile_s, int (*)(gzFile)> f(gzopen(path.string().c_str(), "rb"), gzclose);
  if (!f) throw InputError("cannot open " + path.string() + " (set --data-dir or DPARETO_DATA)");
  std::string data;
  char buf[1 << 16];
  const auto corrupt = [&] {
    int code = 0;
    return InputError(path.string() + ": corrupt gzip stream after " + std::to_string(data.size()) +
                      " decompressed bytes (" + gzerror(f.get(), &code) + ")");
  };
  for (;;) {
    const std::size_t want = std::min<std::size_t>(sizeof buf, limit(data) - std::min(limit(data), data.size()));
    if (want == 0) break;
    const int got = gzread(f.get(), buf, static_cast<unsigned>(want));
    if (got < 0) throw corrupt();
    if (got == 0) {
      // The end of the input: for a gzip stream, only after its trailer (CRC and length) checked out.
      int code = 0;
      gzerror(f.get(), &code);
      if (code != Z_OK) throw corrupt();
      break;
    }
    data.append(buf, static_cast<std::size_t>(got));
  }
  return data;
}

// Splits text into lines (LF or CRLF); calls fn(line, 1-based number).
template <typename Fn>
void for_each_line(std::string_view text, Fn&& fn) {
  std::size_t pos = 0;
  int number = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    fn(line, ++number);
    pos = end + 1;
  }
}

bool is_blank(std::string_view s) {
  return s.find_first_not_of(" \t") == std::string_view::npos;
}

template <typename T>
bool parse_whole(std::string_view s, T& value) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto res = std::from_chars(s.data(), s.data() + s.size(), value);
  return !s.empty() && res.ec == std::errc() && res.ptr == s.data() + s.size();
}

// A feature value: a finite number that float32 can hold (features are stored as float32; DP-SGD's
// clipping bounds any such value's contribution). Throws InputError naming `at` and the value.
float parse_feature(std::string_view text, const std::string& at) {
  double value = 0;
  if (!parse_whole(text, value)) throw InputError(at + "value '" + printable(text) + "': expected a number");
  if (!std::isfinite(value)) throw InputError(at + "value '" + printable(text) + "' is not finite");
  if (std::abs(value) > std::numeric_limits<float>::max())
    throw InputError(at + "value '" + printable(text) + "' is outside the float32 range (|value| <= 3.4e38)");
  return static_cast<float>(value);
}

std::uint32_t big_endian_u32(const std::string& data, std::size_t offset) {
  return (static_cast<std::uint32_t>(static_cast<unsigned char>(data[offset])) << 24) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(data[offset + 1])) << 16) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(data[offset + 2])) << 8) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(data[offset + 3]));
}

// Checks an IDX header (magic, then `dims` uint32 sizes) and the payload length; returns the sizes.
std::vector<std::uint32_t> idx_header(const std::string& data, const fs::path& path, std::uint32_t magic, int dims) {
  const std::size_t header = 4 + 4 * static_cast<std::size_t>(dims);
  if (data.size() < header)
    throw InputError(path.string() + ": truncated at byte offset " + std::to_string(data.size()) + ": expected a " +
                     std::to_string(header) + "-byte IDX header");
  const std::uint32_t got = big_endian_u32(data, 0);
  if (got != magic)
    throw InputError(path.string() + ": bad magic number " + std::to_string(got) + " at byte offset 0: expected " +
                     std::to_string(magic));
  std::vector<std::uint32_t> sizes;
  std::size_t payload = 1;
  for (int i = 0; i < dims; ++i) {
    sizes.push_back(big_endian_u32(data, 4 + 4 * static_cast<std::size_t>(i)));
    // The product cannot wrap: read_idx refused declared sizes beyond 8 GiB.
    payload *= sizes.back();
  }
  if (data.size() != header + payload)
    throw InputError(path.string() + ": " + (data.size() < header + payload ? "truncated" : "trailing data") +
                     " at byte offset " + std::to_string(std::min(data.size(), header + payload)) + ": expected " +
                     std::to_string(header + payload) + " bytes (header + payload), found " +
                     std::to_string(data.size()));
  return sizes;
}

}  // namespace

Dataset load_libsvm(const fs::path& path, int dimension) {
  const std::string text = read_text(path);
  std::vector<int> labels;
  std::vector<std::size_t> row_begin{0};
  std::vector<int> columns;
  std::vector<float> values;
  const std::string where = path.string() + ":";
  for_each_line(text, [&](std::string_view line, int number) {
    if (is_blank(line)) return;
    const std::string at = where + std::to_string(number) + ": ";
    std::size_t pos = 0;
    bool first = true;
    while (pos < line.size()) {
      const std::size_t start = line.find_first_not_of(" \t", pos);
      if (start == std::string_view::npos) break;
      std::size_t end = line.find_first_of(" \t", start);
      if (end == std::string_view::npos) end = line.size();
      const std::string_view token = line.substr(start, end - start);
      pos = end;
      if (first) {
        first = false;
        double y = 0;
        if (!parse_whole(token, y) || !(y == 1 || y == -1 || y == 0))
          throw InputError(at + "label '" + printable(token) + "': expected -1, +1, 0 or 1");
        labels.push_back(y > 0 ? 1 : 0);
        continue;
      }
      const std::size_t colon = token.find(':');
      int index = 0;
      if (colon == std::string_view::npos || !parse_whole(token.substr(0, colon), index))
        throw InputError(at + "token '" + printable(token) + "': expected index:value");
      if (index < 1 || index > dimension)
        throw InputError(at + "feature index " + std::to_string(index) + " outside [1, " + std::to_string(dimension) +
                         "] (the dimension)");
      // LIBSVM lists a row's indices in ascending order; a repeat or a step back is a corrupt row.
      if (columns.size() > row_begin.back() && index - 1 <= columns.back())
        throw InputError(at + "feature index " + std::to_string(index) + " after " +
                         std::to_string(columns.back() + 1) + ": indices must ascend");
      columns.push_back(index - 1);
      values.push_back(parse_feature(token.substr(colon + 1), at + "feature " + std::to_string(index) + " "));
    }
    row_begin.push_back(columns.size());
  });
  if (labels.empty()) throw InputError(path.string() + ": no examples");
  return Dataset::from_sparse(std::move(row_begin), std::move(columns), std::move(values), dimension, std::move(labels),
                              2);
}

// An IDX file, read no further than its header declares (plus one byte, to detect trailing data).
std::string read_idx(const fs::path& path, int dims) {
  const std::size_t header = 4 + 4 * static_cast<std::size_t>(dims);
  constexpr std::size_t max_payload = std::size_t{1} << 33;  // 8 GiB: far beyond any image set
  return read_maybe_gzip(path, [&](const std::string& so_far) -> std::size_t {
    if (so_far.size() < header) return header;
    std::size_t payload = 1;
    for (int i = 0; i < dims; ++i) {
      const std::uint32_t size = big_endian_u32(so_far, 4 + 4 * static_cast<std::size_t>(i));
      if (size != 0 && payload > max_payload / size)
        throw InputError(path.string() + ": size " + std::to_string(size) + " at byte offset " +
                         std::to_string(4 + 4 * i) + " declares more than 8 GiB of data");
      payload *= size;
    }
    return header + payload + 1;
  });
}

Dataset load_idx(const fs::path& images, const fs::path& labels, int num_classes) {
  std::string img = read_idx(images, 3);
  const std::string lab = read_idx(labels, 1);
  const auto isz = idx_header(img, images, 2051, 3);
  const auto lsz = idx_header(lab, labels, 2049, 1);
  if (isz[0] == 0) throw InputError(images.string() + ": the header declares 0 images (byte offset 4)");
  // rows × cols is a row of the dataset (an int): 0 or beyond 2^31 - 1 is refused, never wrapped.
  const std::uint64_t pixels = std::uint64_t{isz[1]} * isz[2];
  if (pixels == 0 || pixels > std::numeric_limits<int>::max())
    throw InputError(images.string() + ": images of " + std::to_string(isz[1]) + " x " + std::to_string(isz[2]) +
                     " pixels (byte offset 8): expected 1 to 2^31 - 1 pixels per image");
  if (isz[0] != lsz[0])
    throw InputError(labels.string() + ": " + std::to_string(lsz[0]) + " labels at byte offset 4: expected " +
                     std::to_string(isz[0]) + " (the image count of " + images.string() + ")");
  std::vector<int> y(lsz[0]);
  for (std::size_t i = 0; i < y.size(); ++i) {
    y[i] = static_cast<unsigned char>(lab[8 + i]);
    if (y[i] >= num_classes)
      throw InputError(labels.string() + ": label " + std::to_string(y[i]) + " at byte offset " +
                       std::to_string(8 + i) + ": expected 0.." + std::to_string(num_classes - 1));
  }
  std::vector<std::uint8_t> bytes(img.begin() + 16, img.end());
  img.clear();
  img.shrink_to_fit();
  return Dataset::from_bytes(std::move(bytes), static_cast<int>(pixels), std::move(y), num_classes, 1.0f / 255.0f);
}

Dataset load_csv(const fs::path& path, const std::string& label_column, int num_classes) {
  const std::string text = read_text(path);
  std::vector<std::string> header;
  int label_index = -1;
  std::vector<int> labels;
  std::vector<float> values;
  auto split = [](std::string_view line) {
    std::vector<std::string_view> fields;
    std::size_t pos = 0;
    for (;;) {
      const std::size_t comma = line.find(',', pos);
      std::string_view f = line.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
      while (!f.empty() && (f.front() == ' ' || f.front() == '\t')) f.remove_prefix(1);
      while (!f.empty() && (f.back() == ' ' || f.back() == '\t')) f.remove_suffix(1);
      fields.push_back(f);
      if (comma == std::string_view::npos) return fields;
      pos = comma + 1;
    }
  };
  for_each_line(text, [&](std::string_view line, int number) {
    if (is_blank(line)) return;
    const auto fields = split(line);
    const std::string at = path.string() + ":" + std::to_string(number) + ": ";
    if (header.empty()) {
      for (std::size_t i = 0; i < fields.size(); ++i) {
        header.emplace_back(fields[i]);
        if (fields[i] == label_column) label_index = static_cast<int>(i);
      }
      if (label_index < 0) throw InputError(at + "header has no column '" + label_column + "'");
      if (header.size() < 2) throw InputError(at + "header needs a label and at least one feature column");
      return;
    }
    if (fields.size() != header.size())
      throw InputError(at + std::to_string(fields.size()) + " fields: expected " + std::to_string(header.size()) +
                       " (as in the header)");
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (static_cast<int>(i) == label_index) {
        int y = 0;
        if (!parse_whole(fields[i], y) || y < 0 || y >= num_classes)
          throw InputError(at + "label '" + printable(fields[i]) + "': expected an integer in 0.." +
                           std::to_string(num_classes - 1));
        labels.push_back(y);
      } else {
        values.push_back(parse_feature(fields[i], at + "column '" + printable(header[i]) + "' "));
      }
    }
  });
  if (header.empty()) throw InputError(path.string() + ": empty file: expected a header row");
  if (labels.empty()) throw InputError(path.string() + ": no data rows after the header");
  const auto d = static_cast<Eigen::Index>(header.size() - 1);
  MatrixF x = Eigen::Map<MatrixF>(values.data(), static_cast<Eigen::Index>(labels.size()), d);
  return Dataset::from_dense(std::move(x), std::move(labels), num_classes);
}

fs::path resolve_data_dir(const std::string& explicit_dir) {
  if (!explicit_dir.empty()) {
    if (!fs::is_directory(explicit_dir)) throw InputError("data directory " + explicit_dir + " does not exist");
    return explicit_dir;
  }
  if (const char* env = std::getenv("DPARETO_DATA"); env && *env) {
    if (!fs::is_directory(env)) throw InputError("DPARETO_DATA=" + std::string(env) + " is not a directory");
    return env;
  }
  // ../shared/data beside the working directory (the README's commands run from the checkout), or
  // beside the checkout that holds the running binary (build/dpareto -> ../../shared/data). No
  // path of the build machine is baked in: a binary copied to another host finds its data the same way.
  std::error_code ec;
  const fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  std::vector<fs::path> candidates{fs::current_path() / ".." / "shared" / "data"};
  if (!ec) candidates.push_back(exe_dir / ".." / ".." / "shared" / "data");
  std::string tried;
  for (const auto& c : candidates) {
    if (fs::is_directory(c)) return fs::weakly_canonical(c);
    tried += (tried.empty() ? "" : " and ") + c.lexically_normal().string();
  }
  throw InputError("no data directory: tried " + tried + "; set --data-dir or DPARETO_DATA");
}

Split load_adult(const fs::path& data_dir) {
  return {load_libsvm(data_dir / "adult" / "a9a", 123),
          load_libsvm(data_dir / "adult" / "a9a.t", 123),
          {data_dir / "adult" / "a9a"}};
}

Split load_mnist(const fs::path& data_dir) {
  const fs::path dir = data_dir / "mnist";
  // Prefer the gzip files; fall back to raw ones of the same name without .gz.
  auto pick = [&](const std::string& stem) {
    const fs::path gz = dir / (stem + ".gz");
    return fs::exists(gz) || !fs::exists(dir / stem) ? gz : dir / stem;
  };
  return {load_idx(pick("train-images-idx3-ubyte"), pick("train-labels-idx1-ubyte")),
          load_idx(pick("t10k-images-idx3-ubyte"), pick("t10k-labels-idx1-ubyte")),
          {pick("train-images-idx3-ubyte"), pick("train-labels-idx1-ubyte")}};
}

}  // namespace dpareto::learn
