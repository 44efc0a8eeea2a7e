// Transposition table: a fixed-size hash of search results shared by all search threads.
//
// Policy. The table is an array of clusters; a cluster is one aligned 32-byte block (half a
// cache line) holding three 10-byte entries, and a position maps to exactly one cluster, chosen
// by the high half of (key * cluster count), so any table size works. The array lives in large
// pages where the system offers them (core/large_pages.h), so that a probe seldom waits for a
// page walk. An entry is a 64-bit word (a 16-bit verification key, the key's low 16 bits,
// independent of the index; the best or refuting move; the score; the draft; the bound; a ttPv
// bit, set when the position was once on a principal variation; a 5-bit generation that ages
// entries from earlier searches) and a 16-bit static evaluation; the cluster's last two bytes
// are unused. Mate scores are stored
// relative to the storing node and turned back into root-relative scores on the way out
// (score_to_tt / score_from_tt).
//
// The evaluation is the evaluator's verdict on the position before any search-dependent
// adjustment (fifty-move scaling, correction histories), so a hit saves evaluating again. A node
// that misses stores an entry with its evaluation and no result (bound None, the lowest draft),
// which any real result overwrites. Evaluations belong to one evaluator: the table remembers
// which (set_evaluator) and forgets every evaluation when it changes.
//
// Replacement: an entry with the same verification key is reused; otherwise the empty or least
// valuable entry of the cluster is overwritten, value being the draft minus a penalty for each
// generation of age. A store that brings no move keeps the move already stored for that key.
// A store into an entry that already holds the same key overwrites it only when it is exact,
// comes from a newer search, or is not much shallower than what is there.
//
// Races are allowed by design: threads read and write without locks, but always a whole word
// at once (relaxed atomics: the 64-bit entry word, the 16-bit evaluation), so nothing is torn
// and ThreadSanitizer has nothing to report. An entry word and its evaluation may still come
// from different writes, and a probe may match another position whose keys collide; callers
// must therefore verify a table move with Position::pseudo_legal and Position::legal before
// they use it, and treat the score and the evaluation as hints.
//
// The keys are the same in every run (core/zobrist.h), so the table can be saved to a file and
// loaded in a later run: see tt_file.h, which uses the whole-table access below.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "core/large_pages.h"
#include "core/types.h"
#include "search/limits.h"
#include "search/score.h"

namespace tessera::search {

// Converts a root-relative score to the node-relative form the table stores (and back). A
// mate or tablebase score counts plies from the root; in the table it counts them from the
// storing node.
[[nodiscard]] constexpr int score_to_tt(int score, int ply);
// `rule50` guards against mates that the fifty-move rule would turn into draws: a stored mate
// further away than the plies left before the fifty-move draw comes back as a plain bound
// just outside the decisive range (mates and tablebase results), the best score that is not a
// proven result.
[[nodiscard]] constexpr int score_from_tt(int score, int ply, int rule50);

// The decoded content of one entry.
struct TTData {
  Move move = Move::none();
  int score = 0;  // node-relative (convert with score_from_tt); kNone in an evaluation-only entry
  int depth = 0;
  Bound bound = Bound::None;  // None: the entry holds only an evaluation
  bool pv = false;            // the position was once on a principal variation
  int generation = 0;
  int eval = kNone;  // the evaluator's static evaluation, or kNone
};

class TranspositionTable;

// The draft of an entry that holds only an evaluation: the lowest storable, below every
// quiescence draft, so such an entry is the first to be replaced.
inline constexpr int kTTDepthNone = -8;

// The high 64 bits of a 64 x 64-bit product: maps a key uniformly onto [0, n).
[[nodiscard]] inline std::size_t mul_hi64(std::uint64_t a, std::uint64_t b) {
  __extension__ using U128 = unsigned __int128;
  return std::size_t((U128(a) * U128(b)) >> 64);
}

// Where a probed position's result is to be written back: the matching entry, or the entry
// that the replacement policy chose for it.
class TTWriter {
 public:
  TTWriter() = default;
  // Stores a result. `score` must already be node-relative (score_to_tt); `eval` is the
  // static evaluation (kNone when the node has none, for instance in check).
  void write(Key key, int score, int depth, Bound bound, Move move, int eval = kNone,
             bool pv = false) const;
  // Stores only the static evaluation of a position the table does not hold yet.
  void write_eval(Key key, int eval, bool pv) const {
    write(key, kNone, kTTDepthNone, Bound::None, Move::none(), eval, pv);
  }

