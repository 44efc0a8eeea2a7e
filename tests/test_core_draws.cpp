// Draw detection: repetitions (two-fold inside the search, three-fold in the game history,
// never across a null move), the fifty-move rule (but checkmate on the hundredth ply wins) and
// insufficient material.
#include <gtest/gtest.h>

#include <string>

#include "core/movegen.h"
#include "core/position.h"
#include "test_core_support.h"

namespace tessera {
namespace {

using test::parse;
using test::play;

TEST(CoreDraws, NoRepetitionWithoutHistory) {
  const Position pos = Position::startpos();
  EXPECT_FALSE(pos.is_repetition(0));
  EXPECT_FALSE(pos.is_draw(0));
}

TEST(CoreDraws, TwoFoldInsideTheSearchIsARepetition) {
  // Root after 1.e4; the search plays Nf6 Nf3 Ng8 Ng1 Nf6: the current position first
  // occurred at ply 1, inside the search, so a second occurrence already counts.
  Position pos = Position::startpos();
  play(pos, "e2e4");
  play(pos, "g8f6 g1f3 f6g8 f3g1 g8f6");
  EXPECT_TRUE(pos.is_repetition(5));
  EXPECT_TRUE(pos.is_draw(5));
}

TEST(CoreDraws, TwoFoldInTheGameHistoryIsNot) {
  // The same moves, but all five were played in the game before the root (ply 0): the position
  // has occurred only twice, which is not yet a draw.
  Position pos = Position::startpos();
  play(pos, "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6");
  EXPECT_FALSE(pos.is_repetition(0));
  EXPECT_FALSE(pos.is_draw(0));
  // With the root three plies back (after 2.Nf3) the earlier occurrence precedes the root:
  // still only a two-fold repetition in the game.
  EXPECT_FALSE(pos.is_repetition(3));
}

TEST(CoreDraws, ThreeFoldInTheGameHistoryIs) {
  Position pos = Position::startpos();
  play(pos, "g1f3 g8f6 f3g1 f6g8");
  EXPECT_FALSE(pos.is_repetition(0));  // start position twice
  play(pos, "g1f3 g8f6 f3g1 f6g8");
  EXPECT_TRUE(pos.is_repetition(0));  // three times
  EXPECT_TRUE(pos.is_draw(0));
}

TEST(CoreDraws, ShufflingRepeatsAfterFourPlies) {
  // Rook and king shuffle from a FEN root: nothing repeats within three plies, the fifth ply
  // repeats the first.
  Position pos = parse("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
  play(pos, "a1a2 e8d8 a2a1");  // rook a1, king d8, black to move: not seen before
  EXPECT_FALSE(pos.is_repetition(3));
  play(pos, "d8e8 a1a2");  // rook a2, king e8, black to move: as after ply 1
  EXPECT_TRUE(pos.is_repetition(5));
}

TEST(CoreDraws, NoRepetitionAcrossANullMove) {
  // Nf3, null, Ng1, null gives the start position again, but a null move is not a real move:
  // the search must not treat it as a repetition.
  Position pos = Position::startpos();
  play(pos, "g1f3");
  pos.make_null_move();
  play(pos, "f3g1");
  pos.make_null_move();
  ASSERT_EQ(pos.key(), Position::startpos().key());
  EXPECT_FALSE(pos.is_repetition(4));
  EXPECT_FALSE(pos.is_draw(4));
  // Ply 5 repeats ply 1 (Nf3, black to move), well inside the search, but across two null
  // moves: still not a repetition.
  play(pos, "g1f3");
  EXPECT_FALSE(pos.is_repetition(5));
  EXPECT_FALSE(pos.is_draw(5));
  // After the null moves, a real repetition counts again: ply 9 repeats ply 5.
  play(pos, "g8f6 f3g1 f6g8 g1f3");
  EXPECT_TRUE(pos.is_repetition(9));
}

TEST(CoreDraws, RepetitionCountRestartsAfterAnIrreversibleMove) {
  // The start position occurs twice; then pawn moves. The later shuffles repeat the position
  // after 1.e4 e5 only twice, which is not three-fold, and nothing before the pawn moves can
  // match.
  Position pos = Position::startpos();
  play(pos, "g1f3 g8f6 f3g1 f6g8 e2e4 e7e5 g1f3 g8f6 f3g1 f6g8");
  EXPECT_EQ(pos.rule50(), 4);
  EXPECT_FALSE(pos.is_repetition(0));
  play(pos, "g1f3 g8f6 f3g1 f6g8");
  EXPECT_TRUE(pos.is_repetition(0));
}

TEST(CoreDraws, FiftyMoveRule) {
  Position pos = parse("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
  EXPECT_FALSE(pos.is_draw(0));
  play(pos, "a1a2");
  EXPECT_EQ(pos.rule50(), 100);
  EXPECT_TRUE(pos.is_draw(1));
  // A pawn move or capture resets the clock.
  Position pawn = parse("4k3/8/8/8/8/8/P7/4K3 w - - 99 80");
  play(pawn, "a2a3");
  EXPECT_EQ(pawn.rule50(), 0);
  EXPECT_FALSE(pawn.is_draw(1));
}

TEST(CoreDraws, FiftyMoveRuleFromFen) {
  EXPECT_TRUE(parse("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").is_draw(0));
  EXPECT_TRUE(parse("4k3/8/8/8/8/8/8/R3K3 w - - 150 80").is_draw(0));
}

TEST(CoreDraws, CheckmateOnTheHundredthPlyIsNotADraw) {
  // Black is mated (Qb7#, protected by the king); the clock has just reached 100.
  const Position mated = parse("k7/1Q6/1K6/8/8/8/8/8 b - - 100 80");
  ASSERT_TRUE(mated.in_check());
  ASSERT_TRUE(MoveList<GenType::All>(mated).empty());
  EXPECT_FALSE(mated.is_draw(0));
  // The same mate delivered by a move that takes the clock to 100.
  Position pos = parse("k7/8/1K6/8/8/8/7Q/8 w - - 99 80");
  play(pos, "h2h8");
  ASSERT_EQ(pos.rule50(), 100);
  ASSERT_FALSE(has_legal_move(pos));
  EXPECT_FALSE(pos.is_draw(1));
  // But a check that is not mate at 100 is a draw.
  Position check = parse("k7/8/2K5/8/8/8/7Q/8 w - - 99 80");
  play(check, "h2h8");  // Ka7 escapes
  ASSERT_TRUE(check.in_check());
  ASSERT_TRUE(has_legal_move(check));
  EXPECT_TRUE(check.is_draw(1));
}

TEST(CoreDraws, InsufficientMaterial) {
  struct Case {
    const char* fen;
    bool insufficient;
  };
  const Case cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},      // KvK
      {"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},     // KNvK
      {"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},     // KBvK
      {"4kn2/8/8/8/8/8/8/4K3 b - - 0 1", true},     // KvKN
      {"4kb2/8/8/8/8/8/8/4K3 w - - 0 1", true},     // KvKB
      {"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},   // f8 and c1: both dark squares
      {"2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},   // c8 and f1: both light squares
      {"4k3/8/8/8/8/8/8/4KN1N w - - 0 1", false},   // KNNvK (mate possible with help)
      {"4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", false},   // f8 dark, d1 light
      {"4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", false},   // f8 dark, f1 light
      {"4k3/8/8/8/8/8/8/4KBB1 w - - 0 1", false},   // bishop pair
      {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},   // any pawn
      {"4k3/4p3/8/8/8/8/8/4KB2 w - - 0 1", false},  // pawn with a bishop
      {"4k3/8/8/8/8/8/8/4K2R w - - 0 1", false},    // rook
      {"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false},    // queen
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
  };
  for (const Case& c : cases) {
    const Position pos = parse(c.fen);
    EXPECT_EQ(pos.has_insufficient_material(), c.insufficient) << c.fen;
    EXPECT_EQ(pos.is_draw(0), c.insufficient) << c.fen;
  }
}

TEST(CoreDraws, CapturingTheLastPieceMakesInsufficientMaterial) {
  Position pos = parse("4k3/8/8/8/8/8/3r4/3QK3 w - - 0 1");
  EXPECT_FALSE(pos.has_insufficient_material());
  play(pos, "d1d2");
  EXPECT_FALSE(pos.has_insufficient_material());  // KQvK
  pos = parse("4k3/8/8/8/8/8/3r4/3NK3 b - - 0 1");
  play(pos, "d2d1");  // KvKR after taking the knight: black can still mate
  EXPECT_FALSE(pos.has_insufficient_material());
  pos = parse("4k3/8/8/8/8/8/3r4/4KB2 w - - 0 1");
  play(pos, "e1d2");  // KBvK
  EXPECT_TRUE(pos.has_insufficient_material());
  EXPECT_TRUE(pos.is_draw(1));
}

}  // namespace
}  // namespace tessera
