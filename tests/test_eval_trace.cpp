// The evaluation must not care which colour is which: a position and its colour flip (ranks
// mirrored, colours and side to move swapped) score the same for the side to move. Checked over
// thousands of positions: the perft suites and the positions of random games from them. The
// term-by-term trace behind the `eval` command must add up to what evaluate() returns.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "core/movegen.h"
#include "core/packed_position.h"
#include "engine/engine.h"
#include "eval/evaluate.h"
#include "eval/material_scale.h"
#include "eval/nnue/trace.h"
#include "eval/weights.h"
#include "search/tunables.h"
#include "test_core_support.h"
#include "uci/eval_report.h"

namespace tessera::eval {
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
      if (t.endgame) {  // a specialised evaluator: no terms to add up
        ASSERT_EQ(t.result, evaluate(pos)) << pos.fen();
        continue;
      }
      int mg = 0, eg = 0;
      for (const EvalTerm& term : t.terms) mg += term.mg, eg += term.eg;
      ASSERT_EQ(t.tapered, (mg * t.phase + eg * (t.max_phase - t.phase)) / t.max_phase)
          << pos.fen();
      ASSERT_EQ(t.scaled, t.tapered * t.scale / kScaleNormal) << pos.fen();
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
  const Position pos = test::parse("r3k3/8/8/8/8/8/3P4/R2QK3 b - - 0 1");
  engine::Engine engine(search::EngineCallbacks{});
  engine.set_use_network(false);  // the last line is then the hand-crafted result
  const auto lines = uci::eval_report(engine, pos);
  const EvalTrace t = evaluate_traced(pos);
  for (const EvalTerm& term : t.terms) {
    bool found = false;
    for (const std::string& line : lines) found |= line.rfind(term.name, 0) == 0;
    EXPECT_TRUE(found) << term.name;
  }
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find(std::to_string(t.result) + " cp"), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find("black"), std::string::npos);
  EXPECT_LT(t.result, -300);  // a queen down, black to move
}

TEST(Evaluation, ReportNamesTheSpecialisedEndgame) {
  const Position pos = test::parse("8/8/8/4k3/8/8/8/R3K3 b - - 0 1");
  const auto lines = uci::eval_report(engine::Engine(search::EngineCallbacks{}), pos);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.front().find("KXK"), std::string::npos) << lines.front();
  EXPECT_NE(lines.back().find(std::to_string(evaluate(pos)) + " cp"), std::string::npos);
}

// Positions of random games from the perft suites (the same for every run).
std::vector<Position> sample_positions(int games_per_fen, int plies) {
  std::vector<Position> out;
  std::mt19937_64 rng(9001);
  for (const auto& e : test::load_perft_epd("perft/standard.epd")) {
    for (int game = 0; game < games_per_fen; ++game) {
      Position pos = test::parse(e.fen);
      for (int ply = 0; ply < plies; ++ply) {
        out.push_back(pos);
        const MoveList<GenType::All> moves(pos);
        if (moves.empty()) break;
        pos.make_move(moves[rng() % moves.size()]);
      }
    }
  }
  return out;
}

// The pawn and material caches save work only: every position scores as without them, the
// second visit of a position hits both tables, and a cache full of other positions is no
// different from an empty one.
TEST(Evaluation, CachesChangeNothing) {
  const std::vector<Position> positions = sample_positions(4, 80);
  eval::EvalCache cache;
  for (const Position& pos : positions) ASSERT_EQ(evaluate(pos, cache), evaluate(pos)) << pos.fen();
  const eval::CacheStats first = cache.stats;
  EXPECT_GT(first.pawn_probes, 1000u);
  for (const Position& pos : positions) ASSERT_EQ(evaluate(pos, cache), evaluate(pos)) << pos.fen();
  EXPECT_GT(cache.stats.pawn_hits - first.pawn_hits,
            (cache.stats.pawn_probes - first.pawn_probes) / 2);
  EXPECT_GT(cache.stats.material_hits - first.material_hits,
            (cache.stats.material_probes - first.material_probes) / 2);
}

