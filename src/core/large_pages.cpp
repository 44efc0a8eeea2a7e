#include "core/large_pages.h"

#include <cstdlib>

#if defined(_WIN32)
#include <malloc.h>  // _aligned_malloc: the Windows C runtime has no aligned_alloc
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tessera {

namespace {
[[nodiscard]] constexpr std::size_t round_up(std::size_t bytes, std::size_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}
}  // namespace

void* allocate_large_pages(std::size_t bytes) noexcept {
  if (bytes == 0) return nullptr;
  const std::size_t alignment = bytes >= kLargePageBytes ? kLargePageBytes : kCacheLineBytes;
  if (bytes > std::size_t(-1) - alignment) return nullptr;
  // aligned_alloc wants a size that is a multiple of the alignment.
  const std::size_t size = round_up(bytes, alignment);
#if defined(_WIN32)
  void* block = _aligned_malloc(size, alignment);
#else
  void* block = std::aligned_alloc(alignment, size);
#endif
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Only advice: a refusal (EINVAL where the kernel has no transparent huge pages) leaves
  // ordinary pages, which work the same.
  if (block && alignment == kLargePageBytes) (void)madvise(block, size, MADV_HUGEPAGE);
#endif
  return block;
}

void release_large_pages(void* block) noexcept {
#if defined(_WIN32)
  _aligned_free(block);
#else
  std::free(block);
#endif
}

}  // namespace tessera
