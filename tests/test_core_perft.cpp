// Perft against the published counts, at depths that keep the unit tests fast (the full suites
// run through the CLI under ctest's perft labels). perft_divide must agree with perft.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/position.h"
#include "test_core_support.h"

namespace tessera {
namespace {

using test::parse;

// The deepest published depth not above `max_depth` whose count is at most `max_nodes`
// (0 when none qualifies).
int pick_depth(const test::EpdEntry& e, int max_depth, std::uint64_t max_nodes) {
  int best = 0;
  for (int d = 1; d <= max_depth; ++d)
    if (e.has_depth(d) && e.counts[d] <= max_nodes) best = d;
  return best;
}

// Runs perft over a suite; reports each mismatch with its FEN. Also checks that perft leaves
// the position as it found it.
void run_suite(const std::vector<test::EpdEntry>& entries, bool chess960, int max_depth,
               std::uint64_t max_nodes, int min_checked) {
  int checked = 0;
  for (const auto& e : entries) {
    int depth = pick_depth(e, max_depth, max_nodes);
    // A line that lists only deep counts (standard.epd's last one gives D5 only) is still
    // checked at that depth when it is small enough.
    if (depth == 0)
      for (int d = 1; d < int(e.counts.size()) && depth == 0; ++d)
        if (e.has_depth(d) && e.counts[d] <= 15'000'000) depth = d;
    if (depth == 0) continue;
    Position pos = parse(e.fen, chess960);
    const Key key = pos.key();
    const std::string fen = pos.fen();
    EXPECT_EQ(perft(pos, depth), e.counts[depth])
        << "line " << e.line << ": " << e.fen << " depth " << depth;
    EXPECT_EQ(pos.key(), key);
    EXPECT_EQ(pos.fen(), fen);
    ++checked;
  }
  EXPECT_GE(checked, min_checked);
}

TEST(CorePerft, StandardSuiteToDepthFive) {
  run_suite(test::load_perft_epd("perft/standard.epd"), false, 5, 3'000'000, 128);
}

TEST(CorePerft, NamedPositions) {
  // CPW positions 1-6 (and 4 mirrored), to depth 5 where that stays under ~5M leaves.
  run_suite(test::load_perft_epd("tests/data/named.epd"), false, 5, 5'000'000, 7);
}

TEST(CorePerft, Chess960SuiteToDepthThreeAndSampleToFour) {
  // All 960 positions of the Chess960 suite at depth 3, every tenth at depth 4.
  const auto all = test::load_perft_epd("perft/fischer.epd");
  run_suite(all, true, 3, 200'000, 960);
  run_suite(test::every_nth(all, 10), true, 4, 2'000'000, 60);
}

TEST(CorePerft, Chess960PositionsWithEnPassantToDepthFour) {
  std::vector<test::EpdEntry> ep;
  for (const auto& e : test::load_perft_epd("perft/fischer.epd"))
    if (test::fen_fields(e.fen).at(3) != "-") ep.push_back(e);
  ASSERT_GE(ep.size(), 4u);
  run_suite(ep, true, 4, 1'500'000, 4);
}

TEST(CorePerft, DepthOneCountsTheLegalMoves) {
  for (const auto& e : test::load_perft_epd("perft/standard.epd")) {
    Position pos = parse(e.fen);
    EXPECT_EQ(perft(pos, 1), MoveList<GenType::All>(pos).size()) << e.fen;
  }
}

// perft_divide: one entry per legal root move, each equal to perft of the child, summing to
// perft of the root.
void check_divide(const std::string& fen, bool chess960, int depth) {
  SCOPED_TRACE(fen);
  Position pos = parse(fen, chess960);
  const auto divide = perft_divide(pos, depth);
  const MoveList<GenType::All> moves(pos);
  ASSERT_EQ(divide.size(), moves.size());
  std::set<std::uint16_t> seen;
  std::uint64_t sum = 0;
  for (const auto& [move, count] : divide) {
    EXPECT_TRUE(moves.contains(move)) << pos.move_to_uci(move);
    EXPECT_TRUE(seen.insert(move.raw()).second) << "duplicate " << pos.move_to_uci(move);
    pos.make_move(move);
    EXPECT_EQ(count, depth > 1 ? perft(pos, depth - 1) : 1u) << pos.fen();
    pos.unmake_move(move);
    sum += count;
  }
  EXPECT_EQ(sum, perft(pos, depth));
  EXPECT_EQ(pos.fen(), parse(fen, chess960).fen());
}

TEST(CorePerft, DivideSumsToPerft) {
  check_divide(std::string(Position::kStartFen), false, 3);
  check_divide("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, 3);
  check_divide("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false, 3);
  check_divide("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false, 1);
  check_divide("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true, 3);
}

TEST(CorePerft, DivideOfKiwipeteMatchesPublishedTotal) {
  Position pos = parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  std::uint64_t sum = 0;
  for (const auto& [move, count] : perft_divide(pos, 3)) sum += count;
  EXPECT_EQ(sum, 97862u);
}

}  // namespace
}  // namespace tessera