// The tuner's linear model (coefficients times weights, tapered, scaled) is the evaluation.
TEST(Evaluation, CoefficientsReproduceTheEvaluation) {
  int checked = 0;
  for (const Position& pos : sample_positions(2, 80)) {
    const EvalCoefficients c = evaluate_coefficients(pos);
    if (c.specialised) continue;
    eval::S sum;
    int previous = -1;
    for (const auto& [index, coefficient] : c.terms) {
      ASSERT_GT(int(index), previous);
      ASSERT_NE(coefficient, 0);
      previous = index;
      sum += eval::kWeights[index] * coefficient;
    }
    const int tapered = (sum.mg * c.phase + sum.eg * (kMaxPhase - c.phase)) / kMaxPhase;
    const int white = std::clamp(tapered * c.scale / kScaleNormal, -20000, 20000);
    ASSERT_EQ(pos.side_to_move() == WHITE ? white : -white, evaluate(pos)) << pos.fen();
    ++checked;
  }
  EXPECT_GT(checked, 3000);
}

// The coefficient of one weight in a position (white minus black).
int coefficient_of(const std::string& fen, eval::Group g, int i = 0) {
  const EvalCoefficients c = evaluate_coefficients(test::parse(fen));
  const int index = eval::group_offset(g) + i;
  for (const auto& [at, coefficient] : c.terms)
    if (at == index) return coefficient;
  return 0;
}

TEST(Evaluation, PawnStructureIsRecognised) {
  using eval::Group;
  // e5 is passed (rank index 4); d4 is not (the c and e pawns of black guard d5's span).
  EXPECT_EQ(coefficient_of("r3k3/8/8/4P3/8/8/8/R3K3 w - - 0 1", Group::Passed, 4), 1);
  EXPECT_EQ(coefficient_of("r3k3/8/8/4P3/8/8/8/R3K3 w - - 0 1", Group::Isolated), 1);
  EXPECT_EQ(coefficient_of("r3k3/2p5/8/8/3P4/8/8/R3K3 w - - 0 1", Group::Passed, 3), 0);
  // Black's passed pawn on d3 is on its sixth rank (index 5): the sign is black's.
  EXPECT_EQ(coefficient_of("r3k3/8/8/8/8/3p4/8/R3K3 w - - 0 1", Group::Passed, 5), -1);
  // Doubled pawns: the rear one counts.
  EXPECT_EQ(coefficient_of("r3k3/8/8/8/4P3/4P3/8/R3K3 w - - 0 1", Group::Doubled), 1);
  // A phalanx (side by side) and a defended pawn are connected.
  EXPECT_EQ(coefficient_of("r3k3/8/8/8/3PP3/8/8/R3K3 w - - 0 1", Group::Connected, 3), 2);
  EXPECT_EQ(coefficient_of("r3k3/8/8/8/4P3/3P4/8/R3K3 w - - 0 1", Group::Connected, 3), 1);
  // d3 is backward: the c-pawn has passed it, and black's e5 pawn holds its stop square d4.
  EXPECT_EQ(coefficient_of("r3k3/8/8/4p3/2P5/3P4/8/R3K3 w - - 0 1", Group::Backward), 1);
  EXPECT_EQ(coefficient_of("r3k3/8/8/4p3/8/2PP4/8/R3K3 w - - 0 1", Group::Backward), 0);
  // A candidate: b4 has an open file and one helper (a-pawn) against one sentry (c6).
  EXPECT_EQ(coefficient_of("r3k3/8/2p5/8/1P6/P7/8/R3K3 w - - 0 1", Group::Candidate, 3), 1);
}

TEST(Evaluation, KingShelterAndStorm) {
  using eval::Group;
  // White king g1 behind f2 g2 h2: three shelter pawns on the second rank (index 1).
  const std::string castled = "4k3/8/8/8/8/8/5PPP/6K1 w - - 0 1";
  EXPECT_EQ(coefficient_of(castled, Group::ShelterRank, 1), 3);
  // (black's king on e8 has no pawns: three files without any, each counted for black)
  EXPECT_EQ(coefficient_of(castled, Group::ShelterRank, 0), -3);
  // A black pawn storming on g3 (white's third rank, index 2) against white's king file.
  EXPECT_EQ(coefficient_of("4k3/8/8/8/8/6p1/5P1P/6K1 w - - 0 1", Group::StormRank, 2), 1);
}

