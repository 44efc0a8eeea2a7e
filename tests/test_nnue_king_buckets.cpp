// Input king buckets with horizontal mirroring (architecture.h, accumulator.h): the king view and
// the bucketed feature index, the accumulator kept move by move with the accumulator cache
// against a full refresh at every node of perft trees in which kings change bucket, cross to the
// other mirror half and castle, the cache against a full refresh over unrelated positions and
// another network, and the evaluation's colour and mirror symmetries.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/move_delta.h"
#include "eval/nnue/network.h"
#include "eval/nnue/network_file.h"
#include "nnue_test_support.h"
#include "test_core_support.h"

namespace tessera::eval::nnue {
namespace {

using nnue_test::build;
using nnue_test::flip_fen;
using nnue_test::half;
using nnue_test::mirror_fen;
using nnue_test::random_parameters;

// The default layout without mirroring: the same buckets, the wings kept apart.
[[nodiscard]] KingBuckets unmirrored_default() {
  KingBuckets layout = kDefaultKingBuckets;
  layout.mirrored = false;
  return layout;
}

using nnue_test::StartFen;
constexpr const auto& kTreeFens = nnue_test::kKingBoundaryFens;
using Walk = nnue_test::PerftWalk;

TEST(NnueKingBuckets, DefaultLayoutIsValid) {
  EXPECT_EQ(validate(kDefaultKingBuckets), "");
  EXPECT_EQ(validate(kSingleKingBucket), "");
  EXPECT_EQ(kDefaultKingBuckets.count, 4);
  EXPECT_TRUE(kDefaultKingBuckets.mirrored);
}

TEST(NnueKingBuckets, ViewFollowsTheKingSquare) {
  const auto view = [](Color c, const char* square) {
    return king_view(kDefaultKingBuckets, c, Square(square[0] - 'a', square[1] - '1'));
  };
  EXPECT_EQ(view(WHITE, "e1"), (KingView{0, false}));
  EXPECT_EQ(view(WHITE, "g1"), (KingView{0, false}));
  EXPECT_EQ(view(WHITE, "c1"), (KingView{0, true}));
  EXPECT_EQ(view(WHITE, "d2"), (KingView{1, true}));
  EXPECT_EQ(view(WHITE, "h3"), (KingView{2, false}));
  EXPECT_EQ(view(WHITE, "a4"), (KingView{2, true}));
  EXPECT_EQ(view(WHITE, "e5"), (KingView{3, false}));
  EXPECT_EQ(view(WHITE, "d8"), (KingView{3, true}));
  // Black's ranks are counted from its own side.
  EXPECT_EQ(view(BLACK, "e8"), (KingView{0, false}));
  EXPECT_EQ(view(BLACK, "b8"), (KingView{0, true}));
  EXPECT_EQ(view(BLACK, "f7"), (KingView{1, false}));
  EXPECT_EQ(view(BLACK, "d5"), (KingView{2, true}));
  EXPECT_EQ(view(BLACK, "e1"), (KingView{3, false}));
  // Without mirroring the map still folds the files, but no view is mirrored.
  EXPECT_EQ(king_view(unmirrored_default(), WHITE, Square(2, 0)), (KingView{0, false}));
  // The single-bucket layout has one view everywhere.
  for (int sq = 0; sq < 64; ++sq)
    for (const Color c : {WHITE, BLACK})
      ASSERT_EQ(king_view(kSingleKingBucket, c, Square(sq)), KingView{});
}

TEST(NnueKingBuckets, FeatureIndexIsTheBucketsBlockOfTheMirroredSquare) {
  for (const Color p : {WHITE, BLACK})
    for (int bucket = 0; bucket < 4; ++bucket)
      for (const bool mirrored : {false, true}) {
        std::vector<int> seen(std::size_t(kInputs), 0);
        for (int pc = 0; pc < kPieceCount; ++pc)
          for (int sq = 0; sq < 64; ++sq) {
            const Piece piece = Piece::from_index(pc);
            const int f = feature_index(p, KingView{bucket, mirrored}, piece, Square(sq));
            ASSERT_GE(f, bucket * kInputs);
            ASSERT_LT(f, (bucket + 1) * kInputs);
            ++seen[std::size_t(f - bucket * kInputs)];
            const int plain = feature_index(p, piece, Square(mirrored ? sq ^ 7 : sq));
            ASSERT_EQ(f, bucket * kInputs + plain);
          }
        // Each view is a one-to-one map onto its bucket's block.
        EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
      }
}

TEST(NnueKingBuckets, PerftTreesMatchRefresh) {
  const Network net = build(random_parameters(71, 200, kDefaultKingBuckets));
  Walk walk{net};
  walk.boundary_trees(3);
  for (const auto& e : test::every_nth(test::load_perft_epd("perft/standard.epd"), 8))
    walk.tree(e.fen, false, 3);
  walk.expect_boundaries_crossed();
  EXPECT_GT(walk.nodes, 50'000u);
}

// Lanes that overflow int16: the cache's differences wrap exactly as a refresh's sums do.
TEST(NnueKingBuckets, PerftTreesMatchRefreshWithOverflowingLanes) {
  const Network net = build(random_parameters(72, 6000, kDefaultKingBuckets));
  Walk walk{net};
  walk.boundary_trees(3);
  EXPECT_EQ(walk.failures, 0);
  EXPECT_GT(walk.mirror_changes, 100u);
}

// Positions of random games, one after another through the same cache, so that each refresh
// starts from the board of some unrelated earlier position.
[[nodiscard]] std::vector<Position> random_positions(std::uint64_t seed, int games, int plies) {
  return nnue_test::random_positions(kTreeFens, seed, games, plies);
}

TEST(NnueKingBuckets, CachedRefreshMatchesFullRefresh) {
  const Network net = build(random_parameters(73, 200, kDefaultKingBuckets));
  const Network other = build(random_parameters(74, 200, kDefaultKingBuckets));
  auto cache = std::make_unique<AccumulatorCache>();
  auto ref_cache = std::make_unique<AccumulatorCache>();
  int checked = 0;
  for (const Position& pos : random_positions(75, 24, 60)) {
    Accumulator full, cached, ref_cached;
    scalar::refresh(net, pos, full);
    refresh(net, pos, cached, *cache);
    scalar::refresh(net, pos, ref_cached, *ref_cache);
    ASSERT_EQ(cached, full) << pos.fen();
    ASSERT_EQ(ref_cached, full) << pos.fen();
    ++checked;
  }
  EXPECT_GT(checked, 1000);
  // The same cache used with another network is emptied first.
  for (const Position& pos : random_positions(76, 8, 20)) {
    Accumulator full, cached;
    scalar::refresh(other, pos, full);
    refresh(other, pos, cached, *cache);
    ASSERT_EQ(cached, full) << pos.fen();
  }
}

// A king move inside its view is an ordinary update: the cache is not consulted, so its entry
// for that view stays empty. A move across a boundary fills the new view's entry with the board.
TEST(NnueKingBuckets, OnlyAViewChangeRebuildsAHalf) {
  const Network net = build(random_parameters(77, 200, kDefaultKingBuckets));
  auto cache = std::make_unique<AccumulatorCache>();
  Position pos = test::parse("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
  Accumulator parent, child;
  refresh(net, pos, parent);
  const auto play = [&](const char* uci) {
    const Move m = pos.parse_uci_move(uci);
    ASSERT_TRUE(m) << uci;
    MoveDelta delta;
    pos.make_move(m, delta);
    delta.apply(net, pos, parent, child, *cache);
    Accumulator fresh;
    refresh(net, pos, fresh);
    ASSERT_EQ(child, fresh) << uci;
    parent = child;
  };
  const auto empty = [&](Color c, KingView v) {
    const auto& pieces = cache->entry(c, v).pieces;
    return std::all_of(pieces.begin(), pieces.end(), [](Bitboard b) { return b == 0; });
  };
  play("e1f1");  // e1 -> f1: bucket 0, unmirrored, as before
  EXPECT_EQ(parent.views[WHITE], (KingView{0, false}));
  EXPECT_TRUE(empty(WHITE, {0, false}));
  play("e8d8");  // black crosses to the mirrored half
  EXPECT_EQ(parent.views[BLACK], (KingView{0, true}));
  EXPECT_EQ(cache->entry(BLACK, {0, true}).pieces[Piece(BLACK, KING).index()], Bitboard(1) << 59);
  EXPECT_TRUE(empty(WHITE, {0, false}));
  play("f1f2");  // white to bucket 1
  EXPECT_EQ(parent.views[WHITE], (KingView{1, false}));
  EXPECT_FALSE(empty(WHITE, {1, false}));
}

// Each perspective reads the board from its own side: the colour-flipped position has the same
// halves swapped, and the same value for the other side to move.
TEST(NnueKingBuckets, ColourFlippedPositionEvaluatesTheSame) {
  for (const KingBuckets& layout : {kDefaultKingBuckets, unmirrored_default()}) {
    const Network net = build(random_parameters(78, 200, layout));
    int checked = 0;
    for (const Position& pos : random_positions(79, 14, 50)) {
      if (pos.chess960()) continue;  // flip_fen writes standard castling rights only
      const Position flipped = test::parse(flip_fen(pos.fen()));
      Accumulator a, b;
      refresh(net, pos, a);
      refresh(net, flipped, b);
      ASSERT_EQ(half(a, WHITE), half(b, BLACK)) << pos.fen();
      ASSERT_EQ(half(a, BLACK), half(b, WHITE)) << pos.fen();
      ASSERT_EQ(evaluate(net, a, pos.side_to_move()), evaluate(net, b, flipped.side_to_move()))
          << pos.fen() << " vs " << flipped.fen();
      ++checked;
    }
    EXPECT_GT(checked, 300);
  }
}

// With mirroring, a position and its mirror image are the same input: the king on files a-d
// sees the board mirrored. Without mirroring the wings have their own weights, and the values
// differ.
TEST(NnueKingBuckets, MirroredPositionEvaluatesTheSameWhenMirroring) {
  const Network mirrored = build(random_parameters(80, 200, kDefaultKingBuckets));
  const Network plain = build(random_parameters(80, 200, unmirrored_default()));
  int checked = 0, plain_differs = 0;
  for (const Position& pos : random_positions(81, 14, 50)) {
    if (pos.chess960()) continue;
    const Position twin = test::parse(mirror_fen(pos.fen()));
    Accumulator a, b;
    refresh(mirrored, pos, a);
    refresh(mirrored, twin, b);
    ASSERT_EQ(half(a, WHITE), half(b, WHITE)) << pos.fen() << " vs " << twin.fen();
    ASSERT_EQ(half(a, BLACK), half(b, BLACK)) << pos.fen() << " vs " << twin.fen();
    ASSERT_EQ(evaluate(mirrored, a, pos.side_to_move()), evaluate(mirrored, b, twin.side_to_move()))
        << pos.fen() << " vs " << twin.fen();
    refresh(plain, pos, a);
    refresh(plain, twin, b);
    plain_differs += half(a, WHITE) != half(b, WHITE) || half(a, BLACK) != half(b, BLACK);
    ++checked;
  }
  EXPECT_GT(checked, 300);
  EXPECT_GT(plain_differs, checked / 2);
}

}  // namespace
}  // namespace tessera::eval::nnue
