// GCC 12 false positives inside AVX-512 intrinsics inlined from Eigen (GCC PR 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/learn/loaders.hpp"

namespace fs = std::filesystem;
using namespace dpareto::learn;
using dpareto::InputError;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("dpareto_learn_" + std::to_string(::getpid()) + "_" +
                                        std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  fs::path write(const std::string& name, const std::string& content) const {
    std::ofstream(path / name, std::ios::binary) << content;
    return path / name;
  }
  fs::path write_gz(const std::string& name, const std::string& content) const {
    gzFile f = gzopen((path / name).string().c_str(), "wb");
    gzwrite(f, content.data(), static_cast<unsigned>(content.size()));
    gzclose(f);
    return path / name;
  }
};

std::string be32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

std::string idx_images(std::uint32_t n, std::uint32_t rows, std::uint32_t cols, std::uint32_t magic = 2051) {
  std::string s = be32(magic) + be32(n) + be32(rows) + be32(cols);
  for (std::uint32_t i = 0; i < n * rows * cols; ++i) s += static_cast<char>(i * 37 % 256);
  return s;
}

std::string idx_labels(const std::vector<int>& y) {
  std::string s = be32(2049) + be32(static_cast<std::uint32_t>(y.size()));
  for (int v : y) s += static_cast<char>(v);
  return s;
}