TEST(Evaluation, DrawishMaterialIsScaled) {
  // Opposite-coloured bishops with a pawn more: far less than a pawn's worth.
  const Position ocb = test::parse("4k3/5b2/8/8/8/8/1P2PB2/4K3 w - - 0 1");
  const EvalTrace t = evaluate_traced(ocb);
  EXPECT_LT(t.scale, kScaleNormal);
  EXPECT_LT(std::abs(t.scaled), std::abs(t.tapered));
  // A knight alone cannot win.
  EXPECT_EQ(evaluate(test::parse("4k3/8/8/8/8/8/8/3NK3 w - - 0 1")), 0);
}

TEST(Evaluation, MaterialScaleKeepsTheStartAndShrinksThinnerBoards) {
  const Position start = test::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(material_in_pawns(start), kStartingMaterialInPawns);
  EXPECT_EQ(scaled_by_material(start, 137, 160), 137);
  EXPECT_EQ(scaled_by_material(start, -137, 160), -137);
  // Queens off, then a rook ending, then a pawn ending: each keeps less of the same score.
  const Position no_queens =
      test::parse("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
  const Position rooks = test::parse("4k3/r4ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
  const Position pawns = test::parse("4k3/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
  EXPECT_EQ(material_in_pawns(no_queens), 60);
  EXPECT_EQ(material_in_pawns(rooks), 16);
  EXPECT_EQ(material_in_pawns(pawns), 6);
  const int a = scaled_by_material(no_queens, 300, 160);
  const int b = scaled_by_material(rooks, 300, 160);
  const int c = scaled_by_material(pawns, 300, 160);
  EXPECT_EQ(a, 300 * 220 / 238);
  EXPECT_GT(300, a);
  EXPECT_GT(a, b);
  EXPECT_GT(b, c);
  EXPECT_GT(c, 0);
  EXPECT_EQ(scaled_by_material(pawns, -300, 160), -c);
  EXPECT_EQ(scaled_by_material(pawns, 0, 160), 0);
  // A larger base scales less.
  EXPECT_GT(scaled_by_material(pawns, 300, 400), c);
  // Material counts both colours alike.
  EXPECT_EQ(material_in_pawns(flipped(rooks)), material_in_pawns(rooks));
}

TEST(Evaluation, ReportShowsTheNetworkAndWhichEvaluationPlays) {
  const Position pos = test::parse("r3k3/8/8/8/8/8/3P4/R2QK3 b - - 0 1");
  engine::Engine engine(search::EngineCallbacks{});
  const auto net = engine.network_trace(pos);
  ASSERT_TRUE(net.has_value());
  engine.set_use_network(true);
  const auto lines = uci::eval_report(engine, pos);
  ASSERT_FALSE(lines.empty());
  // The search's verdict: the network's score scaled by the material (20 of 78 pawns' worth
  // here), then under the endgame knowledge.
  const int scaled = scaled_by_material(pos, net->score, search::tune::EvalMaterialBase);
  ASSERT_LT(std::abs(scaled), std::abs(net->score));
  EvalCache cache;
  const int verdict = with_endgame_knowledge(pos, cache, scaled);
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
    return l.find(fmt::format("(20 of 78 pawns' worth) {:+} cp", scaled)) != std::string::npos;
  }));
  EXPECT_NE(lines.back().find(fmt::format("{:+} cp", verdict)), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find("network"), std::string::npos) << lines.back();
  // Every piece but the kings has a value, and the white queen's is on the board.
  EXPECT_TRUE(net->piece_value[test::sq("d1").index()].has_value());
  EXPECT_FALSE(net->piece_value[test::sq("e1").index()].has_value());
  const std::string queen_value = fmt::format("{:^+6}", *net->piece_value[test::sq("d1").index()]);
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
    return l.find(queen_value) != std::string::npos;
  }));
  engine.set_use_network(false);
  EXPECT_NE(uci::eval_report(engine, pos).back().find("hand-crafted"), std::string::npos);
}

TEST(Evaluation, ReportSaysWhenTheGameIsOver) {
  const engine::Engine engine(search::EngineCallbacks{});
  const auto mate = uci::eval_report(engine, test::parse("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"));
  ASSERT_EQ(mate.size(), 1u);
  EXPECT_NE(mate[0].find("checkmate: white wins"), std::string::npos) << mate[0];
  const auto stalemate = uci::eval_report(engine, test::parse("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
  ASSERT_EQ(stalemate.size(), 1u);
  EXPECT_NE(stalemate[0].find("stalemate"), std::string::npos) << stalemate[0];
}

}  // namespace
}  // namespace tessera::eval
