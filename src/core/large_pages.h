// Memory for the large tables that the search reads at random (the transposition table).
//
// Policy. A block of 2 MiB or more is aligned to 2 MiB and, on Linux, offered to the kernel for
// transparent huge pages (madvise MADV_HUGEPAGE). With 4 KiB pages nearly every probe of a
// table of many megabytes misses the TLB, and the page walk stalls the search: the prefetch of
// a child's cluster waits for it. Where huge pages are not to be had (another system,
// transparent huge pages switched off, no contiguous memory left) the advice does nothing and
// the block is ordinary memory, so only speed depends on it, never a result. Smaller blocks
// are aligned to a cache line. Allocation failure is reported by an empty array, never thrown.
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>

namespace tessera {

// The alignment, and the least size, of a block that is offered huge pages.
inline constexpr std::size_t kLargePageBytes = std::size_t(2) << 20;
// The alignment of every other block.
inline constexpr std::size_t kCacheLineBytes = 64;

// `bytes` of uninitialised memory aligned as the policy says, or nullptr when there is none
// (or `bytes` is 0). Release it with release_large_pages.
[[nodiscard]] void* allocate_large_pages(std::size_t bytes) noexcept;
void release_large_pages(void* block) noexcept;

template <class T>
struct LargeArrayDeleter {
  std::size_t count = 0;
  void operator()(T* items) const noexcept {
    std::destroy_n(items, count);
    release_large_pages(items);
  }
};

// An owning array of default-constructed T in large-page memory.
template <class T>
using LargeArray = std::unique_ptr<T[], LargeArrayDeleter<T>>;

// `count` default-constructed T, or an empty array when the memory cannot be had.
template <class T>
[[nodiscard]] LargeArray<T> make_large_array(std::size_t count) noexcept {
  static_assert(alignof(T) <= kCacheLineBytes, "blocks are aligned to a cache line at least");
  static_assert(std::is_nothrow_default_constructible_v<T>);
  if (count == 0 || count > std::size_t(-1) / sizeof(T)) return LargeArray<T>(nullptr, {0});
  T* items = static_cast<T*>(allocate_large_pages(count * sizeof(T)));
  if (!items) return LargeArray<T>(nullptr, {0});
  std::uninitialized_default_construct_n(items, count);
  return LargeArray<T>(items, {count});
}

}  // namespace tessera
