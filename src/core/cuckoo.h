// The cuckoo table of reversible moves, for seeing a repetition one ply before it happens.
//
// Policy: every move of a knight, bishop, rook, queen or king between two squares it could
// join on an empty board (3,668 of them: each pair of squares once, for each piece of each
// colour) is stored under its Zobrist difference, the XOR of the piece's keys on both squares
// and the side key. Two hash functions of that difference pick two of 8,192 slots and cuckoo
// hashing keeps each entry in one of its two, so a lookup reads at most two slots. Pawn moves
// and castling are never reversible, so they are absent. Built at compile time; read-only.
#pragma once

#include <array>
#include <cstdint>

#include "core/types.h"

namespace tessera {

struct CuckooTable {
  static constexpr int kSize = 8192;
  std::array<Key, kSize> keys{};
  std::array<Move, kSize> moves{};
  int entries = 0;  // how many moves were stored (3,668: checked by a test)

  [[nodiscard]] static constexpr int slot1(Key k) { return int(k & (kSize - 1)); }
  [[nodiscard]] static constexpr int slot2(Key k) { return int((k >> 16) & (kSize - 1)); }

  // The reversible move whose Zobrist difference is `diff`, or Move::none(). The move is
  // stored from the lower square to the higher; which end the piece stands on is the caller's
  // to find out.
  [[nodiscard]] constexpr Move find(Key diff) const {
    if (int i = slot1(diff); keys[i] == diff) return moves[i];
    if (int i = slot2(diff); keys[i] == diff) return moves[i];
    return Move::none();
  }
};

namespace detail {
extern const CuckooTable kCuckoo;
}

[[nodiscard]] inline const CuckooTable& cuckoo_table() { return detail::kCuckoo; }

}  // namespace tessera
