// The accumulator kept by the make-move observer against a full refresh, at every node of
// perft trees over the standard and Chess960 suites: whatever the move (castling of both
// kinds, en passant, promotions and captures of every kind), the child's accumulator updated
// from the parent's equals the one built from scratch, and so does its evaluation.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "eval/nnue/move_delta.h"
#include "test_core_support.h"

namespace tessera::eval::nnue {
namespace {

struct Walk {
  const Network& net;
  std::vector<Accumulator> stack = std::vector<Accumulator>(8);
  std::unique_ptr<AccumulatorCache> cache = std::make_unique<AccumulatorCache>();
  std::uint64_t nodes = 0;
  std::uint64_t castles = 0, en_passants = 0, promotions = 0;
  int failures = 0;

  void run(Position& pos, int depth, int ply) {
    if (depth == 0) return;
    for (const Move m : MoveList<GenType::All>(pos)) {
      castles += m.kind() == MoveKind::Castling;
      en_passants += m.kind() == MoveKind::EnPassant;
      promotions += m.kind() == MoveKind::Promotion;
      MoveDelta delta;
      pos.make_move(m, delta);
      delta.apply(net, pos, stack[ply], stack[ply + 1], *cache);
      ++nodes;
      Accumulator fresh;
      refresh(net, pos, fresh);
      if (!(fresh == stack[ply + 1]) && ++failures <= 5) {
        pos.unmake_move(m);
        ADD_FAILURE() << "accumulator differs from a refresh after " << pos.move_to_uci(m) << " in "
                      << pos.fen();
        pos.make_move(m);
      }
      run(pos, depth - 1, ply + 1);
      pos.unmake_move(m);
    }
  }

  void suite(const std::vector<test::EpdEntry>& entries, bool chess960, int depth) {
    for (const auto& e : entries) {
      Position pos = test::parse(e.fen, chess960);
      refresh(net, pos, stack[0]);
      run(pos, depth, 0);
    }
  }
};

Network embedded_network() {
  std::string error;
  auto net = Network::embedded(error);
  if (!net) throw std::runtime_error("embedded network: " + error);
  return *net;
}

TEST(NnueMoveDelta, StandardSuiteTreesMatchRefresh) {
  const Network net = embedded_network();
  Walk walk{net};
  walk.suite(test::every_nth(test::load_perft_epd("perft/standard.epd"), 2), false, 3);
  EXPECT_EQ(walk.failures, 0);
  EXPECT_GT(walk.nodes, 100'000u);
  EXPECT_GT(walk.castles, 0u);
  EXPECT_GT(walk.en_passants, 0u);
  EXPECT_GT(walk.promotions, 0u);
}

TEST(NnueMoveDelta, Chess960SuiteTreesMatchRefresh) {
  const Network net = embedded_network();
  Walk walk{net};
  const std::size_t stride = test::suite_stride();
  walk.suite(test::every_nth(test::load_perft_epd("perft/fischer.epd"), 12 * stride), true, 3);
  EXPECT_EQ(walk.failures, 0);
  EXPECT_GT(walk.nodes, 100'000u / stride);
  EXPECT_GT(walk.castles, 0u);
}

}  // namespace
}  // namespace tessera::eval::nnue
