// Time management: how long the current move may take.
//
// Policy. Two budgets come out of the clock: the optimum (soft) time, checked between
// iterations and scaled there by how stable the best move and score are, and the maximum (hard)
// time, checked inside the search every few hundred nodes. The move overhead is taken off the
// clock before anything else, then a reserve for scheduling delays (50 ms plus four increments;
// a clock below that gets the minimal search), and both budgets are clamped to a small
// positive minimum, so a tiny, zero or negative clock still yields a quick legal move instead
// of a loss on time. With `movetime` both budgets are that time less the overhead, and only the
// hard one ends the search: the time asked for is spent. With no clock, no budget applies; with
// only the opponent's clock, that clock stands in for ours.
#pragma once

#include <chrono>
#include <cstdint>

#include "search/limits.h"

namespace tessera::search {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;

class TimeManager {
 public:
  // `us`: the side to move; `ply`: the game ply (used to spread time over the game).
  void init(const SearchLimits& limits, Color us, int game_ply, int move_overhead_ms,
            bool ponder_enabled);

  [[nodiscard]] bool enabled() const { return enabled_; }
  [[nodiscard]] std::int64_t optimum_ms() const { return optimum_; }
  [[nodiscard]] std::int64_t maximum_ms() const { return maximum_; }

 private:
  bool enabled_ = false;
  std::int64_t optimum_ = 0;
  std::int64_t maximum_ = 0;
};

}  // namespace tessera::search
