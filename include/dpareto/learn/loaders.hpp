#pragma once
// Dataset readers (DESIGN.md §2 "Data"). Every malformed input raises dpareto::InputError with one
// line naming the file, the line (text formats) or byte offset (IDX), and what was expected.
#include <filesystem>
#include <string>
#include <vector>

#include "dpareto/learn/dataset.hpp"

namespace dpareto::learn {

// LIBSVM sparse text: "label idx:val idx:val ..." with 1-based indices <= `dimension`. The
// dimension is given, never inferred (a9a.t never uses feature 123 of a9a's 123). Binary labels:
// -1 or 0 -> class 0, +1 or 1 -> class 1.
Dataset load_libsvm(const std::filesystem::path& path, int dimension);

// IDX image + label files (MNIST), gzip-compressed or raw (zlib reads both). Pixels stay uint8
// and are scaled to [0, 1]; labels must lie in [0, num_classes).
Dataset load_idx(const std::filesystem::path& images, const std::filesystem::path& labels, int num_classes = 10);

// CSV with a header row: numeric columns, one of which (named `label_column`) holds integer
// labels in [0, num_classes); the others are the features, in file order.
Dataset load_csv(const std::filesystem::path& path, const std::string& label_column, int num_classes);

// Where datasets live: `explicit_dir` if non-empty, else $DPARETO_DATA, else ../shared/data
// relative to the current directory, else ../../shared/data relative to the running binary (a
// build/ folder inside the checkout). Throws InputError listing the places tried when none exists.
std::filesystem::path resolve_data_dir(const std::string& explicit_dir);

// The standard splits under a data directory: adult/a9a(.t) with 123 features; mnist/*-ubyte(.gz).
struct Split {
  Dataset train;
  Dataset test;
  std::vector<std::filesystem::path> train_files;  // the files the training rows came from (none if generated)
};
Split load_adult(const std::filesystem::path& data_dir);
Split load_mnist(const std::filesystem::path& data_dir);

}  // namespace dpareto::learn
