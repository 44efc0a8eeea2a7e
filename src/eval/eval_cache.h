// Per-thread caches of the evaluation: a pawn-structure table and a material table.
//
// Policy. Both are direct-mapped tables owned by one search thread (no sharing, no locks)
// and always replace on a miss. The pawn table is keyed by the pawn key (pawns and kings),
// so it may hold everything that depends on pawns and kings only: the pawn-structure terms,
// the static part of the passed-pawn terms, the king shelter and storm, and bitboards the rest
// of the evaluation reuses (passed pawns, pawn attacks and attack spans). The material table
// is keyed by the material key (piece counts) and holds the game phase, the imbalance terms,
// the specialised endgame (if any) and whether drawish-material scaling must be checked.
// Entries store the whole 64-bit key, so a hit is a real hit; hits and probes are counted
// for the bench's report.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/position.h"
#include "eval/endgame.h"
#include "eval/params.h"

namespace tessera::eval {

struct PawnEntry {
  Key key = 0;
  S score;  // white minus black
  Bitboard passed[2] = {0, 0};
  Bitboard attacks[2] = {0, 0};
  Bitboard attack_span[2] = {0, 0};  // squares the pawns attack now or after advancing
};

struct MaterialEntry {
  Key key = 0;
  S imbalance;  // white minus black
  std::uint8_t phase = 0;
  bool check_scaling = false;  // drawish material is possible: ask scale_factor()
  EndgameInfo endgame{};
};

struct CacheStats {
  std::uint64_t pawn_probes = 0;
  std::uint64_t pawn_hits = 0;
  std::uint64_t material_probes = 0;
  std::uint64_t material_hits = 0;
};

class EvalCache {
 public:
  static constexpr std::size_t kPawnEntries = std::size_t(1) << 14;      // 1 MiB
  static constexpr std::size_t kMaterialEntries = std::size_t(1) << 12;  // 64 KiB

  EvalCache() : pawns_(kPawnEntries), material_(kMaterialEntries) {}

  [[nodiscard]] PawnEntry& pawn_slot(Key key) { return pawns_[key & (kPawnEntries - 1)]; }
  [[nodiscard]] MaterialEntry& material_slot(Key key) {
    return material_[key & (kMaterialEntries - 1)];
  }
  void clear() {
    std::fill(pawns_.begin(), pawns_.end(), PawnEntry{});
    std::fill(material_.begin(), material_.end(), MaterialEntry{});
  }

  CacheStats stats;

 private:
  std::vector<PawnEntry> pawns_;
  std::vector<MaterialEntry> material_;
};

}  // namespace tessera::eval
