#include "png_image.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace dpareto::plot::test {
namespace {

std::uint32_t be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

int paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

}  // namespace

std::array<int, 3> PngImage::rgb(int x, int y) const {
  const std::uint8_t* p = &pixels[(static_cast<std::size_t>(y) * width + x) * channels];
  if (channels <= 2) return {p[0], p[0], p[0]};
  return {p[0], p[1], p[2]};
}

PngImage read_png(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const std::uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (bytes.size() < 8 || !std::equal(signature, signature + 8, bytes.begin()))
    throw std::runtime_error(path + ": not a PNG (bad signature)");
  PngImage image;
  int bit_depth = 0, color_type = -1, interlace = 0;
  std::vector<std::uint8_t> idat;
  std::size_t pos = 8;
  while (pos + 12 <= bytes.size()) {
    const std::uint32_t length = be32(&bytes[pos]);
    const std::string type(bytes.begin() + static_cast<long>(pos) + 4, bytes.begin() + static_cast<long>(pos) + 8);
    const std::uint8_t* data = &bytes[pos + 8];
    if (pos + 12 + length > bytes.size()) throw std::runtime_error(path + ": truncated chunk " + type);
    if (type == "IHDR") {
      image.width = static_cast<int>(be32(data));
      image.height = static_cast<int>(be32(data + 4));
      bit_depth = data[8];
      color_type = data[9];
      interlace = data[12];
    } else if (type == "IDAT") {
      idat.insert(idat.end(), data, data + length);
    } else if (type == "IEND") {
      break;
    }
    pos += 12 + length;
  }
  if (image.width <= 0 || image.height <= 0) throw std::runtime_error(path + ": no IHDR");
  if (bit_depth != 8 || interlace != 0) throw std::runtime_error(path + ": unsupported bit depth/interlace");
  switch (color_type) {
    case 0:
      image.channels = 1;
      break;
    case 2:
      image.channels = 3;
      break;
    case 4:
      image.channels = 2;
      break;
    case 6:
      image.channels = 4;
      break;
    default:
      throw std::runtime_error(path + ": unsupported colour type " + std::to_string(color_type));
  }
  const std::size_t stride = static_cast<std::size_t>(image.width) * image.channels;
  std::vector<std::uint8_t> raw((stride + 1) * image.height);
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, idat.data(), idat.size()) != Z_OK || raw_size != raw.size())
    throw std::runtime_error(path + ": IDAT stream does not inflate to the image size");
  image.pixels.resize(stride * image.height);
  const int bpp = image.channels;
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t filter = raw[y * (stride + 1)];
    const std::uint8_t* src = &raw[y * (stride + 1) + 1];
    std::uint8_t* row = &image.pixels[y * stride];
    const std::uint8_t* up = y > 0 ? &image.pixels[(y - 1) * stride] : nullptr;
    for (std::size_t i = 0; i < stride; ++i) {
      const int a = i >= static_cast<std::size_t>(bpp) ? row[i - bpp] : 0;
      const int b = up ? up[i] : 0;
      const int c = up && i >= static_cast<std::size_t>(bpp) ? up[i - bpp] : 0;
      int predictor = 0;
      switch (filter) {
        case 0:
          predictor = 0;
          break;
        case 1:
          predictor = a;
          break;
        case 2:
          predictor = b;
          break;
        case 3:
          predictor = (a + b) / 2;
          break;
        case 4:
          predictor = paeth(a, b, c);
          break;
        default:
          throw std::runtime_error(path + ": bad filter type");
      }
      row[i] = static_cast<std::uint8_t>(src[i] + predictor);
    }
  }
  return image;
}

double luminance_variance(const PngImage& image) {
  double sum = 0, sum2 = 0;
  const double n = static_cast<double>(image.width) * image.height;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const auto c = image.rgb(x, y);
      const double l = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
      sum += l;
      sum2 += l * l;
    }
  return sum2 / n - (sum / n) * (sum / n);
}

std::size_t count_color(const PngImage& image, const std::string& hex, int tolerance) {
  const int r = std::stoi(hex.substr(1, 2), nullptr, 16), g = std::stoi(hex.substr(3, 2), nullptr, 16),
            b = std::stoi(hex.substr(5, 2), nullptr, 16);
  std::size_t count = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const auto c = image.rgb(x, y);
      if (std::abs(c[0] - r) <= tolerance && std::abs(c[1] - g) <= tolerance && std::abs(c[2] - b) <= tolerance)
        ++count;
    }
  return count;
}

}  // namespace dpareto::plot::test
