#pragma once
// An allocator for large arrays read at random rows (a lot's examples): blocks of 2 MiB or more
// are 2 MiB-aligned and advised to the kernel as transparent huge pages (madvise, the Debian
// default mode), so that a lot's rows cost no TLB miss each. Smaller blocks are ordinary ones.
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <limits>
#include <new>

namespace dpareto {

template <class T>
class HugePageAllocator {
 public:
  using value_type = T;
  static constexpr std::size_t huge_page = std::size_t{1} << 21;

  HugePageAllocator() = default;
  template <class U>
  explicit HugePageAllocator(const HugePageAllocator<U>&) {}

  // The largest count whose block, rounded up to whole huge pages, is still a valid object size.
  static constexpr std::size_t max_size() {
    return (static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) - huge_page) / sizeof(T);
  }

  T* allocate(std::size_t n) {
    if (n > max_size()) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_page) return static_cast<T*>(::operator new(bytes));
    const std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
    void* p = std::aligned_alloc(huge_page, rounded);
    if (!p) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without huge pages the array still works
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < huge_page)
      ::operator delete(p);
    else
      std::free(p);
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

}  // namespace dpareto
