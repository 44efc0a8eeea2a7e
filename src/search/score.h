// Search scores: centipawns from the side to move, with mate scores at the ends of the range.
//
// A mate found `ply` plies below the root scores kMate - ply (mating) or -kMate + ply (being
// mated), so shorter mates score higher. Every score, mates included, fits in an int16, which is
// how the transposition table stores it. Scores in the table are relative to the node that
// stored them (see tt.h), everything else is relative to the root.
//
// A tablebase win found `ply` plies below the root scores kTbWin - ply: above every evaluation
// (those stay within +-20000), below every mate, and sooner wins higher. Like mates, the table
// stores them relative to the storing node (tt.h).
#pragma once

#include "core/types.h"

namespace tessera::search {

inline constexpr int kDraw = 0;
inline constexpr int kMate = 32000;
inline constexpr int kInfinite = 32001;
inline constexpr int kNone = 32002;  // "no score": never a real search result
// Any score at least this large is a mate found inside the search horizon.
inline constexpr int kMateInMaxPly = kMate - kMaxPly;
inline constexpr int kMatedInMaxPly = -kMateInMaxPly;
// Static evaluations are clamped below the mate range so they can never pose as a mate.
inline constexpr int kMaxEval = kMateInMaxPly - 1;

static_assert(kNone < 32767, "every score must fit in an int16");

// Tablebase wins and losses, reached within the search.
inline constexpr int kTbWin = kMateInMaxPly - 1;
inline constexpr int kTbWinInMaxPly = kTbWin - kMaxPly;
inline constexpr int kTbLossInMaxPly = -kTbWinInMaxPly;
static_assert(kTbWinInMaxPly > 20000, "tablebase scores must lie above every evaluation");

[[nodiscard]] constexpr int mate_in(int ply) { return kMate - ply; }
[[nodiscard]] constexpr int mated_in(int ply) { return -kMate + ply; }
[[nodiscard]] constexpr bool is_mate_score(int s) {
  return s >= kMateInMaxPly || s <= kMatedInMaxPly;
}

[[nodiscard]] constexpr int tb_win_in(int ply) { return kTbWin - ply; }
[[nodiscard]] constexpr int tb_loss_in(int ply) { return -kTbWin + ply; }
// A mate or a tablebase win or loss: a result, not an estimate.
[[nodiscard]] constexpr bool is_win(int s) { return s >= kTbWinInMaxPly; }
[[nodiscard]] constexpr bool is_loss(int s) { return s <= kTbLossInMaxPly; }
[[nodiscard]] constexpr bool is_decisive(int s) { return is_win(s) || is_loss(s); }

// A fail-high in a null-window node is a bound, not a measure: one found at a shallow draft
// overshoots more often than one from a deep search, so it is pulled towards beta, the more the
// shallower the draft. The result still fails high (it is at least beta); decisive scores are
// kept as they are.
[[nodiscard]] constexpr int damped_fail_high(int score, int beta, int depth) {
  if (is_decisive(score) || is_decisive(beta)) return score;
  return (score * depth + beta) / (depth + 1);
}

// Mate in n moves (n > 0 when the side to move mates, n < 0 when it is mated) for a mate score:
// a mate in `plies` plies is (plies + 1) / 2 moves.
[[nodiscard]] constexpr int mate_moves(int s) {
  return s > 0 ? (kMate - s + 1) / 2 : -((kMate + s + 1) / 2);
}

}  // namespace tessera::search
