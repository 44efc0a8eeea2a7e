// The network's score scaled by the material left on the board.
//
// Policy. An advantage is worth less as the pieces that could press it leave the board: the
// network, trained on game results, reads a two-pawn lead in a thin ending as surely as one in
// the middlegame, yet endings with a nominal lead are drawn far more often. The score is
// multiplied by (base + material) / (base + starting material), with material in pawns (pawn
// 1, knight and bishop 3, rook 5, queen 9, both colours): 1 at the start, falling linearly
// towards base / (base + 78) on a bare board. The sign never changes and 0 stays 0. `base` is
// the search's tunable EvalMaterialBase.
#pragma once

#include "core/bitboard.h"
#include "core/position.h"

namespace tessera::eval {

inline constexpr int kStartingMaterialInPawns = 16 + 8 * 3 + 4 * 5 + 2 * 9;

// Both colours' material in pawns (78 at the start; more after a promotion).
[[nodiscard]] inline int material_in_pawns(const Position& pos) {
  return popcount(pos.pieces(PAWN)) + 3 * popcount(pos.pieces(KNIGHT) | pos.pieces(BISHOP)) +
         5 * popcount(pos.pieces(ROOK)) + 9 * popcount(pos.pieces(QUEEN));
}

[[nodiscard]] inline int scaled_by_material(const Position& pos, int score, int base) {
  return score * (base + material_in_pawns(pos)) / (base + kStartingMaterialInPawns);
}

}  // namespace tessera::eval
