// The move-ordering histories' update rules: continuation tables learn past a null move, the
// sentinel table (no earlier move) stays empty, and the butterfly table of a quiet move depends
// on whether the opponent attacks its origin and its target, and on nothing else.
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

TEST_F(ContinuationUpdateTest, AQuietMoveLearnsApartWhereItsSquaresAreAttacked) {
  const Move m(Square(4, 3), Square(5, 5));  // e4-f6
  const Bitboard from_only = Square(4, 3).bb();
  const Bitboard to_only = Square(5, 5).bb();
  const Bitboard elsewhere = Square(0, 0).bb() | Square(7, 7).bb();
  h->quiet(WHITE, m, from_only).update(900);
  EXPECT_GT(h->quiet(WHITE, m, from_only), 0);
  // Attacks on other squares leave the move in the same table.
  EXPECT_EQ(h->quiet(WHITE, m, from_only | elsewhere), h->quiet(WHITE, m, from_only));
  // The same move from a safe square, into an attack, or both, and the other side: untouched.
  EXPECT_EQ(h->quiet(WHITE, m, 0), 0);
  EXPECT_EQ(h->quiet(WHITE, m, to_only), 0);
  EXPECT_EQ(h->quiet(WHITE, m, from_only | to_only), 0);
  EXPECT_EQ(h->quiet(BLACK, m, from_only), 0);
  h->quiet(WHITE, m, to_only).update(-700);
  EXPECT_LT(h->quiet(WHITE, m, to_only), 0);
  EXPECT_GT(h->quiet(WHITE, m, from_only), 0);
}

}  // namespace
}  // namespace tessera::search
