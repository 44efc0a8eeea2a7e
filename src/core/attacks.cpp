// Fills the slider attack tables. With PEXT the index is the extracted occupancy; without it,
// magic multipliers are searched for at start-up from a fixed-seed generator, so every run and
// every build finds the same ones (a few milliseconds).
#include <cstdint>
#include <vector>

#include "core/bitboard.h"

namespace tessera::detail {
namespace {

// Relevant occupancy: the rays from `sq` without their last square (an edge blocker never
// changes the attack set).
Bitboard relevant_mask(int sq, bool diagonal) {
  const Bitboard edges =
      ((kRank1 | kRank8) & ~rank_bb(sq >> 3)) | ((kFileA | kFileH) & ~file_bb(sq & 7));
  return slow_slider_attacks(sq, 0, diagonal) & ~edges;
}

struct Xorshift {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  std::uint64_t sparse() { return next() & next() & next(); }
};

template <std::size_t N>
void fill(std::array<SliderEntry, 64>& entries, std::array<Bitboard, N>& table, bool diagonal) {
  unsigned offset = 0;
  [[maybe_unused]] Xorshift rng{0x9E3779B97F4A7C15ULL ^ (diagonal ? 1 : 2)};
  std::vector<Bitboard> occupancies, attacks;
  for (int sq = 0; sq < 64; ++sq) {
    SliderEntry& e = entries[sq];
    e.mask = relevant_mask(sq, diagonal);
    const int bits = popcount(e.mask);
    e.shift = unsigned(64 - bits);
    e.offset = offset;
    const std::size_t size = std::size_t(1) << bits;
    occupancies.clear();
    attacks.clear();
    Bitboard subset = 0;  // Carry-Rippler enumeration of all subsets of the mask
    do {
      occupancies.push_back(subset);
      attacks.push_back(slow_slider_attacks(sq, subset, diagonal));
      subset = (subset - e.mask) & e.mask;
    } while (subset);
#ifdef TESSERA_USE_PEXT
    for (std::size_t i = 0; i < size; ++i) table[e.index(occupancies[i])] = attacks[i];
#else
    std::vector<int> epoch(size, 0);
    for (int attempt = 1;; ++attempt) {
      do e.magic = rng.sparse();
      while (popcount((e.mask * e.magic) >> 56) < 6);
      bool ok = true;
      for (std::size_t i = 0; i < size && ok; ++i) {
        const unsigned idx = e.index(occupancies[i]) - offset;
        if (epoch[idx] != attempt) {
          epoch[idx] = attempt;
          table[offset + idx] = attacks[i];
        } else if (table[offset + idx] != attacks[i]) {
          ok = false;
        }
      }
      if (ok) break;
    }
#endif
    offset += unsigned(size);
  }
}

SliderTables build_slider_tables() {
  SliderTables t;
  fill(t.rook, t.rook_attacks, false);
  fill(t.bishop, t.bishop_attacks, true);
  return t;
}

constexpr LeaperTables build_leaper_tables() {
  constexpr int kKnight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  constexpr int kKing[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                               {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  constexpr int kWhitePawn[2][2] = {{1, 1}, {-1, 1}};
  constexpr int kBlackPawn[2][2] = {{1, -1}, {-1, -1}};
  LeaperTables t;
  for (int s = 0; s < 64; ++s) {
    t.knight[s] = step_attacks(s, kKnight, 8);
    t.king[s] = step_attacks(s, kKing, 8);
    t.pawn[WHITE][s] = step_attacks(s, kWhitePawn, 2);
    t.pawn[BLACK][s] = step_attacks(s, kBlackPawn, 2);
  }
  for (int a = 0; a < 64; ++a) {
    for (int b = 0; b < 64; ++b) {
      const Bitboard bb = Bitboard(1) << b;
      t.between[a][b] = bb;
      if (a == b) continue;
      for (const bool diagonal : {false, true}) {
        if (slow_slider_attacks(a, 0, diagonal) & bb) {
          t.line[a][b] =
              (slow_slider_attacks(a, 0, diagonal) & slow_slider_attacks(b, 0, diagonal)) |
              (Bitboard(1) << a) | bb;
          t.between[a][b] = (slow_slider_attacks(a, bb, diagonal) &
                             slow_slider_attacks(b, Bitboard(1) << a, diagonal)) |
                            bb;
        }
      }
    }
  }
  return t;
}

}  // namespace

constinit const LeaperTables kLeapers = build_leaper_tables();
const SliderTables kSliders = build_slider_tables();

}  // namespace tessera::detail
