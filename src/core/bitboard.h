// Bitboard primitives and attack tables.
//
// Leaper attacks (pawn, knight, king) and the between/line tables are built at compile time, in
// attacks.cpp.
// Slider attacks come from one table per piece indexed either by PEXT (when the build targets
// BMI2) or by fancy magic multiplication (portable fallback, also used on aarch64). That table
// is filled once, before main, and is read-only afterwards.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#if defined(__BMI2__) && !defined(TESSERA_NO_PEXT)
#include <immintrin.h>
#define TESSERA_USE_PEXT 1
#endif

#include "core/types.h"

namespace tessera {

inline constexpr Bitboard kFileA = 0x0101010101010101ULL;
inline constexpr Bitboard kFileH = kFileA << 7;
inline constexpr Bitboard kRank1 = 0xFFULL;
inline constexpr Bitboard kRank8 = kRank1 << 56;
inline constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;

[[nodiscard]] constexpr Bitboard file_bb(int file) { return kFileA << file; }
[[nodiscard]] constexpr Bitboard rank_bb(int rank) { return kRank1 << (8 * rank); }
[[nodiscard]] constexpr int popcount(Bitboard b) { return std::popcount(b); }
[[nodiscard]] constexpr Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
[[nodiscard]] constexpr Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
[[nodiscard]] constexpr Square pop_lsb(Bitboard& b) {
  const Square s = lsb(b);
  b &= b - 1;
  return s;
}
[[nodiscard]] constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// Shift every bit one step in a compass direction, dropping bits that leave the board.
enum Direction : int { NORTH = 8, SOUTH = -8, EAST = 1, WEST = -1 };
template <int D>
[[nodiscard]] constexpr Bitboard shift(Bitboard b) {
  if constexpr (D == NORTH) return b << 8;
  if constexpr (D == SOUTH) return b >> 8;
  if constexpr (D == EAST) return (b & ~kFileH) << 1;
  if constexpr (D == WEST) return (b & ~kFileA) >> 1;
  if constexpr (D == NORTH + EAST) return (b & ~kFileH) << 9;
  if constexpr (D == NORTH + WEST) return (b & ~kFileA) << 7;
  if constexpr (D == SOUTH + EAST) return (b & ~kFileH) >> 7;
  if constexpr (D == SOUTH + WEST) return (b & ~kFileA) >> 9;
  return 0;
}

[[nodiscard]] constexpr Bitboard pawn_attacks_bb(Color c, Bitboard pawns) {
  return c == WHITE ? shift<NORTH + EAST>(pawns) | shift<NORTH + WEST>(pawns)
                    : shift<SOUTH + EAST>(pawns) | shift<SOUTH + WEST>(pawns);
}

namespace detail {

[[nodiscard]] constexpr Bitboard step_attacks(int sq, const int (*deltas)[2], int count) {
  Bitboard result = 0;
  for (int i = 0; i < count; ++i) {
    const int f = (sq & 7) + deltas[i][0];
    const int r = (sq >> 3) + deltas[i][1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) result |= Bitboard(1) << (r * 8 + f);
  }
  return result;
}

// Slider attacks computed ray by ray; slow, used to build tables and in constexpr code.
[[nodiscard]] constexpr Bitboard slow_slider_attacks(int sq, Bitboard occupied, bool diagonal) {
  constexpr int kRook[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  constexpr int kBishop[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  Bitboard result = 0;
  for (int d = 0; d < 4; ++d) {
    const int df = diagonal ? kBishop[d][0] : kRook[d][0];
    const int dr = diagonal ? kBishop[d][1] : kRook[d][1];
    int f = (sq & 7) + df, r = (sq >> 3) + dr;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      const Bitboard b = Bitboard(1) << (r * 8 + f);
      result |= b;
      if (occupied & b) break;
      f += df;
      r += dr;
    }
  }
  return result;
}

struct LeaperTables {
  std::array<std::array<Bitboard, 64>, 2> pawn{};
  std::array<Bitboard, 64> knight{};
  std::array<Bitboard, 64> king{};
  // between[a][b]: squares strictly between a and b on a line, plus b itself (so that a check
  // mask built from it contains the checker); just b when a and b are not aligned.
  std::array<std::array<Bitboard, 64>, 64> between{};
  // line[a][b]: the whole board-crossing line through a and b, or 0 when not aligned.
  std::array<std::array<Bitboard, 64>, 64> line{};
};

// Computed at compile time in attacks.cpp (constinit), so static initialisers may use it; one
// translation unit pays for the constant evaluation instead of every includer.
extern const LeaperTables kLeapers;

// One slider's lookup: the relevant-occupancy mask, the magic multiplier (unused with PEXT),
// the shift, and the offset of this square's slice of the shared attack table.
struct SliderEntry {
  Bitboard mask = 0;
  Bitboard magic = 0;
  unsigned offset = 0;
  unsigned shift = 0;

  [[nodiscard]] unsigned index(Bitboard occupied) const {
#ifdef TESSERA_USE_PEXT
    return offset + unsigned(_pext_u64(occupied, mask));
#else
    return offset + unsigned(((occupied & mask) * magic) >> shift);
#endif
  }
};

struct SliderTables {
  std::array<SliderEntry, 64> rook{};
  std::array<SliderEntry, 64> bishop{};
  std::array<Bitboard, 0x19000> rook_attacks{};   // 102,400 entries
  std::array<Bitboard, 0x1480> bishop_attacks{};  // 5,248 entries
};

// Built once at static initialisation (attacks.cpp); read-only afterwards. No other static
// initialiser may use slider attacks.
extern const SliderTables kSliders;

}  // namespace detail

[[nodiscard]] inline Bitboard pawn_attacks(Color c, Square s) {
  return detail::kLeapers.pawn[c][s.index()];
}
[[nodiscard]] inline Bitboard knight_attacks(Square s) {
  return detail::kLeapers.knight[s.index()];
}
[[nodiscard]] inline Bitboard king_attacks(Square s) { return detail::kLeapers.king[s.index()]; }
[[nodiscard]] inline Bitboard between_bb(Square a, Square b) {
  return detail::kLeapers.between[a.index()][b.index()];
}
[[nodiscard]] inline Bitboard line_bb(Square a, Square b) {
  return detail::kLeapers.line[a.index()][b.index()];
}
[[nodiscard]] inline bool aligned(Square a, Square b, Square c) {
  return (line_bb(a, b) & c.bb()) != 0;
}

[[nodiscard]] inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const auto& t = detail::kSliders;
  return t.bishop_attacks[t.bishop[s.index()].index(occupied)];
}
[[nodiscard]] inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const auto& t = detail::kSliders;
  return t.rook_attacks[t.rook[s.index()].index(occupied)];
}
[[nodiscard]] inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}
// Attacks of a non-pawn piece type from `s`.
[[nodiscard]] inline Bitboard piece_attacks(PieceType t, Square s, Bitboard occupied) {
  switch (t) {
    case KNIGHT:
      return knight_attacks(s);
    case BISHOP:
      return bishop_attacks(s, occupied);
    case ROOK:
      return rook_attacks(s, occupied);
    case QUEEN:
      return queen_attacks(s, occupied);
    case KING:
      return king_attacks(s);
    default:
      return 0;
  }
}

}  // namespace tessera
