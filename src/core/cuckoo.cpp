// Builds the cuckoo table of reversible moves at compile time.
#include "core/cuckoo.h"

#include <utility>

#include "core/zobrist.h"

namespace tessera::detail {
namespace {

constexpr int distance(int a, int b) { return a > b ? a - b : b - a; }

// Whether a piece of type `t` moves from `a` to `b` on an empty board.
constexpr bool reaches(PieceType t, Square a, Square b) {
  const int df = distance(a.file(), b.file()), dr = distance(a.rank(), b.rank());
  switch (t) {
    case KNIGHT:
      return (df == 1 && dr == 2) || (df == 2 && dr == 1);
    case BISHOP:
      return df == dr && df != 0;
    case ROOK:
      return (df == 0) != (dr == 0);
    case QUEEN:
      return (df == dr && df != 0) || ((df == 0) != (dr == 0));
    case KING:
      return df <= 1 && dr <= 1 && (df | dr) != 0;
    default:
      return false;
  }
}

// Cuckoo insertion: an entry evicted from its slot moves to its other slot, until one is free.
constexpr void insert(CuckooTable& table, Key key, Move move) {
  int slot = CuckooTable::slot1(key);
  while (true) {
    std::swap(table.keys[slot], key);
    std::swap(table.moves[slot], move);
    if (move.is_none()) return;
    slot = slot == CuckooTable::slot1(key) ? CuckooTable::slot2(key) : CuckooTable::slot1(key);
  }
}

constexpr CuckooTable build_cuckoo_table() {
  CuckooTable table;
  for (int p = 0; p < kPieceCount; ++p) {
    const Piece piece = Piece::from_index(p);
    if (piece.type() == PAWN) continue;
    for (int a = 0; a < 64; ++a)
      for (int b = a + 1; b < 64; ++b) {
        if (!reaches(piece.type(), Square(a), Square(b))) continue;
        const Key diff = kZobrist.piece[p][a] ^ kZobrist.piece[p][b] ^ kZobrist.side;
        insert(table, diff, Move(Square(a), Square(b)));
        ++table.entries;
      }
  }
  return table;
}

}  // namespace

constinit const CuckooTable kCuckoo = build_cuckoo_table();

}  // namespace tessera::detail
