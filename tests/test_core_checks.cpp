// gives_check against the ground truth of actually making the move: over perft trees of
// positions rich in discovered checks, en-passant discoveries, castling checks and promotions,
// gives_check(m), and its fast form from the node's check_info(), must equal in_check() after
// make_move(m).
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/position.h"
#include "test_core_support.h"

namespace tessera {
namespace {

using test::parse;

struct TreeStats {
  std::uint64_t moves = 0;
  std::uint64_t checks = 0;
  int gives_check_failures = 0;
  int fast_form_failures = 0;
};

std::string describe(const Position& pos, Move m) {
  return pos.move_to_uci(m) + " (kind " + std::to_string(int(m.kind())) + ") in " + pos.fen();
}

void walk(Position& pos, int depth, TreeStats& stats) {
  if (depth == 0) return;
  const CheckInfo info = pos.check_info();
  for (const Move m : MoveList<GenType::All>(pos)) {
    const bool predicted = pos.gives_check(m);
    const bool predicted_fast = pos.gives_check(m, info);
    // Describes the move from the parent position (only on failure: it costs a fen()).
    auto text = [&pos, m] {
      pos.unmake_move(m);
      std::string d = describe(pos, m);
      pos.make_move(m);
      return d;
    };

    pos.make_move(m);
    ++stats.moves;
    stats.checks += pos.in_check();
    if (predicted != pos.in_check() && ++stats.gives_check_failures <= 5)
      ADD_FAILURE() << "gives_check says " << predicted << " for " << text();
    if (predicted_fast != pos.in_check() && ++stats.fast_form_failures <= 5)
      ADD_FAILURE() << "gives_check with CheckInfo says " << predicted_fast << " for " << text();

    walk(pos, depth - 1, stats);
    pos.unmake_move(m);
  }
}

struct TreeCase {
  const char* name;
  const char* fen;
  bool chess960;
  int depth;
};

const TreeCase kTrees[] = {
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, 4},
    {"cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false, 5},
    {"cpw4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false, 4},
    {"cpw5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false, 4},
    {"promotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1", false, 4},
    // e4xd3 e.p. removes both pawns from the fourth rank: the rook h4 checks the king a4.
    {"ep rank discovery", "7k/8/8/8/K2Pp2r/8/8/8 b - d3 0 1", false, 4},
    // e4xd3 e.p. removes the captured d4 pawn from the a1-g7 diagonal.
    {"ep diagonal discovery", "7k/6b1/8/8/3Pp3/8/8/K7 b - d3 0 1", false, 4},
    // Castling rooks give check on f8 and d8.
    {"castling check short", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", false, 4},
    {"castling check long", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", false, 4},
    // Chess960 O-O where king and rook swap and the rook checks.
    {"960 castling check", "1r3kr1/6p1/8/8/8/8/6P1/1R3KR1 w GBgb - 0 1", true, 4},
    // Discovered checks by every slider type, with the front piece moving in all ways.
    {"discoveries", "Q1N1k3/8/2N3P1/1B5B/4N3/8/8/K3R3 w - - 0 1", false, 4},
    {"960 suite line 1", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true,
     3},
};

void PrintTo(const TreeCase& c, std::ostream* os) { *os << c.name << " (" << c.fen << ")"; }

class CheckTree : public ::testing::TestWithParam<TreeCase> {};

TEST_P(CheckTree, GivesCheckMatchesMakeMove) {
  const TreeCase& c = GetParam();
  Position pos = parse(c.fen, c.chess960);
  TreeStats stats;
  walk(pos, c.depth, stats);
  // The walk made one move per edge of the tree: the sum of perft over depths 1..depth.
  std::uint64_t edges = 0;
  for (int d = 1; d <= c.depth; ++d) edges += perft(pos, d);
  EXPECT_EQ(stats.moves, edges);
  EXPECT_EQ(stats.gives_check_failures, 0);
  EXPECT_EQ(stats.fast_form_failures, 0);
  EXPECT_GT(stats.moves, 100u);
  EXPECT_GT(stats.checks, 0u);  // the tree really contains checks
}

INSTANTIATE_TEST_SUITE_P(Core, CheckTree, ::testing::ValuesIn(kTrees),
                         [](const ::testing::TestParamInfo<TreeCase>& param_info) {
                           std::string name = param_info.param.name;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// Spot checks of the special cases, so the trees above are known to contain them.
TEST(CoreChecks, SpecialCasesGiveCheck) {
  struct Case {
    const char* fen;
    bool chess960;
    const char* move;
    bool check;
  };
  const Case cases[] = {
      {"7k/8/8/8/K2Pp2r/8/8/8 b - d3 0 1", false, "e4d3", true},
      {"7k/6b1/8/8/3Pp3/8/8/K7 b - d3 0 1", false, "e4d3", true},
      {"5k2/8/8/8/8/8/8/4K2R w K - 0 1", false, "e1g1", true},
      {"3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", false, "e1c1", true},
      {"1r3kr1/6p1/8/8/8/8/6P1/1R3KR1 w GBgb - 0 1", true, "f1g1", true},
      {"3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", false, "b7b8q", true},
      {"3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", false, "b7b8r", true},
      {"3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", false, "b7b8b", false},
      {"3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", false, "b7b8n", false},
      // Knight promotion checking from the promotion square.
      {"8/1P1k4/8/8/8/8/8/4K3 w - - 0 1", false, "b7b8n", true},
      // Discovered checks: the front piece of each battery aimed at e8 moves away.
      {"Q1N1k3/8/2N3P1/1B5B/4N3/8/8/K3R3 w - - 0 1", false, "c6d4", true},  // bishop b5
      {"Q1N1k3/8/2N3P1/1B5B/4N3/8/8/K3R3 w - - 0 1", false, "e4f6", true},  // double check
      {"Q1N1k3/8/2N3P1/1B5B/4N3/8/8/K3R3 w - - 0 1", false, "e4c3", true},  // rook e1
      {"Q1N1k3/8/2N3P1/1B5B/4N3/8/8/K3R3 w - - 0 1", false, "c8b6", true},  // queen a8
      {"Q1N1k3/8/2N3P1/1B5B/4N3/8/8/K3R3 w - - 0 1", false, "g6g7", true},  // bishop h5
      {"Q1N1k3/8/2N3P1/1B5B/4N3/8/8/K3R3 w - - 0 1", false, "e1e2", false},
      {"Q1N1k3/8/2N3P1/1B5B/4N3/8/8/K3R3 w - - 0 1", false, "a1b1", false},
  };
  for (const Case& c : cases) {
    Position pos = parse(c.fen, c.chess960);
    const Move m = test::uci(pos, c.move);
    EXPECT_EQ(pos.gives_check(m), c.check) << c.fen << " " << c.move;
    EXPECT_EQ(pos.gives_check(m, pos.check_info()), c.check) << c.fen << " " << c.move;
    pos.make_move(m);
    EXPECT_EQ(pos.in_check(), c.check) << c.fen << " " << c.move;
  }
}

}  // namespace
}  // namespace tessera
