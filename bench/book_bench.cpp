// Microbenchmarks of the Polyglot book: parsing a large book and looking positions up in it.
// The book is synthetic (random keys plus the start position's entries), about 1 million
// entries or 16 MB, the size of a large published book.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/polyglot_book.h"
#include "core/polyglot_key.h"
#include "core/position.h"

namespace tessera {
namespace {

constexpr std::size_t kEntries = 1 << 20;

[[nodiscard]] std::vector<unsigned char> synthetic_book() {
  std::mt19937_64 rng(1);
  std::vector<std::uint64_t> keys(kEntries);
  for (std::uint64_t& k : keys) k = rng();
  keys.back() = polyglot_key(Position::startpos());
  std::sort(keys.begin(), keys.end());
  std::vector<unsigned char> bytes;
  bytes.reserve(kEntries * book::kEntrySize);
  const auto put = [&](std::uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) bytes.push_back(static_cast<unsigned char>(v >> (8 * i)));
  };
  for (const std::uint64_t k : keys) {
    put(k, 8);
    put(0x031c, 2);  // e2e4
    put(1, 2);
    put(0, 4);
  }
  return bytes;
}

const std::vector<unsigned char>& book_bytes() {
  static const std::vector<unsigned char> bytes = synthetic_book();
  return bytes;
}

void BM_BookParse(benchmark::State& state) {
  for (auto _ : state) {
    std::string error;
    auto book = book::PolyglotBook::from_bytes(book_bytes(), "synthetic", error);
    if (!book) throw std::runtime_error(error);
    benchmark::DoNotOptimize(book->size());
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(book_bytes().size()));
}
BENCHMARK(BM_BookParse)->Unit(benchmark::kMillisecond);

// moves(): key, binary search over 2^20 entries, move decoding against the legal moves.
void BM_BookProbe(benchmark::State& state) {
  std::string error;
  const auto book = book::PolyglotBook::from_bytes(book_bytes(), "synthetic", error);
  if (!book) throw std::runtime_error(error);
  const Position pos = Position::startpos();
  for (auto _ : state) benchmark::DoNotOptimize(book->moves(pos).size());
}
BENCHMARK(BM_BookProbe);

// A miss: only the key and the binary search.
void BM_BookMiss(benchmark::State& state) {
  std::string error;
  const auto book = book::PolyglotBook::from_bytes(book_bytes(), "synthetic", error);
  if (!book) throw std::runtime_error(error);
  std::uint64_t key = 12345;
  for (auto _ : state) {
    benchmark::DoNotOptimize(book->entries(key).size());
    key = key * 6364136223846793005ULL + 1442695040888963407ULL;
  }
}
BENCHMARK(BM_BookMiss);

}  // namespace
}  // namespace tessera