// The error message, which must name the file and say what was expected.
std::string error_of(auto&& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("libsvm: dimension comes from the caller, labels map to 0/1") {
  TempDir dir;
  const auto p = dir.write("a.txt", "+1 1:1 3:0.5 \n-1 2:1\n\n1 4:2\r\n");
  const Dataset d = load_libsvm(p, 5);
  CHECK(d.size() == 3);
  CHECK(d.dimension() == 5);  // feature 5 never occurs
  CHECK(d.labels() == std::vector<int>{1, 0, 1});
  MatrixF x;
  d.gather_range(0, 3, x);
  CHECK(x(0, 0) == 1.0f);
  CHECK(x(0, 2) == 0.5f);
  CHECK(x(1, 1) == 1.0f);
  CHECK(x(2, 3) == 2.0f);
  CHECK(x.row(2).sum() == 2.0f);
}

TEST_CASE("libsvm: malformed input names file, line and expectation") {
  TempDir dir;
  const std::string token = error_of([&] { load_libsvm(dir.write("t", "+1 1:1\n-1 2-1\n"), 5); });
  CHECK(token.find("t:2") != std::string::npos);
  CHECK(token.find("expected index:value") != std::string::npos);
  const std::string beyond = error_of([&] { load_libsvm(dir.write("b", "+1 6:1\n"), 5); });
  CHECK(beyond.find("b:1") != std::string::npos);
  CHECK(beyond.find("feature index 6") != std::string::npos);
  CHECK(!error_of([&] { load_libsvm(dir.write("z", "+1 0:1\n"), 5); }).empty());
  const std::string label = error_of([&] { load_libsvm(dir.write("l", "+1 1:1\n2 1:1\n"), 5); });
  CHECK(label.find("l:2") != std::string::npos);
  CHECK(label.find("label '2'") != std::string::npos);
  CHECK(!error_of([&] { load_libsvm(dir.write("v", "+1 1:abc\n"), 5); }).empty());
  CHECK(error_of([&] { load_libsvm(dir.path / "missing", 5); }).find("cannot open") != std::string::npos);
}

TEST_CASE("idx: raw and gzip, pixels scaled to [0, 1]") {
  TempDir dir;
  const std::string img = idx_images(3, 2, 2);
  for (bool gz : {false, true}) {
    const auto pi = gz ? dir.write_gz("i.gz", img) : dir.write("i", img);
    const auto pl = gz ? dir.write_gz("l.gz", idx_labels({3, 0, 9})) : dir.write("l", idx_labels({3, 0, 9}));
    const Dataset d = load_idx(pi, pl);
    CHECK(d.size() == 3);
    CHECK(d.dimension() == 4);
    CHECK(d.labels() == std::vector<int>{3, 0, 9});
    MatrixF x;
    d.gather_range(0, 3, x);
    CHECK(x(1, 1) == doctest::Approx(static_cast<unsigned char>(5 * 37 % 256) / 255.0));
    CHECK(x.maxCoeff() <= 1.0f);
    CHECK(x.minCoeff() >= 0.0f);
  }
}

TEST_CASE("idx: bad magic, truncation, label range and count mismatch") {
  TempDir dir;
  const auto labels = dir.write("l", idx_labels({1, 2}));
  const std::string magic = error_of([&] { load_idx(dir.write("m", idx_images(2, 2, 2, 2049)), labels); });
  CHECK(magic.find("bad magic number 2049") != std::string::npos);
  CHECK(magic.find("byte offset 0") != std::string::npos);
  std::string img = idx_images(2, 2, 2);
  img.pop_back();
  const std::string trunc = error_of([&] { load_idx(dir.write_gz("t.gz", img), labels); });
  CHECK(trunc.find("t.gz") != std::string::npos);
  CHECK(trunc.find("truncated at byte offset 23") != std::string::npos);
  CHECK(!error_of([&] { load_idx(dir.write("h", std::string("\0\0\x08", 3)), labels); }).empty());
  const auto good = dir.write("g", idx_images(2, 2, 2));
  const std::string range = error_of([&] { load_idx(good, dir.write("r", idx_labels({1, 10}))); });
  CHECK(range.find("label 10 at byte offset 9") != std::string::npos);
  CHECK(!error_of([&] { load_idx(good, dir.write("c", idx_labels({1}))); }).empty());
}

TEST_CASE("csv: header, label column, malformed rows") {
  TempDir dir;
  const Dataset d = load_csv(dir.write("ok.csv", "a, label ,b\n1.5,1,2\n-3,0,4\n\n"), "label", 2);
  CHECK(d.size() == 2);
  CHECK(d.dimension() == 2);
  CHECK(d.labels() == std::vector<int>{1, 0});
  MatrixF x;
  d.gather_range(0, 2, x);
  CHECK(x(0, 0) == 1.5f);
  CHECK(x(1, 1) == 4.0f);
  const std::string width = error_of([&] { load_csv(dir.write("w.csv", "a,label\n1,0\n1,0,3\n"), "label", 2); });
  CHECK(width.find("w.csv:3") != std::string::npos);
  CHECK(width.find("expected 2") != std::string::npos);
  const std::string label = error_of([&] { load_csv(dir.write("l.csv", "a,label\n1,2\n"), "label", 2); });
  CHECK(label.find("l.csv:2") != std::string::npos);
  CHECK(!error_of([&] { load_csv(dir.write("n.csv", "a,b\n1,0\n"), "label", 2); }).empty());
  CHECK(!error_of([&] { load_csv(dir.write("v.csv", "a,label\nx,0\n"), "label", 2); }).empty());
  // Fuzz finding (fuzz/csv.cpp): a header name holding a carriage return or NUL reached the message raw.
  const std::string name =
      error_of([&] { load_csv(dir.write("h.csv", std::string("a\rb\0c,label\n1,0\nx,1\n", 20)), "label", 2); });
  CHECK(name.find("h.csv:3: column 'a?b?c' value 'x': expected a number") != std::string::npos);
}

TEST_CASE("data directory: explicit, environment, errors") {
  TempDir dir;
  CHECK(resolve_data_dir(dir.path.string()) == dir.path);
  CHECK_THROWS_AS(resolve_data_dir((dir.path / "nope").string()), InputError);
}

TEST_CASE("shared data sets load when present") {
  fs::path root;
  try {
    root = resolve_data_dir("");
  } catch (const InputError&) {
    MESSAGE("no ../shared/data: skipped");
    return;
  }
  if (!fs::exists(root / "adult" / "a9a.t")) {
    MESSAGE("no adult data: skipped");
    return;
  }
  const Split adult = load_adult(root);
  CHECK(adult.train.size() == 32561);
  CHECK(adult.test.size() == 16281);
  CHECK(adult.test.dimension() == 123);
  CHECK(adult.train.label_fraction(1) == doctest::Approx(7841.0 / 32561));
  if (fs::exists(root / "mnist" / "t10k-images-idx3-ubyte.gz")) {
    const Dataset t =
        load_idx(root / "mnist" / "t10k-images-idx3-ubyte.gz", root / "mnist" / "t10k-labels-idx1-ubyte.gz");
    CHECK(t.size() == 10000);
    CHECK(t.dimension() == 784);
    CHECK(t.label_fraction(1) == doctest::Approx(1135.0 / 10000));
  }
}

TEST_CASE("libsvm and csv: non-finite or out-of-range feature values name file, line and value") {
  TempDir dir;
  for (const std::string value : {"inf", "-inf", "nan", "1e39", "-3.5e38", "1e308"}) {
    CAPTURE(value);
    const std::string svm = error_of([&] { load_libsvm(dir.write("s", "+1 1:1\n-1 3:" + value + "\n"), 5); });
    CHECK(svm.find("s:2") != std::string::npos);
    CHECK(svm.find("feature 3") != std::string::npos);
    CHECK(svm.find("'" + value + "'") != std::string::npos);
    const std::string csv =
        error_of([&] { load_csv(dir.write("c.csv", "y,a,b\n0,1,2\n1," + value + ",2\n"), "y", 2); });
    CHECK(csv.find("c.csv:3") != std::string::npos);
    CHECK(csv.find("column 'a'") != std::string::npos);
    CHECK(csv.find("'" + value + "'") != std::string::npos);
  }
  // Large but representable values load (clipping bounds their contribution).
  const Dataset big = load_libsvm(dir.write("big", "+1 3:1e30\n-1 1:3.4e38\n"), 5);
  CHECK(big.size() == 2);
}

TEST_CASE("idx: declared sizes whose product overflows, a gzip bomb, zero images") {
  TempDir dir;
  const auto labels = dir.write("l", idx_labels({1}));
  // 2^16 × 2^16 × 2^16 × ... wraps a 64-bit product if multiplied blindly (issue 24: accepted as 28×28).
  std::string wrap = be32(2051) + be32(65536) + be32(65536) + be32(65536) + std::string(784, '\0');
  const std::string overflow = error_of([&] { load_idx(dir.write("w", wrap), labels); });
  CHECK(overflow.find("declares more than 8 GiB") != std::string::npos);
  // A valid header for one 28×28 image, then 64 MiB of zeros: refused as trailing data after reading
  // at most one byte past the declared payload (issue 23: the whole file used to be inflated first).
  std::string bomb = idx_images(1, 28, 28);
  bomb.append(std::size_t{64} << 20, '\0');
  const auto bomb_path = dir.write_gz("bomb.gz", bomb);
  CHECK(fs::file_size(bomb_path) < (std::size_t{1} << 20));
  const std::string trailing = error_of([&] { load_idx(bomb_path, labels); });
  CHECK(trailing.find("trailing data at byte offset 800") != std::string::npos);
  const std::string none =
      error_of([&] { load_idx(dir.write("z", idx_images(0, 28, 28)), dir.write("l0", idx_labels({}))); });
  CHECK(none.find("declares 0 images") != std::string::npos);
  // Images of 0 pixels: the error names the file (it used to be the dataset's, naming none).
  const std::string empty = error_of([&] {
    load_idx(dir.write("e", idx_images(3, 0, 28)), dir.write("l3", idx_labels({1, 2, 3})));
  });
  CHECK(empty.find("e: images of 0 x 28 pixels (byte offset 8)") != std::string::npos);
}

TEST_CASE("idx: a header refused while inflating closes the file (fuzz finding: the gzip handle leaked)") {
  TempDir dir;
  const auto labels = dir.write("l", idx_labels({1}));
  const auto huge = dir.write_gz("huge.gz", be32(2051) + be32(65536) + be32(65536) + be32(65536));
  const auto open_files = [] {
    return std::distance(fs::directory_iterator("/proc/self/fd"), fs::directory_iterator());
  };
  const auto before = open_files();
  for (int i = 0; i < 20; ++i)
    CHECK(error_of([&] { load_idx(huge, labels); }).find("declares more than 8 GiB") != std::string::npos);
  CHECK(open_files() == before);
}

TEST_CASE("data files must be regular files: a FIFO or a directory is refused at once") {
  TempDir dir;
  const auto fifo = dir.path / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(error_of([&] { load_libsvm(fifo, 5); }).find("not a regular file") != std::string::npos);
  CHECK(error_of([&] { load_idx(fifo, fifo); }).find("not a regular file") != std::string::npos);
  CHECK(error_of([&] { load_csv(dir.path, "y", 2); }).find("not a regular file") != std::string::npos);
}

TEST_CASE("libsvm: a NUL or control byte in a token is shown as '?', the message is not cut") {
  TempDir dir;
  const std::string svm =
      error_of([&] { load_libsvm(dir.write("n", std::string("+1 1:1\n-1 2:a\0b\x1b[31m\n", 20)), 5); });
  CHECK(svm.find("n:2") != std::string::npos);
  CHECK(svm.find("'a?b?[31m'") != std::string::npos);
  CHECK(svm.find("expected a number") != std::string::npos);
}