 private:
  friend class TranspositionTable;

  TTWriter(std::atomic<std::uint64_t>* slot, std::atomic<std::int16_t>* eval_slot,
           std::uint8_t generation, std::uint8_t key_bits)
      : slot_(slot), eval_slot_(eval_slot), generation_(generation), key_bits_(key_bits) {}
  std::atomic<std::uint64_t>* slot_ = nullptr;
  std::atomic<std::int16_t>* eval_slot_ = nullptr;
  std::uint8_t generation_ = 0;
  std::uint8_t key_bits_ = 0;
};

struct TTProbe {
  bool hit = false;
  TTData data;  // meaningful only when hit
  TTWriter writer;
};

class TranspositionTable {
 public:
  static constexpr int kEntriesPerCluster = 3;
  static constexpr std::size_t kMaxMb = std::size_t(1) << 20;  // 1 TiB, far above any machine
  static constexpr int kDepthOffset = -kTTDepthNone;  // depths from kTTDepthNone up are storable

  TranspositionTable();  // 1 MiB, so that a table always exists
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  // Reallocates to `mb` mebibytes (1..kMaxMb) and clears. On failure (bad size or no memory)
  // the old table stays, still usable, and the result is an error message; "" on success.
  [[nodiscard]] std::string resize(std::size_t mb);
  void clear();
  // Starts a new search: entries written from now on belong to a new generation.
  void new_search() { generation_ = std::uint8_t((generation_ + 1) & kGenerationMask); }
  [[nodiscard]] int generation() const { return generation_; }
  // Names the evaluator whose evaluations the coming searches store (a nonzero fingerprint
  // that differs between evaluators); when it changes, the stored evaluations are forgotten.
  void set_evaluator(std::uint64_t fingerprint);
  [[nodiscard]] std::uint64_t evaluator() const { return evaluator_; }

  [[nodiscard]] TTProbe probe(Key key) const;
  // Starts loading the cluster of `key` into the cache (the caller will probe it soon).
  void prefetch(Key key) const {
    [[maybe_unused]] const void* address = &cluster_of(fold_key(key, key_bits_));
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
    _mm_prefetch(static_cast<const char*>(address), _MM_HINT_T0);
#else
    __builtin_prefetch(address);
#endif
  }
  // Per mille of the entries in a sample of clusters that the current search wrote.
  [[nodiscard]] int hashfull() const;

  [[nodiscard]] std::size_t size_mb() const { return mb_; }
  [[nodiscard]] std::size_t cluster_count() const { return cluster_count_; }

  // Used only by tests: a table of exactly `clusters` clusters, to force collisions.
  [[nodiscard]] std::string resize_clusters_for_testing(std::size_t clusters);
  // Collision mode, for tests and stress runs: with `bits` in 1..16 every key is folded onto
  // 2^bits values before use, so unrelated positions share entries (index and check alike) all
  // the time and the search must survive foreign moves and scores. 0 restores full keys.
  void set_key_bits(int bits) { key_bits_ = std::uint8_t(bits); }
  [[nodiscard]] int key_bits() const { return key_bits_; }
  [[nodiscard]] static Key fold_key(Key key, int bits) {
    if (bits == 0) return key;
    return ((key & ((Key(1) << bits) - 1)) + 1) * 0x9E3779B97F4A7C15ULL;  // odd: spreads bits
  }

