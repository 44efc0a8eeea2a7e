// The evaluation must not care which colour is which: a position and its colour flip (ranks
// mirrored, colours and side to move swapped) score the same for the side to move. Checked over
// thousands of positions: the perft suites and the positions of random games from them. The
// term-by-term trace behind the `eval` command must add up to what evaluate() returns.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/movegen.h"
#include "core/packed_position.h"
#include "eval/evaluate.h"
#include "test_core_support.h"
#include "uci/eval_report.h"

namespace tessera {
namespace {

// The colour flip of `pos`, through the record codec (whose flip is tested on its own).
Position flipped(const Position& pos) {
  std::string error;
  auto result = decode(flip_colors(encode(pos)), error);
  if (!result) throw std::runtime_error("flip of " + pos.fen() + " rejected: " + error);
  return std::move(*result);
}

TEST(Evaluation, ColourFlipScoresTheSame) {
  std::vector<std::string> fens;
  for (const auto& e : test::load_perft_epd("perft/standard.epd")) fens.push_back(e.fen);
  for (const auto& e : test::load_perft_epd("tests/data/named.epd")) fens.push_back(e.fen);
  fens.push_back(std::string(Position::kStartFen));
  std::mt19937_64 rng(4242);
  int checked = 0, failures = 0;
  for (const std::string& fen : fens) {
    for (int game = 0; game < 8; ++game) {
      Position pos = test::parse(fen);
      for (int ply = 0; ply < 60; ++ply) {
        const int own = evaluate(pos);
        const int mirror = evaluate(flipped(pos));
        ++checked;
        if (own != mirror && ++failures <= 5)
          ADD_FAILURE() << pos.fen() << " scores " << own << ", its colour flip " << mirror;
        const MoveList<GenType::All> moves(pos);
        if (moves.empty()) break;
        pos.make_move(moves[rng() % moves.size()]);
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(checked, 20000);
}

TEST(Evaluation, TraceAddsUpToTheEvaluation) {
  std::mt19937_64 rng(77);
  int checked = 0;
  for (const auto& e : test::load_perft_epd("perft/standard.epd")) {
    Position pos = test::parse(e.fen);
    for (int ply = 0; ply < 30; ++ply) {
      const EvalTrace t = evaluate_traced(pos);
      int mg = 0, eg = 0;
      for (const EvalTerm& term : t.terms) mg += term.mg, eg += term.eg;
      ASSERT_EQ(t.tapered, (mg * t.phase + eg * (t.max_phase - t.phase)) / t.max_phase)
          << pos.fen();
      ASSERT_EQ(t.result, evaluate(pos)) << pos.fen();
      ASSERT_EQ(t.result, pos.side_to_move() == WHITE ? t.scaled : -t.scaled) << pos.fen();
      ++checked;
      const MoveList<GenType::All> moves(pos);
      if (moves.empty()) break;
      pos.make_move(moves[rng() % moves.size()]);
    }
  }
  EXPECT_GT(checked, 2000);
}

TEST(Evaluation, ReportNamesEveryTermAndTheResult) {
  const Position pos = test::parse("8/8/8/4k3/8/8/8/R3K3 b - - 0 1");
  const auto lines = uci::eval_report(pos);
  const EvalTrace t = evaluate_traced(pos);
  for (const EvalTerm& term : t.terms) {
    bool found = false;
    for (const std::string& line : lines) found |= line.rfind(term.name, 0) == 0;
    EXPECT_TRUE(found) << term.name;
  }
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find(std::to_string(t.result) + " cp"), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find("black"), std::string::npos);
  EXPECT_LT(t.result, -300);  // a rook down, black to move
}

}  // namespace
}  // namespace tessera
