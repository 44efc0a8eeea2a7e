// The hash file: a transposition table saved to disk and loaded in a later run.
//
// Policy. A saved table is only of use to a run with the same Zobrist keys, entry packing and
// index function; the keys come from a fixed seed (core/zobrist.h), so every build of this
// version qualifies, and the header records a fingerprint of the key table and the layout so
// that any other file is refused. A file is the 72-byte header below, then one record per
// non-empty cluster in increasing cluster order (the cluster's index, its three raw entry
// words, then their three 16-bit evaluations in one word), then a 64-bit checksum of everything
// before it. The header names the evaluator of the stored evaluations; a run with another
// evaluator forgets them when it next searches (TranspositionTable::set_evaluator). Numbers are in
// the byte order of the writer (little-endian on x86-64 and aarch64); a file of the other order is
// refused, as its version reads wrong.
//
// Saving writes `path.tmp`, flushes it to the disk and renames it over `path`, so a crash or a
// full disk leaves the old file or the new one, never half of one. Loading reads the whole
// file into a second table of the current size and checks it before anything changes: a file
// that is missing, empty, truncated, of another format or keys, or damaged is refused with its
// own message and the table stays as it was. That second table is why a load needs memory for
// a moment for two tables. The table resumes one generation before the saved one, so that
// the next search, which starts a new generation, continues the saved search: the loaded
// entries count as its own, neither aged nor displaced by its shallower results, as if the
// analysis had never stopped.
//
// Rehashing. An entry holds only the key's low 16 bits; the cluster index holds its high bits
// (the index is the high half of key * clusters), and the bits between are lost. So a table of
// the same cluster count loads exactly, entry for entry. A table of another size is rehashed:
// the cluster index and the 16 bits bound the key to a range, and the entry is placed in every
// cluster of the new table that a key of that range can map to. When the old cluster count is
// a multiple of the new one that is exactly one cluster, the right one. Otherwise it is one or
// two clusters when shrinking and about new/old clusters when growing: the copy in the key's
// real cluster is found as before, the others are foreign entries that a probe matches only by
// a 16-bit coincidence (as in any full table) and that age out. Where more entries want a
// cluster than it holds, the most valuable stay, by the table's own replacement value.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/zobrist.h"
#include "search/limits.h"  // HashFileResult
#include "search/tt.h"

namespace tessera::search {

inline constexpr std::array<char, 8> kTTFileMagic = {'T', 'E', 'S', 'S', 'H', 'A', 'S', 'H'};
// Version 2: entries packed as TranspositionTable::pack of this version (three to a cluster,
// each with its evaluation), the cluster index the high half of key * clusters, the check the
// key's low 16 bits. A change to any of these must bump it. Version 1 (four entries to a
// cluster, no evaluations, a 6-bit generation) is refused by name.
inline constexpr std::uint32_t kTTFileVersion = 2;

// A digest of every Zobrist key: files written with other keys are refused.
[[nodiscard]] constexpr std::uint64_t zobrist_fingerprint() {
  std::uint64_t h = 0x5EED0F7E55E7A000ULL;
  const auto mix = [&h](std::uint64_t k) {
    h ^= k;
    h *= 0x100000001B3ULL;  // FNV prime, on 64-bit words
    h ^= h >> 29;
  };
  for (const auto& squares : kZobrist.piece)
    for (const Key k : squares) mix(k);
  for (const Key k : kZobrist.castle) mix(k);
  for (const Key k : kZobrist.ep_file) mix(k);
  mix(kZobrist.side);
  for (const auto& counts : kZobrist.material)
    for (const Key k : counts) mix(k);
  return h;
}

struct TTFileHeader {
  std::array<char, 8> magic = kTTFileMagic;
  std::uint32_t version = kTTFileVersion;
  std::uint32_t header_size = 72;
  std::uint64_t key_fingerprint = zobrist_fingerprint();
  std::uint32_t entry_size = 10;
  std::uint32_t cluster_size = 32;
  std::uint32_t entries_per_cluster = TranspositionTable::kEntriesPerCluster;
  std::uint8_t generation = 0;  // the table's generation when saved
  std::uint8_t key_bits = 0;    // collision mode of the table (0: full keys)
  std::uint16_t reserved = 0;
  std::uint64_t cluster_count = 0;
  std::uint64_t table_mb = 0;  // as set by Hash (0 for a test table of a chosen cluster count)
  std::uint64_t record_count = 0;
  std::uint64_t evaluator = 0;  // the fingerprint of the evaluator of the stored evaluations
};
static_assert(sizeof(TTFileHeader) == 72, "the header is 72 bytes with no padding");

// A record: a cluster's index, its entry words, and their evaluations as 16-bit fields of one
// word (entry i in bits 16i..16i+15).
struct TTFileRecord {
  std::uint64_t cluster = 0;
  std::array<std::uint64_t, TranspositionTable::kEntriesPerCluster> entries{};
  std::uint64_t evals = 0;

  [[nodiscard]] int eval(int i) const { return std::int16_t(std::uint16_t(evals >> (16 * i))); }
  void set_eval(int i, int eval) {
    evals |= std::uint64_t(std::uint16_t(std::int16_t(eval))) << (16 * i);
  }
};
static_assert(sizeof(TTFileRecord) == 40, "a record is 40 bytes with no padding");

// The file's checksum, fed 64-bit words in file order. Each step is a bijection of the state
// for a fixed word and of the word for a fixed state, so any one changed word always changes
// the result.
class TTFileChecksum {
 public:
  void add(std::uint64_t word) {
    state_ = (state_ ^ word) * 0x9E3779B97F4A7C15ULL;
    state_ = (state_ << 29) | (state_ >> 35);
  }
  [[nodiscard]] std::uint64_t value() const { return state_; }

 private:
  std::uint64_t state_ = 0xC0FFEE0DDBA11ULL;
};

// Writes `tt` to `path` (see the policy above). `entries` counts the entries written.
[[nodiscard]] HashFileResult save_tt_file(const TranspositionTable& tt, const std::string& path);
// Replaces `tt`'s contents by the file's, rehashed when its size differs; on any error `tt`
// is unchanged. `entries` counts the entries read.
// The loaded table's evaluator is the file's.
[[nodiscard]] HashFileResult load_tt_file(TranspositionTable& tt, const std::string& path);

// The clusters of a table of `new_clusters` that a key may map to, given that it maps to
// `cluster` of a table of `old_clusters` and ends in the 16 bits `check` (first <= last), or
// nothing (first > last) when no key fits both.
struct ClusterRange {
  std::uint64_t first = 1;
  std::uint64_t last = 0;
};
[[nodiscard]] ClusterRange rehash_range(std::uint64_t cluster, std::uint64_t old_clusters,
                                        std::uint16_t check, std::uint64_t new_clusters);

}  // namespace tessera::search
