// KPK bitbase: the exact win/draw verdict of every king-and-pawn-against-king position.
//
// Policy. King and pawn against king is the one pawn ending that the evaluation must get exactly
// right (its wins and draws are decided by opposition and key squares that no heuristic captures
// reliably), and the whole ending is small: with the pawn side called "white", the pawn on files
// a-d (the e-h files are mirror images), white king, black king and side to move there are
// 24 x 64 x 64 x 2 positions. They are solved once by retrograde analysis on first use and kept as
// a 24 KB bit table (one bit per position: win for the pawn side or not). The table lives in a
// function-local static const, so its construction is thread-safe and nothing is mutable
// afterwards. A position is won when the pawn side can force a safe promotion (to a queen, or to
// a rook where the queen would stalemate); everything the pawn side cannot force is a draw.
#pragma once

#include "core/types.h"

namespace tessera::eval {

// True when the side `strong` (king on `strong_king`, pawn on `pawn`) wins against the lone king
// on `weak_king` with `side_to_move` to move. Either colour may be the strong side and the pawn
// may stand on any file. Illegal placements (overlapping pieces, adjacent kings, a pawn on the
// first or last rank, the side not to move in check) answer false.
[[nodiscard]] bool kpk_is_win(Color strong, Square strong_king, Square pawn, Square weak_king,
                              Color side_to_move);

// Builds the table if it is not built yet (the first kpk_is_win() call does so anyway); lets a
// program pay the few milliseconds at start-up instead of inside the first search.
void kpk_init();

}  // namespace tessera::eval
