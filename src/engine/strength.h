// Strength limiting for UCI_LimitStrength / UCI_Elo.
//
// Policy. A weaker Tessera plays like a shallower, less careful player rather than a strong one
// that blunders on purpose: it searches a node budget that halves with every so many Elo below
// its natural strength, and it scores several root moves (an internal MultiPV) so that it can
// then pick, at random, among the moves close to the best one. The chance of a move falls
// exponentially with how much worse it scored, with a temperature that grows as the asked-for
// Elo falls; moves further behind than a margin, and moves that lose to a mate, are never
// picked, and a mate of its own is always played. The mapping from Elo to budget and temperature
// was calibrated against Stockfish's own UCI_Elo (see README), so its constants are measured,
// not derived.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "core/types.h"

namespace tessera::engine {

struct StrengthLimit {
  static constexpr int kMinElo = 1320;
  static constexpr int kMaxElo = 3000;

  int elo = kMaxElo;

  // Nodes per move at this Elo; 0 (no budget) at kMaxElo.
  [[nodiscard]] std::uint64_t nodes() const;
  // The root moves scored for the choice.
  [[nodiscard]] static constexpr int candidates() { return 4; }
  // The softness of the choice, in centipawns (0: always the best move).
  [[nodiscard]] double temperature_cp() const;
  // Moves more than this far behind the best are never played.
  [[nodiscard]] int margin_cp() const;
};

// One scored root move of the last search.
struct ScoredMove {
  Move move;
  Move reply;     // the expected answer, for `ponder`; none() when unknown
  int score = 0;  // centipawns or mate score, from the side to move
  bool is_mate = false;
  int mate_moves = 0;  // when is_mate: moves to mate, negative when being mated
};

// Picks the move to play among `lines` (the best first); returns its index. Empty: 0.
[[nodiscard]] std::size_t choose_weaker_move(const std::vector<ScoredMove>& lines,
                                             const StrengthLimit& limit, std::mt19937_64& rng);

}  // namespace tessera::engine
