#include "search/timeman.h"

#include <algorithm>

namespace tessera::search {

namespace {
// No budget goes below this: enough for a depth-1 search, never a reason to lose on time.
constexpr std::int64_t kMinimumMs = 1;

// Time kept back from the clock beyond the move overhead, for what the overhead does not
// cover: on a loaded machine the search thread may wait tens of milliseconds for a core
// between its clock checks, or after its bestmove. At fast controls the clock sinks until the
// budgets are made of the increment alone, so without a reserve each move is spent with only
// a few milliseconds to spare. The reserve grows with the increment, which is what such a
// clock lives on. A clock below it gets the minimal search, so that the increments can build
// the clock up again: a move that spends less than its increment can be afforded forever.
[[nodiscard]] std::int64_t reserve_ms(std::int64_t left, std::int64_t inc) {
  constexpr std::int64_t kSchedulingMs = 50;
  return std::min(left - kMinimumMs, kSchedulingMs + 4 * inc);
}
}  // namespace

void TimeManager::init(const SearchLimits& limits, Color us, int game_ply, int move_overhead_ms,
                       bool ponder_enabled) {
  const std::int64_t overhead = std::max(move_overhead_ms, 0);
  if (limits.movetime > 0) {
    enabled_ = true;
    optimum_ = maximum_ = std::max(limits.movetime - overhead, kMinimumMs);
    return;
  }
  // A clock for the other side only (`go wtime 100` with Black to move) still means a timed
  // game: assume both clocks read alike rather than searching without end.
  const Color clock_side = limits.time[us].has_value() ? us : ~us;
  if (!limits.time[clock_side].has_value()) {
    enabled_ = false;
    return;
  }
  enabled_ = true;
  const std::int64_t time = *limits.time[clock_side];
  const std::int64_t inc = std::max<std::int64_t>(limits.increment[clock_side], 0);
  // What may be spent without touching the safety margins.
  std::int64_t left = std::max(time - overhead, kMinimumMs);
  left = std::max(left - reserve_ms(left, inc), kMinimumMs);

  std::int64_t optimum = 0;
  std::int64_t maximum = 0;
  if (limits.movestogo > 0) {
    const int mtg = std::min(limits.movestogo, 50);
    optimum = left / (mtg + 1) + inc * 3 / 4;
    // The last move before the control may use most of what is left, others a few shares.
    maximum = mtg == 1 ? left * 7 / 10 : std::min(left * 4 / 10, optimum * 5);
  } else {
    // Sudden death: assume the game lasts long; early moves get slightly less.
    const int horizon = std::max(50 - game_ply / 4, 25);
    optimum = left / horizon + inc * 3 / 4;
    maximum = std::min(left / 3, optimum * 5);
  }
  if (ponder_enabled) optimum += optimum / 4;
  // The increment must never make a budget exceed the clock.
  optimum = std::min(optimum, left * 6 / 10);
  maximum = std::min(maximum, left * 6 / 10);
  optimum_ = std::max(optimum, kMinimumMs);
  maximum_ = std::max(std::max(maximum, optimum_), kMinimumMs);
}

}  // namespace tessera::search
