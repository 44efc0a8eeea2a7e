#include "search/tt.h"

#include <algorithm>
#include <new>
#include <thread>
#include <utility>
#include <vector>

namespace tessera::search {

namespace {

// Bit layout of an entry word, low to high: key16 (16), move (16), score (16, two's
// complement), depth + kDepthOffset (8), bound (2), pv (1), generation (5). An all-zero word is
// an empty entry: every store sets a bound or, in an evaluation-only entry, the score kNone.
constexpr int kMoveShift = 16;
constexpr int kScoreShift = 32;
constexpr int kDepthShift = 48;
constexpr int kBoundShift = 56;
constexpr int kPvShift = 58;
constexpr int kGenerationShift = 59;

// How many generations old an entry is, modulo the 6-bit counter.
[[nodiscard]] int age_of(int entry_generation, int current) {
  return (current - entry_generation) & int(TranspositionTable::kGenerationMask);
}

}  // namespace

int TranspositionTable::worth(const TTData& d, int current) {
  return d.depth - 8 * age_of(d.generation, current);
}

void TranspositionTable::swap_contents(TranspositionTable& other) noexcept {
  std::swap(clusters_, other.clusters_);
  std::swap(cluster_count_, other.cluster_count_);
  std::swap(mb_, other.mb_);
  std::swap(generation_, other.generation_);
  std::swap(evaluator_, other.evaluator_);
}

std::uint64_t TranspositionTable::pack(std::uint16_t key16, Move move, int score, int depth,
                                       Bound bound, bool pv, std::uint8_t generation) {
  const int stored_depth = std::clamp(depth + kDepthOffset, 0, 255);
  return std::uint64_t(key16) | std::uint64_t(move.raw()) << kMoveShift |
         std::uint64_t(std::uint16_t(std::int16_t(score))) << kScoreShift |
         std::uint64_t(stored_depth) << kDepthShift | std::uint64_t(bound) << kBoundShift |
         std::uint64_t(pv) << kPvShift |
         std::uint64_t(generation & kGenerationMask) << kGenerationShift;
}

TTData TranspositionTable::unpack(std::uint64_t raw) {
  TTData d;
  d.move = Move(std::uint16_t(raw >> kMoveShift));
  d.score = std::int16_t(std::uint16_t(raw >> kScoreShift));
  d.depth = int((raw >> kDepthShift) & 0xFF) - kDepthOffset;
  d.bound = Bound((raw >> kBoundShift) & 3);
  d.pv = (raw >> kPvShift) & 1;
  d.generation = int(raw >> kGenerationShift);
  return d;
}

void TTWriter::write(Key key, int score, int depth, Bound bound, Move move, int eval,
                     bool pv) const {
  if (slot_ == nullptr) return;
  const std::uint16_t k16 = TranspositionTable::key16(TranspositionTable::fold_key(key, key_bits_));
  const std::uint64_t old_raw = slot_->load(std::memory_order_relaxed);
  const TTData old = TranspositionTable::unpack(old_raw);
  const bool same = old_raw != 0 && std::uint16_t(old_raw) == k16;
  // A new position must not inherit the evaluation of the one it displaces; the same position
  // keeps its evaluation when this store brings none.
  if (!same || eval != kNone)
    eval_slot_->store(std::int16_t(std::clamp(eval, -kNone, kNone)), std::memory_order_relaxed);
  // Never forget a move for this position just because this result has none.
  if (move.is_none() && same) move = old.move;
  // A shallower non-exact result of the same search does not displace a deeper one: it is
  // usually a re-search with a narrower window and carries less information.
  if (same && bound != Bound::Exact && old.generation == generation_ && depth + 4 <= old.depth) {
    if (move != old.move || pv != old.pv)  // still remember the new best move and PV mark
      slot_->store(
          TranspositionTable::pack(k16, move, old.score, old.depth, old.bound, pv, generation_),
          std::memory_order_relaxed);
    return;
  }
  slot_->store(TranspositionTable::pack(k16, move, score, depth, bound, pv, generation_),
               std::memory_order_relaxed);
}

TranspositionTable::TranspositionTable() { (void)resize(1); }

TranspositionTable::~TranspositionTable() = default;

std::string TranspositionTable::allocate(std::size_t clusters, std::size_t mb) {
  // Large pages (core/large_pages.h): a probe rarely waits for a page walk. The block is
  // aligned to at least a cache line, so every cluster starts on a 32-byte boundary.
  LargeArray<Cluster> fresh = make_large_array<Cluster>(clusters);
  if (!fresh) return "cannot allocate " + std::to_string(mb) + " MB for the hash table";
  clusters_ = std::move(fresh);  // the old table is released only once the new one exists
  cluster_count_ = clusters;
  mb_ = mb;
  clear();
  return "";
}

std::string TranspositionTable::resize(std::size_t mb) {
  if (mb < 1 || mb > kMaxMb)
    return "hash size " + std::to_string(mb) + " MB is outside 1.." + std::to_string(kMaxMb);
  if (mb == mb_ && clusters_) {
    clear();
    return "";
  }
  return allocate((mb << 20) / sizeof(Cluster), mb);
}

std::string TranspositionTable::resize_clusters_for_testing(std::size_t clusters) {
  if (clusters < 1) return "a table needs at least one cluster";
  return allocate(clusters, 0);
}

void TranspositionTable::clear() {
  // Large tables are zeroed by several threads: a GUI waits for `readyok` after `ucinewgame`.
  const auto zero = [this](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      for (auto& e : clusters_[i].entry) e.store(0, std::memory_order_relaxed);
      for (auto& e : clusters_[i].eval) e.store(std::int16_t(kNone), std::memory_order_relaxed);
      clusters_[i].unused = 0;
    }
  };
  constexpr std::size_t kClustersPerThread = (std::size_t(256) << 20) / sizeof(Cluster);
  const std::size_t threads = std::clamp<std::size_t>(
      cluster_count_ / kClustersPerThread, 1, std::max(1u, std::thread::hardware_concurrency()));
  if (threads == 1) {
    zero(0, cluster_count_);
  } else {
    std::vector<std::thread> workers;
    const std::size_t chunk = cluster_count_ / threads + 1;
    for (std::size_t t = 0; t < threads; ++t)
      workers.emplace_back(zero, std::min(t * chunk, cluster_count_),
                           std::min((t + 1) * chunk, cluster_count_));
    for (auto& w : workers) w.join();
  }
  generation_ = 0;
  evaluator_ = 0;
}

