// Threat-aware ordering of quiet moves: a piece attacked by a cheaper enemy piece that steps
// away is preferred, one that steps into such an attack is put back, and everything else
// (pawns, kings, attacks by pieces of equal or greater value) is left to the histories.
#include <gtest/gtest.h>

#include "core/position.h"
#include "search/movepick.h"
#include "test_core_support.h"

namespace tessera::search {
namespace {

Square sq(const char* name) { return Square(name[0] - 'a', name[1] - '1'); }

TEST(QuietThreats, AMinorPieceLeavesOrEntersAPawnAttack) {
  // The black pawn on d5 attacks the knight on e4 and the square c4.
  const Position pos = test::parse("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1");
  const QuietThreats t(pos);
  EXPECT_EQ(t.score(KNIGHT, sq("e4"), sq("g5")), QuietThreats::kMinorEscape);
  EXPECT_EQ(t.score(KNIGHT, sq("e4"), sq("c3")), QuietThreats::kMinorEscape);
  // Into another pawn attack: no escape.
  const Position pos2 = test::parse("4k3/8/8/3p4/8/8/1N6/4K3 w - - 0 1");
  const QuietThreats t2(pos2);
  EXPECT_EQ(t2.score(KNIGHT, sq("b2"), sq("c4")), -QuietThreats::kMinorEscape);
  EXPECT_EQ(t2.score(KNIGHT, sq("b2"), sq("d3")), 0);
}

TEST(QuietThreats, RooksFearMinorPiecesAndQueensFearRooks) {
  // Black: knight on d6 (attacks e4, f5, ...), bishop on a6 (attacks the f1-a6 diagonal),
  // rook on h8 (the h-file and eighth rank).
  const Position pos = test::parse("4k2r/8/b2n4/8/8/8/8/R3K2Q w - - 0 1");
  const QuietThreats t(pos);
  // The rook on a1 is not attacked and a5 is safe from the minor pieces.
  EXPECT_EQ(t.score(ROOK, sq("a1"), sq("a5")), 0);
  const Position rook_pos = test::parse("4k3/8/3n4/8/R7/8/8/4K3 w - - 0 1");
  const QuietThreats rt(rook_pos);
  EXPECT_EQ(rt.score(ROOK, sq("a4"), sq("b5")), -QuietThreats::kRookEscape);
  EXPECT_EQ(rt.score(ROOK, sq("a4"), sq("a1")), 0);
  // A queen on the rook's file escapes it; stepping onto the eighth rank walks into it.
  EXPECT_EQ(t.score(QUEEN, sq("h1"), sq("g2")), QuietThreats::kQueenEscape);
  EXPECT_EQ(t.score(QUEEN, sq("h1"), sq("h4")), -QuietThreats::kQueenEscape);
  // A knight attack counts against a queen too (a cheaper piece).
  EXPECT_EQ(t.score(QUEEN, sq("h1"), sq("e4")), -QuietThreats::kQueenEscape);
}

TEST(QuietThreats, PawnsKingsAndEqualAttackersAreLeftAlone) {
  const Position pos = test::parse("4k3/8/8/3p4/2P1N3/8/8/4K3 w - - 0 1");
  const QuietThreats t(pos);
  EXPECT_EQ(t.score(PAWN, sq("c4"), sq("c5")), 0);
  EXPECT_EQ(t.score(KING, sq("e1"), sq("e2")), 0);
  // A knight attacked only by a knight (equal value) is not in danger by this measure.
  const Position pos2 = test::parse("4k3/8/3n4/8/4N3/8/8/4K3 w - - 0 1");
  const QuietThreats t2(pos2);
  EXPECT_EQ(t2.score(KNIGHT, sq("e4"), sq("g5")), 0);
  EXPECT_EQ(t2.score(KNIGHT, sq("e4"), sq("f5")), 0);
}

TEST(QuietThreats, TheThreatsAreThoseOfTheSideNotToMove) {
  // Black to move: the white pawn on e4 attacks d5 and f5.
  const Position pos = test::parse("4k3/8/8/8/4P3/8/8/1n2K3 b - - 0 1");
  const QuietThreats t(pos);
  EXPECT_EQ(t.score(KNIGHT, sq("b1"), sq("c3")), 0);
  const Position pos2 = test::parse("4k3/8/8/8/4P3/2n5/8/4K3 b - - 0 1");
  const QuietThreats t2(pos2);
  EXPECT_EQ(t2.score(KNIGHT, sq("c3"), sq("d5")), -QuietThreats::kMinorEscape);
}

TEST(QuietThreats, EverySquareTheOpponentAttacksIsMarked) {
  // Black: king e8, queen a5, pawn h7. White to move.
  const Position pos = test::parse("4k3/7p/8/q7/8/8/8/4K3 w - - 0 1");
  const QuietThreats t(pos);
  EXPECT_TRUE(t.by_any & sq("e1").bb());   // the queen along the diagonal a5-e1
  EXPECT_TRUE(t.by_any & sq("a1").bb());   // ... and the a-file
  EXPECT_TRUE(t.by_any & sq("d8").bb());   // the king
  EXPECT_TRUE(t.by_any & sq("g6").bb());   // the pawn
  EXPECT_FALSE(t.by_any & sq("h6").bb());  // a pawn does not attack straight ahead
  EXPECT_FALSE(t.by_any & sq("b3").bb());
  // The cheaper-piece maps are part of it, and the queen and king are in none of them.
  EXPECT_EQ(t.by_rook & ~t.by_any, 0u);
  EXPECT_FALSE(t.by_rook & sq("e1").bb());
}

}  // namespace
}  // namespace tessera::search
