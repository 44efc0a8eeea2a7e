// Upcoming repetition: the cuckoo table of reversible moves, and Position's test that the side
// to move can repeat a position (a clear path, the opponent's pieces back where they stood,
// inside the search or for the third time), against a brute-force oracle on random walks.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/bitboard.h"
#include "core/cuckoo.h"
#include "core/movegen.h"
#include "core/position.h"
#include "core/zobrist.h"
#include "test_core_support.h"

namespace tessera {
namespace {

using test::parse;
using test::play;

TEST(Cuckoo, HoldsEveryReversibleMoveOnce) {
  const CuckooTable& table = cuckoo_table();
  EXPECT_EQ(table.entries, 3668);
  int stored = 0;
  for (int i = 0; i < CuckooTable::kSize; ++i) stored += table.keys[i] != 0;
  EXPECT_EQ(stored, 3668);
  // Each knight move is found under its key difference, in both colours, stored from the
  // lower square to the higher.
  for (const Piece knight : {Piece(WHITE, KNIGHT), Piece(BLACK, KNIGHT)}) {
    const Key diff = kZobrist.piece[knight.index()][Square(6, 0).index()] ^
                     kZobrist.piece[knight.index()][Square(5, 2).index()] ^ kZobrist.side;
    EXPECT_EQ(table.find(diff), Move(Square(6, 0), Square(5, 2)));
  }
  // A pawn's step and a knight's impossible jump are not reversible moves.
  const Piece pawn(WHITE, PAWN);
  EXPECT_TRUE(
      table
          .find(kZobrist.piece[pawn.index()][12] ^ kZobrist.piece[pawn.index()][20] ^ kZobrist.side)
          .is_none());
  const Piece knight(WHITE, KNIGHT);
  EXPECT_TRUE(table
                  .find(kZobrist.piece[knight.index()][0] ^ kZobrist.piece[knight.index()][9] ^
                        kZobrist.side)
                  .is_none());
}

TEST(UpcomingRepetition, InsideTheSearchAKnightCanGoBack) {
  // After Nf3 Nf6 Ng1, Black's Ng8 returns to the start position.
  Position pos = Position::startpos();
  play(pos, "g1f3 g8f6 f3g1");
  EXPECT_TRUE(pos.has_upcoming_repetition(4));
  // With all three moves played before the root, returning would be only a second occurrence.
  EXPECT_FALSE(pos.has_upcoming_repetition(0));
}

TEST(UpcomingRepetition, BeforeTheRootOnlyAThirdOccurrenceCounts) {
  Position pos = Position::startpos();
  play(pos, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
  EXPECT_TRUE(pos.has_upcoming_repetition(0));
}

TEST(UpcomingRepetition, TheOpponentMustHaveUndoneItsMoves) {
  // Black developed a second knight in between: no single move restores an earlier position.
  Position pos = Position::startpos();
  play(pos, "g1f3 b8c6 f3g1 g8f6");
  EXPECT_FALSE(pos.has_upcoming_repetition(8));
}

TEST(UpcomingRepetition, AnIrreversibleMoveEndsTheWindow) {
  Position pos = Position::startpos();
  play(pos, "g1f3 g8f6 f3g1 e7e6");
  EXPECT_FALSE(pos.has_upcoming_repetition(8));
}

TEST(UpcomingRepetition, TheRooksPathMustBeClear) {
  // The rook goes round (a1-b1-b5-a5) while the black king walks a square and back; the rook
  // could return to a1 straight, but only when no pawn stands on a3.
  const char* moves = "e8d8 a1b1 d8d7 b1b5 d7e7 b5a5 e7e8";
  Position open = parse("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
  play(open, moves);
  EXPECT_TRUE(open.has_upcoming_repetition(8));
  Position blocked = parse("4k3/8/8/8/8/P7/8/R3K3 b - - 0 1");
  play(blocked, moves);
  EXPECT_FALSE(blocked.has_upcoming_repetition(8));
}

TEST(UpcomingRepetition, NeverAcrossANullMove) {
  Position pos = Position::startpos();
  play(pos, "g1f3 g8f6");
  pos.make_null_move();
  play(pos, "f6g8");
  // White's Ng1 would restore the start position but for the side to move: the null move
  // between them cuts the history.
  EXPECT_FALSE(pos.has_upcoming_repetition(8));
}

// The oracle: try every quiet move of a piece other than a pawn (the path clear, legality
// ignored as the cuckoo test ignores it), compute the key it leads to, and look for that key
// in the history the way a repetition is counted.
bool oracle(const Position& pos, const std::vector<Key>& keys, const std::vector<int>& rule50,
            int ply) {
  const Color us = pos.side_to_move();
  const int current = int(keys.size()) - 1;
  const int window = std::min(rule50.back() + 1, current + 1);
  Bitboard own = pos.pieces(us) & ~pos.pieces(PAWN);
  while (own) {
    const Square from = pop_lsb(own);
    const Piece piece = pos.piece_on(from);
    Bitboard targets = piece_attacks(piece.type(), from, pos.pieces()) & ~pos.pieces();
    while (targets) {
      const Square to = pop_lsb(targets);
      const Key next = pos.key() ^ kZobrist.piece[piece.index()][from.index()] ^
                       kZobrist.piece[piece.index()][to.index()] ^ kZobrist.side;
      for (int back = 4; back <= window; back += 2) {
        const int index = current + 1 - back;
        if (keys[index] != next) continue;
        if (back < ply + 1) return true;
        for (int earlier = index - 4; earlier >= index - rule50[index] && earlier >= 0;
             earlier -= 2)
          if (keys[earlier] == next) return true;
      }
    }
  }
  return false;
}

TEST(UpcomingRepetition, AgreesWithTryingEveryMoveOnRandomWalks) {
  const char* fens[] = {
      "4k3/8/3n4/8/8/2N5/8/4K3 w - - 0 1",
      "r3k3/8/8/2b5/8/5B2/8/3RK3 w - - 0 1",
      "6k1/5pp1/4q3/8/8/2Q5/5PP1/6K1 b - - 0 1",
      "2r1k3/p7/1n6/8/8/6N1/7P/2R3K1 w - - 0 1",
  };
  std::mt19937 rng(20261204);
  int agreed_true = 0, agreed_false = 0;
  for (const char* fen : fens) {
    for (int walk = 0; walk < 40; ++walk) {
      Position pos = parse(fen);
      std::vector<Key> keys{pos.key()};
      std::vector<int> rule50{pos.rule50()};
      std::vector<Move> played;
      for (int step = 0; step < 40; ++step) {
        for (const int ply : {0, 3, 6, 40}) {
          const bool expected = oracle(pos, keys, rule50, ply);
          ASSERT_EQ(pos.has_upcoming_repetition(ply), expected)
              << pos.fen() << " after " << step << " moves, ply " << ply;
          (expected ? agreed_true : agreed_false) += 1;
        }
        // Quiet moves of pieces other than pawns, preferring to undo the move of two plies
        // ago so that repetitions are common.
        std::vector<Move> quiet;
        for (const Move m : MoveList<GenType::Quiet>(pos))
          if (pos.moved_piece(m).type() != PAWN && m.kind() == MoveKind::Normal) quiet.push_back(m);
        if (quiet.empty()) break;
        Move chosen = quiet[rng() % quiet.size()];
        if (played.size() >= 2 && rng() % 2) {
          const Move undo(played[played.size() - 2].to(), played[played.size() - 2].from());
          for (const Move m : quiet)
            if (m == undo) chosen = m;
        }
        pos.make_move(chosen);
        played.push_back(chosen);
        keys.push_back(pos.key());
        rule50.push_back(pos.rule50());
      }
    }
  }
  // Both answers must occur often, or the walk tests little.
  EXPECT_GT(agreed_true, 200);
  EXPECT_GT(agreed_false, 200);
}

}  // namespace
}  // namespace tessera
