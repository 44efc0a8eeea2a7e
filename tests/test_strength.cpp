// Strength limiting: the budget grows with the asked-for Elo, the choice among root moves is
// soft at low Elo and strict at high Elo, never plays a move far behind or into a mate, and the
// Engine with UCI_LimitStrength plays legal, varied moves within its node budget.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/position.h"
#include "engine/engine.h"
#include "engine/strength.h"
#include "engine_recorder.h"

namespace tessera::engine {
namespace {

using testing::Recorder;

TEST(Strength, BudgetAndTemperatureFollowTheElo) {
  std::uint64_t previous = 0;
  double previous_temperature = 1e9;
  for (int elo = StrengthLimit::kMinElo; elo < StrengthLimit::kMaxElo; elo += 10) {
    const StrengthLimit limit{elo};
    EXPECT_GE(limit.nodes(), previous) << elo;
    EXPECT_LE(limit.temperature_cp(), previous_temperature) << elo;
    previous = limit.nodes();
    previous_temperature = limit.temperature_cp();
  }
  EXPECT_LT(StrengthLimit{StrengthLimit::kMinElo}.nodes(), 5000u);
  // Below the level where randomness begins, the temperature alone weakens play: a smaller
  // budget there (64 nodes at 1320) measured some 180 Elo below the level asked.
  EXPECT_EQ(StrengthLimit{StrengthLimit::kMinElo}.nodes(), StrengthLimit{1500}.nodes());
  EXPECT_GT(StrengthLimit{StrengthLimit::kMinElo}.temperature_cp(),
            StrengthLimit{1500}.temperature_cp());
  EXPECT_GT(StrengthLimit{StrengthLimit::kMaxElo - 1}.nodes(), 1000000u);
  EXPECT_EQ(StrengthLimit{StrengthLimit::kMaxElo}.nodes(), 0u);  // no budget at the top
  EXPECT_GT(StrengthLimit{StrengthLimit::kMinElo}.temperature_cp(), 10);
  EXPECT_EQ(StrengthLimit{StrengthLimit::kMaxElo}.temperature_cp(), 0);
}

std::vector<ScoredMove> lines(std::initializer_list<int> scores) {
  std::vector<ScoredMove> out;
  std::uint16_t raw = 1;
  for (const int s : scores) out.push_back({Move(raw++), Move::none(), s, false, 0});
  return out;
}

TEST(Strength, WeakPlayPicksNearBestMovesOnly) {
  std::mt19937_64 rng(1);
  const StrengthLimit weak{StrengthLimit::kMinElo};
  std::map<std::size_t, int> picked;
  const auto candidates = lines({30, 20, 0, -900});
  for (int i = 0; i < 3000; ++i) ++picked[choose_weaker_move(candidates, weak, rng)];
  EXPECT_GT(picked[0], picked[1]);
  EXPECT_GT(picked[1], picked[2]);
  EXPECT_GT(picked[2], 0);
  EXPECT_EQ(picked[3], 0);  // a rook behind: never
  const StrengthLimit strong{StrengthLimit::kMaxElo};
  for (int i = 0; i < 100; ++i) EXPECT_EQ(choose_weaker_move(candidates, strong, rng), 0u);
}

TEST(Strength, MatesAreRespectedEvenWhenWeak) {
  std::mt19937_64 rng(2);
  const StrengthLimit weak{StrengthLimit::kMinElo};
  auto mating = lines({0, 0, 0});
  mating[0].is_mate = true;
  mating[0].mate_moves = 3;
  mating[0].score = 31000;
  auto mated = lines({0, -5, 0});
  mated[1].is_mate = true;
  mated[1].mate_moves = -2;
  for (int i = 0; i < 500; ++i) {
    EXPECT_EQ(choose_weaker_move(mating, weak, rng), 0u);
    EXPECT_NE(choose_weaker_move(mated, weak, rng), 1u);
  }
  EXPECT_EQ(choose_weaker_move({}, weak, rng), 0u);
}

// A weak engine keeps to its node budget and does not always answer a position alike. Whether
// one particular position offers two moves close enough to be chosen depends on the search of
// the day (at 1400 the budget ends within the second iteration), so the variety is asked of a
// few openings together; the node budget and the reported lines are checked in every search.
TEST(Strength, LimitedEngineKeepsItsBudgetAndVariesItsMoves) {
  Recorder rec;
  Engine engine(rec.callbacks());
  engine.set_limit_strength(true);
  ASSERT_EQ(engine.set_elo(1400), "");
  engine.set_strength_seed(7);
  const std::vector<std::vector<std::string>> openings = {
      {}, {"e2e4", "e7e5"}, {"d2d4", "d7d5"}, {"g1f3"}, {"e2e4", "c7c5"}};
  std::size_t distinct = 0;
  std::size_t searches = 0;
  for (const auto& opening : openings) {
    Position after = Position::startpos();
    for (const std::string& text : opening) after.make_move(after.parse_uci_move(text));
    std::set<std::uint16_t> moves;
    for (int i = 0; i < 8; ++i) {
      ASSERT_EQ(engine.set_position("startpos", opening), "");
      engine.new_game();
      SearchLimits limits;
      limits.time[WHITE] = 60000;
      limits.time[BLACK] = 60000;
      engine.go(limits);
      engine.wait();
      std::lock_guard lock(rec.mutex);
      ASSERT_EQ(rec.bestmoves.size(), ++searches);
      const Move best = rec.bestmoves.back().first;
      EXPECT_TRUE(after.is_legal_move(best));
      moves.insert(best.raw());
      ASSERT_FALSE(rec.infos.empty());
      EXPECT_LE(rec.infos.back().nodes, StrengthLimit{1400}.nodes() + 64);
      // Only the lines the user asked for (one) are reported.
      for (const SearchInfo& info : rec.infos) EXPECT_EQ(info.multipv, 1);
      // The last line reported is the move played.
      EXPECT_EQ(rec.infos.back().pv.front(), best);
      rec.infos.clear();
    }
    distinct += moves.size();
  }
  EXPECT_GT(distinct, openings.size());
  EXPECT_NE(engine.set_elo(100), "");
  EXPECT_NE(engine.set_elo(4000), "");
}

// At the top of the range the limit changes nothing: the same search, the same move.
TEST(Strength, TopEloPlaysAtFullStrength) {
  std::vector<std::uint64_t> nodes;
  std::vector<Move> moves;
  for (const bool limit : {false, true}) {
    Recorder rec;
    Engine engine(rec.callbacks());
    engine.set_limit_strength(limit);
    ASSERT_EQ(engine.set_elo(StrengthLimit::kMaxElo), "");
    ASSERT_EQ(
        engine.set_position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", {}),
        "");
    SearchLimits limits;
    limits.depth = 8;
    engine.go(limits);
    engine.wait();
    std::lock_guard lock(rec.mutex);
    ASSERT_EQ(rec.bestmoves.size(), 1u);
    moves.push_back(rec.bestmoves[0].first);
    nodes.push_back(rec.infos.back().nodes);
  }
  EXPECT_EQ(moves[0], moves[1]);
  EXPECT_EQ(nodes[0], nodes[1]);
}

}  // namespace
}  // namespace tessera::engine
