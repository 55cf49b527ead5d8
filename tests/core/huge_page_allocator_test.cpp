// core/huge_page_allocator: large blocks are 2 MiB-aligned and hold what is written to them, small
// ones come from operator new, and a vector grown across the 2 MiB boundary keeps its contents.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "dpareto/core/huge_page_allocator.hpp"

using dpareto::HugePageAllocator;

TEST_CASE("a block of 2 MiB or more is huge-page aligned and usable to its last byte") {
  HugePageAllocator<std::uint8_t> allocator;
  const std::size_t n = HugePageAllocator<std::uint8_t>::huge_page * 3 + 17;  // not a multiple of the page
  std::uint8_t* p = allocator.allocate(n);
  CHECK(reinterpret_cast<std::uintptr_t>(p) % HugePageAllocator<std::uint8_t>::huge_page == 0);
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(i * 131);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += p[i] != static_cast<std::uint8_t>(i * 131);
  CHECK(wrong == 0);
  allocator.deallocate(p, n);
}

TEST_CASE("a vector grown from small to huge blocks keeps its values") {
  std::vector<int, HugePageAllocator<int>> v;
  std::vector<int> expected;
  for (int i = 0; i < 1 << 20; ++i) {  // 4 MiB of ints: reallocations on both sides of 2 MiB
    v.push_back(i * 7 - 3);
    expected.push_back(i * 7 - 3);
  }
  CHECK(std::equal(v.begin(), v.end(), expected.begin(), expected.end()));
  v.resize(10);
  v.shrink_to_fit();  // back to a small block
  CHECK(v.back() == 9 * 7 - 3);
}

TEST_CASE("a count whose byte size overflows is refused") {
  HugePageAllocator<double> allocator;
  CHECK_THROWS_AS(allocator.allocate(std::size_t(-1) / 4), std::bad_array_new_length);
}