TTProbe TranspositionTable::probe(Key key) const {
  if (key_bits_) [[unlikely]]
    key = fold_key(key, key_bits_);
  Cluster& c = cluster_of(key);
  const std::uint16_t k16 = key16(key);
  TTProbe result;
  int victim = 0;
  int victim_worth = 1 << 30;
  for (int i = 0; i < kEntriesPerCluster; ++i) {
    const std::uint64_t raw = c.entry[i].load(std::memory_order_relaxed);
    if (raw == 0) {  // empty: the natural place for a new entry
      if (victim_worth > -(1 << 20)) {
        victim = i;
        victim_worth = -(1 << 20);
      }
      continue;
    }
    const TTData d = unpack(raw);
    if (std::uint16_t(raw) == k16) {
      result.hit = true;
      result.data = d;
      result.data.eval = c.eval[i].load(std::memory_order_relaxed);
      result.writer = TTWriter(&c.entry[i], &c.eval[i], generation_, key_bits_);
      return result;
    }
    const int w = worth(d, generation_);
    if (w < victim_worth) {
      victim = i;
      victim_worth = w;
    }
  }
  result.writer = TTWriter(&c.entry[victim], &c.eval[victim], generation_, key_bits_);
  return result;
}

void TranspositionTable::set_evaluator(std::uint64_t fingerprint) {
  // 0 names no evaluator: a cleared table holds no evaluations to forget.
  if (evaluator_ != 0 && evaluator_ != fingerprint)
    for (std::size_t i = 0; i < cluster_count_; ++i)
      for (auto& e : clusters_[i].eval) e.store(std::int16_t(kNone), std::memory_order_relaxed);
  evaluator_ = fingerprint;
}

int TranspositionTable::hashfull() const {
  const std::size_t sample = std::min<std::size_t>(1000, cluster_count_);
  int used = 0;
  for (std::size_t i = 0; i < sample; ++i)
    for (const auto& slot : clusters_[i].entry) {
      const std::uint64_t raw = slot.load(std::memory_order_relaxed);
      used += raw != 0 && unpack(raw).generation == generation_;
    }
  return int(std::uint64_t(used) * 1000 / (sample * kEntriesPerCluster));
}

}  // namespace tessera::search