  // ----- Whole-table access for the hash file (tt_file.h); only while no search runs.
  [[nodiscard]] std::uint64_t raw_entry(std::size_t cluster, int slot) const {
    return clusters_[cluster].entry[slot].load(std::memory_order_relaxed);
  }
  [[nodiscard]] int raw_eval(std::size_t cluster, int slot) const {
    return clusters_[cluster].eval[slot].load(std::memory_order_relaxed);
  }
  void set_raw_entry(std::size_t cluster, int slot, std::uint64_t raw, int eval) {
    clusters_[cluster].entry[slot].store(raw, std::memory_order_relaxed);
    clusters_[cluster].eval[slot].store(std::int16_t(eval), std::memory_order_relaxed);
  }
  void set_generation(int generation) {
    generation_ = std::uint8_t(std::uint64_t(generation) & kGenerationMask);
  }
  // Sets the evaluator without forgetting anything: the loaded evaluations are the file's.
  void set_evaluator_of_contents(std::uint64_t fingerprint) { evaluator_ = fingerprint; }
  // Makes this an empty table of `other`'s size; on failure it stays as it was (see resize).
  [[nodiscard]] std::string allocate_like(const TranspositionTable& other) {
    return allocate(other.cluster_count_, other.mb_);
  }
  // Exchanges the entries, size, generation and evaluator (not the collision mode) with
  // `other`.
  void swap_contents(TranspositionTable& other) noexcept;
  // The replacement value of an entry when the current generation is `current`: deep and
  // recent entries are worth keeping.
  [[nodiscard]] static int worth(const TTData& d, int current);

  // The packing, public for the tests.
  static constexpr std::uint64_t kGenerationMask = 31;
  [[nodiscard]] static std::uint64_t pack(std::uint16_t key16, Move move, int score, int depth,
                                          Bound bound, bool pv, std::uint8_t generation);
  // The entry word's fields; the evaluation, kept beside the word, is left at kNone.
  [[nodiscard]] static TTData unpack(std::uint64_t raw);
  [[nodiscard]] static std::uint16_t key16(Key key) { return std::uint16_t(key); }

 private:
  struct alignas(32) Cluster {
    std::atomic<std::uint64_t> entry[kEntriesPerCluster];
    std::atomic<std::int16_t> eval[kEntriesPerCluster];
    std::uint16_t unused;
  };
  static_assert(sizeof(std::atomic<std::uint64_t>) == 8, "an entry word is 64 bits");
  static_assert(sizeof(std::atomic<std::int16_t>) == 2, "an evaluation is 16 bits");
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free &&
                    std::atomic<std::int16_t>::is_always_lock_free,
                "entries must be lock-free");
  static_assert(kNone <= INT16_MAX && -kNone >= INT16_MIN, "evaluations and kNone fit 16 bits");
  static_assert(sizeof(Cluster) == 32 && alignof(Cluster) == 32,
                "a cluster fills exactly one aligned 32-byte slot of a cache line");

  [[nodiscard]] Cluster& cluster_of(Key key) const {
    return clusters_[mul_hi64(key, cluster_count_)];
  }
  [[nodiscard]] std::string allocate(std::size_t clusters, std::size_t mb);

  LargeArray<Cluster> clusters_;
  std::size_t cluster_count_ = 0;
  std::size_t mb_ = 0;
  std::uint64_t evaluator_ = 0;
  std::uint8_t generation_ = 0;
  std::uint8_t key_bits_ = 0;
};

constexpr int score_to_tt(int score, int ply) {
  if (score >= kTbWinInMaxPly) return score + ply;  // mates and tablebase wins
  if (score <= kTbLossInMaxPly) return score - ply;
  return score;
}

constexpr int score_from_tt(int score, int ply, int rule50) {
  if (score == kNone) return kNone;
  if (score >= kMateInMaxPly) {
    // A mate further than the fifty-move counter allows may really be a draw.
    if (kMate - score > 100 - rule50) return kTbWinInMaxPly - 1;
    return score - ply;
  }
  if (score <= kMatedInMaxPly) {
    if (kMate + score > 100 - rule50) return kTbLossInMaxPly + 1;
    return score + ply;
  }
  // Tablebase results already account for the fifty-move rule.
  if (score >= kTbWinInMaxPly) return score - ply;
  if (score <= kTbLossInMaxPly) return score + ply;
  return score;
}

}  // namespace tessera::search
