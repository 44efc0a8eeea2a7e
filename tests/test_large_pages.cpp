#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "core/large_pages.h"

namespace tessera {
namespace {

[[nodiscard]] std::uintptr_t address_of(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p);
}

TEST(LargePages, BigBlocksAreAlignedToALargePage) {
  for (const std::size_t bytes : {kLargePageBytes, kLargePageBytes + 1, 5 * kLargePageBytes / 2}) {
    void* block = allocate_large_pages(bytes);
    ASSERT_NE(block, nullptr) << bytes;
    EXPECT_EQ(address_of(block) % kLargePageBytes, 0u) << bytes;
    release_large_pages(block);
  }
}

TEST(LargePages, SmallBlocksAreAlignedToACacheLine) {
  for (const std::size_t bytes :
       {std::size_t(1), std::size_t(32), std::size_t(100), std::size_t(4096)}) {
    void* block = allocate_large_pages(bytes);
    ASSERT_NE(block, nullptr) << bytes;
    EXPECT_EQ(address_of(block) % 64, 0u) << bytes;
    release_large_pages(block);
  }
}

TEST(LargePages, NothingAskedOrTooMuchGivesNothing) {
  EXPECT_EQ(allocate_large_pages(0), nullptr);
  EXPECT_EQ(allocate_large_pages(std::size_t(-1) - 10), nullptr);
  EXPECT_FALSE(make_large_array<std::uint64_t>(0));
  EXPECT_FALSE(make_large_array<std::uint64_t>(std::size_t(-1) / 4));  // count x 8 overflows
}

struct Counted {
  int value = 7;
  int* destroyed = nullptr;
  ~Counted() {
    if (destroyed) ++*destroyed;
  }
};

TEST(LargePages, ArraysAreConstructedAndDestroyedWhole) {
  int destroyed = 0;
  constexpr std::size_t kCount = kLargePageBytes / sizeof(Counted) + 3;
  {
    LargeArray<Counted> items = make_large_array<Counted>(kCount);
    ASSERT_TRUE(items);
    for (std::size_t i = 0; i < kCount; ++i) {
      ASSERT_EQ(items[i].value, 7) << i;
      items[i].destroyed = &destroyed;
    }
  }
  EXPECT_EQ(destroyed, int(kCount));
}

#if defined(__linux__)
// The kernel's own account of the mapping that holds `p`: its "THPeligible" line says whether
// transparent huge pages may back it (for a madvise-mode kernel, only advised memory).
[[nodiscard]] std::string huge_page_eligibility(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= address_of(p) && address_of(p) < end;
      continue;
    }
    if (inside && line.rfind("THPeligible:", 0) == 0) return line.substr(12);
  }
  return "";
}

TEST(LargePages, BigBlocksAreOfferedHugePages) {
  std::ifstream mode_file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(mode_file, mode);
  if (mode.empty() || mode.find("[never]") != std::string::npos)
    GTEST_SKIP() << "this kernel has no transparent huge pages";
  void* block = allocate_large_pages(4 * kLargePageBytes);
  ASSERT_NE(block, nullptr);
  const std::string eligible = huge_page_eligibility(block);
  release_large_pages(block);
  if (eligible.empty()) GTEST_SKIP() << "this kernel does not report THPeligible";
  EXPECT_NE(eligible.find('1'), std::string::npos) << eligible;
}
#endif

}  // namespace
}  // namespace tessera
