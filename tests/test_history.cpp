// The move-ordering histories' update rules: continuation tables learn past a null move, and
// the sentinel table (no earlier move) stays empty.
#include <gtest/gtest.h>

#include <memory>

#include "search/history.h"

namespace tessera::search {
namespace {

class ContinuationUpdateTest : public ::testing::Test {
 protected:
  void SetUp() override { h->clear(); }
  PieceToHistory& table(Piece pc, Square to) { return h->continuation[pc.index()][to.index()]; }
  std::unique_ptr<Histories> h = std::make_unique<Histories>();
};

TEST_F(ContinuationUpdateTest, EachEarlierMoveLearnsAndThePlyFourTableHalf) {
  const Piece knight = Piece(WHITE, KNIGHT);
  PieceToHistory& one = table(Piece(BLACK, PAWN), Square(4, 4));
  PieceToHistory& two = table(knight, Square(5, 2));
  PieceToHistory& four = table(Piece(WHITE, PAWN), Square(4, 3));
  update_continuations(*h, {&one, &two, &four}, knight, Square(6, 4), 800);
  EXPECT_GT(int(one[knight.index()][Square(6, 4).index()]), 0);
  EXPECT_EQ(int(one[knight.index()][Square(6, 4).index()]),
            int(two[knight.index()][Square(6, 4).index()]));
  EXPECT_GT(int(four[knight.index()][Square(6, 4).index()]), 0);
  EXPECT_LT(int(four[knight.index()][Square(6, 4).index()]),
            int(one[knight.index()][Square(6, 4).index()]));
}

// After a null move (its table is the sentinel) the moves two and four plies back are still
// real moves whose tables order this node's moves: they must keep learning.
TEST_F(ContinuationUpdateTest, ANullMoveDoesNotStopTheMovesBeyondItFromLearning) {
  const Piece bishop = Piece(BLACK, BISHOP);
  PieceToHistory& two = table(bishop, Square(2, 4));
  PieceToHistory& four = table(Piece(BLACK, PAWN), Square(4, 4));
  update_continuations(*h, {&h->sentinel, &two, &four}, bishop, Square(1, 3), -600);
  EXPECT_LT(int(two[bishop.index()][Square(1, 3).index()]), 0);
  EXPECT_LT(int(four[bishop.index()][Square(1, 3).index()]), 0);
  for (const auto& row : h->sentinel)
    for (const auto& cell : row) ASSERT_EQ(int(cell), 0);
}

}  // namespace
}  // namespace tessera::search
