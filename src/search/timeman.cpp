#include "search/timeman.h"

#include <algorithm>

#include "search/tunables.h"

namespace tessera::search {

namespace {
// No budget goes below this: enough for a depth-1 search, never a reason to lose on time.
constexpr std::int64_t kMinimumMs = 1;
}  // namespace

// The reserve (TimeManager::kReserveMs) covers the scheduling delays of a loaded machine, which
// matter once the clock has drained to the reserve and every move is played on it. Beside a
// two-thread training run on two cores, `go movetime 30` answered a median 5.4 ms late, 26 ms
// at the 99th percentile and 49 ms at worst in 600 searches (tools/measure_latency.py); but in
// 300 games at 1+0.01 under that load one move in about 20,000 stalled for over 100 ms, and
// lost on time with a reserve of 20 ms and again with 100 ms. 200 ms is 2% of the clock at
// 10+0.1 and a fifth of it at 1+0.01, about what Stockfish keeps there. The Move Overhead
// option (10 ms by default) covers the GUI's side. The reserve used to grow with the increment
// (50 ms plus four increments, 450 ms at 10+0.1), time that was never spent.
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
  left = std::max(left - std::min(left - kMinimumMs, kReserveMs), kMinimumMs);

  std::int64_t optimum = 0;
  std::int64_t maximum = 0;
  if (limits.movestogo > 0) {
    const int mtg = std::min(limits.movestogo, 50);
    optimum = left / (mtg + 1) + inc;
    // The last move before the control may use most of what is left, others a few shares.
    maximum = mtg == 1 ? left * 7 / 10 : std::min(left * 4 / 10, optimum * 5);
  } else {
    // Sudden death: assume the game lasts long; early moves get slightly less.
    const int horizon = std::max(tune::TmHorizon - game_ply / 4, tune::TmHorizon / 2);
    optimum = left / horizon + inc;
    maximum = std::min(left / 3, optimum * 5);
  }
  if (ponder_enabled) optimum += optimum / 4;
  // Neither budget takes more than a share of what is left after the reserve: the rest covers
  // the moves after this one when the increment alone no longer does.
  const std::int64_t cap = left * tune::TmMaxSharePct / 100;
  optimum = std::min(optimum, cap);
  maximum = std::min(maximum, cap);
  optimum_ = std::max(optimum, kMinimumMs);
  maximum_ = std::max(std::max(maximum, optimum_), kMinimumMs);
}

std::int64_t TimeManager::soft_limit_ms(const IterationSignals& s) const {
  if (s.single_legal_move) return std::max<std::int64_t>(optimum_ / 5, kMinimumMs);
  // Each factor is about 1 for a typical move. An iteration begun just before the limit runs
  // on past it (the next one costs about as much as all before it), so the limit is a share
  // of the scaled optimum: measured at 10+0.1 without it, moves spent about 1.5 times their
  // optimum and the clock was gone by move 30 (docs/measurements.md).
  const double stability_base = tune::TmStabilityBasePct / 100.0;
  const double stability =
      std::clamp(stability_base - tune::TmStabilityStepPct / 100.0 * s.depths_since_best_changed,
                 std::min(tune::TmStabilityFloorPct / 100.0, stability_base), stability_base);
  const double node_share =
      std::clamp(1.0 + tune::TmNodeShareSlopePct / 100.0 *
                           (tune::TmNodeSharePivotPct / 100.0 - s.best_move_node_share),
                 0.7, 1.8);
  const double instability = 1.0 + tune::TmInstabilityPct / 100.0 * s.best_move_changes;
  const double falling = std::clamp(1.0 + double(s.score_drop) / tune::TmFallingDivisor, 0.8, 1.5);
  const double limit = double(optimum_) * tune::TmIterationStopPct / 100.0 * stability *
                       node_share * instability * falling;
  return std::clamp(std::int64_t(limit), kMinimumMs, maximum_);
}

}  // namespace tessera::search
