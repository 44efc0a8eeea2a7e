// The time manager's budgets, as properties that any sound schedule keeps: budgets are
// positive and ordered, never exceed what the clock holds less the overhead, grow with the
// clock and the increment, shrink with the overhead and with more moves to go, and a tiny, zero
// or negative clock still gives a positive (tiny) budget instead of none.
#include <gtest/gtest.h>

#include "search/timeman.h"
#include "search/tunables.h"

namespace tessera::search {
namespace {

struct Budget {
  bool enabled;
  std::int64_t optimum;
  std::int64_t maximum;
};

Budget budget(std::optional<std::int64_t> time, std::int64_t inc = 0, int movestogo = 0,
              int overhead = 10, int ply = 20, bool ponder = false, Color us = WHITE) {
  SearchLimits limits;
  limits.time[us] = time;
  limits.increment[us] = inc;
  limits.movestogo = movestogo;
  TimeManager tm;
  tm.init(limits, us, ply, overhead, ponder);
  return {tm.enabled(), tm.optimum_ms(), tm.maximum_ms()};
}

TEST(TimeManager, SuddenDeathBudgetsAreOrderedAndWithinTheClock) {
  for (const std::int64_t time : {50, 200, 1000, 10'000, 60'000, 3'600'000}) {
    for (const std::int64_t inc : {0, 10, 100, 1000}) {
      for (const int overhead : {0, 10, 100}) {
        const Budget b = budget(time, inc, 0, overhead);
        ASSERT_TRUE(b.enabled);
        EXPECT_GE(b.optimum, 1);
        EXPECT_GE(b.maximum, b.optimum);
        const std::int64_t usable = std::max<std::int64_t>(time - overhead, 1);
        EXPECT_LE(b.maximum, std::max<std::int64_t>(usable * 6 / 10, 1))
            << time << "+" << inc << " overhead " << overhead;
      }
    }
  }
}

TEST(TimeManager, MoreClockOrIncrementNeverMeansLessTime) {
  for (const std::int64_t inc : {0, 100}) {
    Budget previous = budget(100, inc);
    for (std::int64_t time = 200; time <= 600'000; time *= 2) {
      const Budget b = budget(time, inc);
      EXPECT_GE(b.optimum, previous.optimum) << time;
      EXPECT_GE(b.maximum, previous.maximum) << time;
      previous = b;
    }
  }
  EXPECT_GT(budget(60'000, 1000).optimum, budget(60'000, 0).optimum);
}

TEST(TimeManager, MoveOverheadComesOffTheClock) {
  EXPECT_LT(budget(1000, 0, 0, 500).maximum, budget(1000, 0, 0, 0).maximum);
  // All of the clock reserved: the smallest budget there is.
  const Budget none_left = budget(100, 0, 0, 100);
  EXPECT_TRUE(none_left.enabled);
  EXPECT_EQ(none_left.optimum, 1);
  EXPECT_EQ(none_left.maximum, 1);
}

TEST(TimeManager, MovesToGoSpreadsTheClockOverTheMovesLeft) {
  const Budget many = budget(60'000, 0, 40);
  const Budget few = budget(60'000, 0, 5);
  const Budget last = budget(60'000, 0, 1);
  EXPECT_LT(many.optimum, few.optimum);
  EXPECT_LE(few.optimum, last.optimum);
  EXPECT_LE(last.maximum, (60'000 - 10) * 7 / 10);
  EXPECT_GE(last.maximum, last.optimum);
}

TEST(TimeManager, TinyZeroAndNegativeClocksStillGiveAMove) {
  for (const std::int64_t time : {1, 0, -1, -5000}) {
    const Budget b = budget(time);
    EXPECT_TRUE(b.enabled) << time;
    EXPECT_EQ(b.optimum, 1) << time;
    EXPECT_EQ(b.maximum, 1) << time;
  }
}

TEST(TimeManager, MovetimeIsThatTimeLessTheOverhead) {
  SearchLimits limits;
  limits.movetime = 1000;
  limits.time[WHITE] = 5;  // a clock beside movetime does not shorten it
  TimeManager tm;
  tm.init(limits, WHITE, 0, 30, false);
  EXPECT_TRUE(tm.enabled());
  EXPECT_EQ(tm.optimum_ms(), 970);
  EXPECT_EQ(tm.maximum_ms(), 970);
  limits.movetime = 5;
  tm.init(limits, WHITE, 0, 30, false);
  EXPECT_EQ(tm.maximum_ms(), 1);
}

TEST(TimeManager, NoClockNoBudgetAndTheOpponentsClockStandsIn) {
  EXPECT_FALSE(budget(std::nullopt).enabled);
  SearchLimits limits;
  limits.time[WHITE] = 10'000;  // only White's clock, Black to move
  TimeManager tm;
  tm.init(limits, BLACK, 21, 10, false);
  EXPECT_TRUE(tm.enabled());
  EXPECT_EQ(tm.optimum_ms(), budget(10'000, 0, 0, 10, 21).optimum);
}

// The whole increment is in the optimum: at a low clock a move may spend about its increment
// (the clock neither grows nor runs out), where the old three quarters of it let the clock
// build up unspent.
TEST(TimeManager, TheWholeIncrementIsSpentOnceTheClockIsLow) {
  for (const std::int64_t inc : {10, 100, 1000}) {
    const std::int64_t time = 4 * inc + 10 + TimeManager::kReserveMs;
    const Budget b = budget(time, inc, 0, 10, 120);
    EXPECT_GE(b.optimum, inc * 9 / 10) << time << "+" << inc;
    EXPECT_LE(b.maximum, time - 10 - TimeManager::kReserveMs) << time << "+" << inc;
  }
}

// The reserve is a fixed 200 ms, not a number of increments: at 10+0.1 all but the
// overhead and the reserve is there to be spent.
TEST(TimeManager, TheReserveDoesNotGrowWithTheIncrement) {
  const std::int64_t time = 300 + TimeManager::kReserveMs;
  const Budget b = budget(time, 100, 0, 10, 120);
  // 290 ms beyond the overhead and the reserve are left: the increment is spent, and at most 60% of
  // what is left goes to this move.
  const std::int64_t left = time - 10 - TimeManager::kReserveMs;
  EXPECT_GE(b.optimum, 100);
  EXPECT_LE(b.maximum, left * 6 / 10);
  EXPECT_GE(budget(10'000, 100, 0, 10, 40).optimum, 10'000 / 50 + 100 - 5);
}

TEST(TimeManager, SoftLimitGrowsWithDoubtAndShrinksWithStability) {
  TimeManager tm;
  SearchLimits limits;
  limits.time[WHITE] = 60'000;
  tm.init(limits, WHITE, 40, 10, false);
  IterationSignals typical;
  typical.depths_since_best_changed = 5;
  typical.best_move_node_share = 0.85;
  const std::int64_t base = tm.soft_limit_ms(typical);
  // A typical move stops starting iterations at a fixed share of its optimum (the iteration
  // under way then runs on past it).
  const double share = tune::TmIterationStopPct / 100.0;
  EXPECT_NEAR(double(base), double(tm.optimum_ms()) * share, double(tm.optimum_ms()) * 0.05);

  IterationSignals settled = typical;
  settled.depths_since_best_changed = 12;
  EXPECT_LT(tm.soft_limit_ms(settled), base);
  IterationSignals new_best = typical;
  new_best.depths_since_best_changed = 0;
  EXPECT_GT(tm.soft_limit_ms(new_best), base);

  IterationSignals all_nodes = typical;
  all_nodes.best_move_node_share = 0.99;
  EXPECT_LT(tm.soft_limit_ms(all_nodes), base);
  IterationSignals disputed = typical;
  disputed.best_move_node_share = 0.4;
  EXPECT_GT(tm.soft_limit_ms(disputed), base);

  IterationSignals changing = typical;
  changing.best_move_changes = 1.5;
  EXPECT_GT(tm.soft_limit_ms(changing), base);

  IterationSignals falling = typical;
  falling.score_drop = 40;
  EXPECT_GT(tm.soft_limit_ms(falling), base);
  IterationSignals rising = typical;
  rising.score_drop = -40;
  EXPECT_LT(tm.soft_limit_ms(rising), base);

  IterationSignals only_move = typical;
  only_move.single_legal_move = true;
  EXPECT_LT(tm.soft_limit_ms(only_move), base / 2);
}

TEST(TimeManager, SoftLimitNeverPassesTheMaximum) {
  TimeManager tm;
  SearchLimits limits;
  limits.time[WHITE] = 5'000;
  limits.increment[WHITE] = 50;
  tm.init(limits, WHITE, 30, 10, false);
  IterationSignals worst;
  worst.best_move_node_share = 0.1;
  worst.best_move_changes = 4;
  worst.score_drop = 500;
  EXPECT_EQ(tm.soft_limit_ms(worst), tm.maximum_ms());
  EXPECT_GE(tm.soft_limit_ms(IterationSignals{}), 1);
}

TEST(TimeManager, PonderingAllowsALittleMore) {
  EXPECT_GT(budget(60'000, 0, 0, 10, 20, true).optimum, budget(60'000).optimum);
}

}  // namespace
}  // namespace tessera::search
