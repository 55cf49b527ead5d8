#pragma once
// A minimal PNG reader for the figure tests: checks the signature, reads IHDR, inflates the IDAT
// stream with zlib and undoes the scanline filters (8-bit RGB, RGBA, grey, grey+alpha).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace dpareto::plot::test {

struct PngImage {
  int width = 0, height = 0;
  int channels = 0;                  // 1, 2, 3 or 4
  std::vector<std::uint8_t> pixels;  // row-major, `channels` bytes per pixel
  // RGB of pixel (x, y) (grey replicated).
  std::array<int, 3> rgb(int x, int y) const;
};

// Throws std::runtime_error describing what is wrong with the file.
PngImage read_png(const std::string& path);

// Variance of the pixels' luminance (0..255 scale).
double luminance_variance(const PngImage& image);
// How many pixels lie within `tolerance` (max channel difference) of the colour "#RRGGBB".
std::size_t count_color(const PngImage& image, const std::string& hex, int tolerance = 24);

}  // namespace dpareto::plot::test
