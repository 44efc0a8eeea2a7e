// KPK bitbase: retrograde analysis of king and pawn against king (see kpk.h for the policy).
//
// Layout. The pawn side is "white" and moves up the board; its pawn stands on files a-d, ranks
// 2-7 (pawn index = (rank - 1) * 4 + file, 0..23). A position's index is
// ((pawn_index * 2 + side_to_move) * 64 + white_king) * 64 + black_king, side_to_move 0 for the
// pawn side, so all positions with one pawn square form one contiguous slice of 8192.
//
// Solving. A pawn move always leads to a slice of a higher pawn rank (or to a promotion), a king
// move stays in the slice. The slices are therefore solved from the seventh rank down, each by
// iterating to a fixed point: a position with white to move is a win when some move reaches a
// win, a draw when every move reaches a draw (or white has none: stalemate); with black to move
// it is a draw when some move reaches a draw (capturing the undefended pawn among them, or
// stalemate), a win when every move reaches a win (or black is mated). What is still undecided
// at the fixed point is a draw: white cannot force anything there. Promotions are judged on the
// spot: a queen or rook that the black king cannot take, with black not stalemated, wins (the
// king and queen or rook against king win with white to move from anywhere); a bishop or knight
// never wins.
#include "eval/kpk.h"

#include <array>
#include <cstdint>
#include <vector>

#include "core/bitboard.h"

