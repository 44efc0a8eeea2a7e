// The rules and openings that self-play and data generation share.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/position.h"
#include "game/game_rules.h"
#include "test_core_support.h"

namespace tessera::game {
namespace {

std::vector<std::string> opening(std::uint64_t seed, int index, int plies) {
  Position pos = Position::startpos();
  std::mt19937_64 rng = game_generator(seed, index);
  std::vector<std::string> moves;
  play_random_plies(pos, rng, plies, moves);
  return moves;
}

TEST(GameRules, OpeningsAreReproducibleAndDifferPerGame) {
  EXPECT_EQ(opening(42, 3, 8), opening(42, 3, 8));
  EXPECT_EQ(opening(42, 3, 8).size(), 8u);
  std::set<std::vector<std::string>> distinct;
  for (int i = 0; i < 20; ++i) distinct.insert(opening(42, i, 8));
  EXPECT_GT(distinct.size(), 15u);
  EXPECT_NE(opening(42, 0, 8), opening(43, 0, 8));
  // The first plies of a longer opening are the shorter one: one stream per game.
  const auto longer = opening(7, 1, 10);
  const auto shorter = opening(7, 1, 6);
  EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), longer.begin()));
}

TEST(GameRules, RandomPliesStopWhenTheGameEnds) {
  Position pos = test::parse("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");  // stalemate
  std::mt19937_64 rng = game_generator(1, 1);
  std::vector<std::string> moves;
  play_random_plies(pos, rng, 8, moves);
  EXPECT_TRUE(moves.empty());
}

TEST(GameRules, VerdictsOfTheRules) {
  struct Case {
    const char* fen;
    int plies;
    std::optional<Result> result;
    const char* reason;
  };
  const Case cases[] = {
      {"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 10, Result::WhiteWins, "checkmate"},
      {"8/8/8/8/8/6k1/6q1/7K w - - 0 1", 10, Result::BlackWins, "checkmate"},
      {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 10, Result::Draw, "stalemate"},
      {"8/8/4k3/8/8/3K4/8/8 w - - 0 1", 10, Result::Draw, "insufficient material"},
      {"8/8/4k3/8/8/3K4/8/7R w - - 100 80", 10, Result::Draw, "fifty-move rule"},
      {"8/8/4k3/8/8/3K4/8/7R w - - 0 1", 400, Result::Draw, "move cap"},
      {"8/8/4k3/8/8/3K4/8/7R w - - 0 1", 10, std::nullopt, ""},
  };
  for (const Case& c : cases) {
    const auto verdict = rules_verdict(test::parse(c.fen), c.plies, 400);
    ASSERT_EQ(verdict.has_value(), c.result.has_value()) << c.fen;
    if (!verdict) continue;
    EXPECT_EQ(verdict->result, *c.result) << c.fen;
    EXPECT_EQ(verdict->reason, c.reason) << c.fen;
  }
  Position pos = test::parse("8/8/4k3/8/8/3K4/8/7R w - - 0 1");
  test::play(pos, "h1h2 e6e7 h2h1 e7e6 h1h2 e6e7 h2h1 e7e6");
  const auto repeated = rules_verdict(pos, 8, 400);
  ASSERT_TRUE(repeated.has_value());
  EXPECT_EQ(repeated->reason, "repetition");
}

}  // namespace
}  // namespace tessera::game
