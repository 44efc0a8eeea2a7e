// Time management: how long the current move may take.
//
// Policy. Two budgets come out of the clock: the optimum (soft) time, checked between
// iterations and scaled there by what the search has learnt (soft_limit_ms), and the maximum
// (hard) time, checked inside the search every 1024 nodes. The move overhead is taken off the
// clock first, then a fixed reserve for scheduling delays (what a loaded machine was measured
// to add between the hard limit and the bestmove; a clock below it gets the minimal search).
// The optimum is an even share of what is left over the moves the game may still last plus
// the whole increment, so the clock drains towards the reserve instead of settling high; both
// budgets stay below a fixed share of what is left, so the increment can never make a move
// exceed the clock, and both are clamped to a small positive minimum, so a tiny, zero or
// negative clock still yields a quick legal move instead of a loss on time. With `movetime`
// both budgets are that time less the overhead, and only the hard one ends the search. With no
// clock, no budget applies; with only the opponent's clock, that clock stands in for ours.
#pragma once

#include <chrono>
#include <cstdint>

#include "search/limits.h"

namespace tessera::search {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;

// What the main thread knows after a completed iteration, for the soft limit.
struct IterationSignals {
  int depths_since_best_changed = 0;  // completed depths the best move has stayed best
  double best_move_node_share = 1.0;  // the best move's share of the nodes searched so far
  double best_move_changes = 0.0;     // changes of the best move, halved every iteration
  int score_drop = 0;  // how far the score fell below its recent average (negative: rose)
  bool single_legal_move = false;
};

class TimeManager {
 public:
  // `us`: the side to move; `ply`: the game ply (used to spread time over the game).
  void init(const SearchLimits& limits, Color us, int game_ply, int move_overhead_ms,
            bool ponder_enabled);

  [[nodiscard]] bool enabled() const { return enabled_; }
  [[nodiscard]] std::int64_t optimum_ms() const { return optimum_; }
  [[nodiscard]] std::int64_t maximum_ms() const { return maximum_; }
  // The time after which no new iteration starts: the optimum scaled up when the best move is
  // new, disputed (a small share of the nodes, several changes) or losing ground, and down
  // when it has held for many depths and took nearly all the nodes; never past the maximum.
  [[nodiscard]] std::int64_t soft_limit_ms(const IterationSignals& signals) const;

  // Kept back beyond the move overhead for scheduling delays (see timeman.cpp).
  static constexpr std::int64_t kReserveMs = 200;

 private:
  bool enabled_ = false;
  std::int64_t optimum_ = 0;
  std::int64_t maximum_ = 0;
};

}  // namespace tessera::search