namespace tessera::eval {

namespace {

constexpr int kPawnSquares = 24;
constexpr int kSliceSize = 2 * 64 * 64;
constexpr int kPositions = kPawnSquares * kSliceSize;

[[nodiscard]] constexpr int pawn_index(Square pawn) { return (pawn.rank() - 1) * 4 + pawn.file(); }
[[nodiscard]] constexpr Square pawn_square(int index) { return Square(index % 4, index / 4 + 1); }
[[nodiscard]] constexpr int position_index(int pawn, int stm, Square wk, Square bk) {
  return ((pawn * 2 + stm) * 64 + wk.index()) * 64 + bk.index();
}

// Working states during the analysis. Successor states are OR-ed together, so a white position
// with any winning successor sees kWin, and one whose successors are all draws sees only kDraw.
enum State : std::uint8_t { kInvalid = 0, kUnknown = 1, kDraw = 2, kWin = 4 };

// The result of promoting on `queening` (white king on `wk`, black king on `bk`, black to move),
// choosing the best of queen and rook.
[[nodiscard]] State promotion_result(Square wk, Square queening, Square bk) {
  const Bitboard defended = king_attacks(wk);
  // The black king takes the new piece when it stands next to it undefended, whatever it is.
  if ((king_attacks(bk) & queening.bb() & ~defended) != 0) return kDraw;
  const Bitboard occupied = wk.bb() | queening.bb();  // without the black king: no shelter
  for (const bool queen : {true, false}) {
    const Bitboard attacks =
        queen ? queen_attacks(queening, occupied) : rook_attacks(queening, occupied);
    const Bitboard escapes = king_attacks(bk) & ~defended & ~attacks & ~wk.bb();
    // Escapes onto the new piece's square were excluded above (it is defended or not adjacent).
    if (escapes != 0 || (attacks & bk.bb()) != 0) return kWin;  // play on, or mate
  }
  return kDraw;  // both stalemate
}

// The state of one valid, still unknown position, from the states of its successors.
[[nodiscard]] State classify(const std::vector<std::uint8_t>& db, int pawn_idx, int stm, Square wk,
                             Square bk) {
  const Square pawn = pawn_square(pawn_idx);
  int r = 0;
  if (stm == 0) {  // white: king moves, pawn pushes
    Bitboard targets = king_attacks(wk) & ~king_attacks(bk) & ~pawn.bb() & ~bk.bb();
    while (targets != 0) r |= db[position_index(pawn_idx, 1, pop_lsb(targets), bk)];
    const Square push = pawn.offset(NORTH);
    if (push != wk && push != bk) {
      if (push.rank() == 7) {
        r |= promotion_result(wk, push, bk);
      } else {
        r |= db[position_index(pawn_index(push), 1, wk, bk)];
        const Square double_push = push.offset(NORTH);
        if (pawn.rank() == 1 && double_push != wk && double_push != bk)
          r |= db[position_index(pawn_index(double_push), 1, wk, bk)];
      }
    }
    if (r == 0) return kDraw;  // stalemate
    return (r & kWin) ? kWin : (r & kUnknown) ? kUnknown : kDraw;
  }
  // Black: king moves only; taking the pawn when it is undefended draws.
  const Bitboard attacked = king_attacks(wk) | pawn_attacks(WHITE, pawn);
  Bitboard targets = king_attacks(bk) & ~attacked;
  if ((targets & pawn.bb()) != 0) return kDraw;
  while (targets != 0) r |= db[position_index(pawn_idx, 0, wk, pop_lsb(targets))];
  if (r == 0) return (pawn_attacks(WHITE, pawn) & bk.bb()) != 0 ? kWin : kDraw;  // mate, stalemate
  return (r & kDraw) ? kDraw : (r & kUnknown) ? kUnknown : kWin;
}

[[nodiscard]] bool valid(Square pawn, int stm, Square wk, Square bk) {
  if (wk == bk || wk == pawn || bk == pawn) return false;
  if ((king_attacks(wk) & bk.bb()) != 0) return false;
  // With white to move the black king may not stand in check from the pawn.
  return !(stm == 0 && (pawn_attacks(WHITE, pawn) & bk.bb()) != 0);
}

using Table = std::array<std::uint64_t, kPositions / 64>;

[[nodiscard]] Table build_table() {
  std::vector<std::uint8_t> db(kPositions, kInvalid);
  // Seventh rank first: each slice depends only on itself and on slices of higher pawn ranks.
  for (int p = kPawnSquares - 1; p >= 0; --p) {
    const Square pawn = pawn_square(p);
    const int begin = p * kSliceSize;
    for (int i = 0; i < kSliceSize; ++i) {
      const int stm = i >> 12;
      if (valid(pawn, stm, Square((i >> 6) & 63), Square(i & 63))) db[begin + i] = kUnknown;
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (int i = 0; i < kSliceSize; ++i) {
        if (db[begin + i] != kUnknown) continue;
        const State s = classify(db, p, i >> 12, Square((i >> 6) & 63), Square(i & 63));
        if (s != kUnknown) {
          db[begin + i] = s;
          changed = true;
        }
      }
    }
  }
  Table bits{};
  for (int i = 0; i < kPositions; ++i)
    if (db[i] == kWin) bits[i / 64] |= std::uint64_t(1) << (i % 64);
  return bits;
}

[[nodiscard]] const Table& table() {
  static const Table kTable = build_table();
  return kTable;
}

}  // namespace

bool kpk_is_win(Color strong, Square strong_king, Square pawn, Square weak_king,
                Color side_to_move) {
  if (strong_king.is_none() || pawn.is_none() || weak_king.is_none()) return false;
  // Seen from the strong side, with the pawn on files a-d.
  Square wk = strong_king.relative(strong);
  Square p = pawn.relative(strong);
  Square bk = weak_king.relative(strong);
  if (p.file() >= 4) {
    wk = Square(wk.index() ^ 7);
    p = Square(p.index() ^ 7);
    bk = Square(bk.index() ^ 7);
  }
  if (p.rank() < 1 || p.rank() > 6) return false;
  const int stm = side_to_move == strong ? 0 : 1;
  if (!valid(p, stm, wk, bk)) return false;
  const int i = position_index(pawn_index(p), stm, wk, bk);
  return (table()[i / 64] >> (i % 64)) & 1;
}

void kpk_init() { (void)table(); }

}  // namespace tessera::eval
