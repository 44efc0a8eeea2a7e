// Transposition table: packing, store/probe, replacement and aging, mate-score conversion,
// and a forced-collision stress in which every table move that passes pseudo_legal && legal
// must really be legal.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "search/score.h"
#include "search/tt.h"

namespace tessera::search {
namespace {

Move some_move(int from, int to) { return Move(Square(from), Square(to)); }

// Keys that land in the same cluster of a one-cluster table, with distinct 16-bit checks.
Key key_with_check(std::uint16_t check) {
  return (Key(check) * 0x9E3779B97F4A7C15ULL << 16) | check;
}

TEST(TranspositionTable, PackingRoundTripsEveryField) {
  for (int score : {-kMate, -kMateInMaxPly, -1234, -1, 0, 1, 999, kMateInMaxPly, kMate}) {
    for (int depth : {-1, 0, 1, 17, 100, kMaxPly - 1}) {
      for (Bound b : {Bound::Upper, Bound::Lower, Bound::Exact}) {
        for (bool pv : {false, true}) {
          const Move m = Move(Square(12), Square(28), MoveKind::Promotion, QUEEN);
          const TTData d = TranspositionTable::unpack(
              TranspositionTable::pack(0xBEEF, m, score, depth, b, pv, 29));
          EXPECT_EQ(d.move, m);
          EXPECT_EQ(d.score, score);
          EXPECT_EQ(d.depth, depth);
          EXPECT_EQ(d.bound, b);
          EXPECT_EQ(d.pv, pv);
          EXPECT_EQ(d.generation, 29);
        }
      }
    }
  }
}

TEST(TranspositionTable, StoreThenProbe) {
  TranspositionTable tt;
  ASSERT_EQ(tt.resize(1), "");
  const Key key = 0x123456789ABCDEF0ULL;
  TTProbe p = tt.probe(key);
  EXPECT_FALSE(p.hit);
  p.writer.write(key, 42, 7, Bound::Exact, some_move(12, 28));
  p = tt.probe(key);
  ASSERT_TRUE(p.hit);
  EXPECT_EQ(p.data.score, 42);
  EXPECT_EQ(p.data.depth, 7);
  EXPECT_EQ(p.data.bound, Bound::Exact);
  EXPECT_EQ(p.data.move, some_move(12, 28));
  // Another key with a different check is a miss.
  EXPECT_FALSE(tt.probe(key ^ 1).hit);
  tt.clear();
  EXPECT_FALSE(tt.probe(key).hit);
}

TEST(TranspositionTable, KeepsTheOldMoveWhenTheNewStoreHasNone) {
  TranspositionTable tt;
  const Key key = 0xFEDCBA9876543210ULL;
  tt.probe(key).writer.write(key, 10, 3, Bound::Lower, some_move(6, 21));
  tt.probe(key).writer.write(key, -5, 5, Bound::Upper, Move::none());
  const TTProbe p = tt.probe(key);
  ASSERT_TRUE(p.hit);
  EXPECT_EQ(p.data.move, some_move(6, 21));
  EXPECT_EQ(p.data.score, -5);
  EXPECT_EQ(p.data.depth, 5);
}

TEST(TranspositionTable, ShallowBoundDoesNotOverwriteDeepEntryOfTheSameSearch) {
  TranspositionTable tt;
  const Key key = 0x0F0F0F0F12345678ULL;
  tt.probe(key).writer.write(key, 100, 20, Bound::Lower, some_move(1, 18));
  tt.probe(key).writer.write(key, 3, 2, Bound::Upper, Move::none());
  TTProbe p = tt.probe(key);
  ASSERT_TRUE(p.hit);
  EXPECT_EQ(p.data.depth, 20);
  EXPECT_EQ(p.data.score, 100);
  // An exact result always replaces.
  tt.probe(key).writer.write(key, 7, 2, Bound::Exact, Move::none());
  p = tt.probe(key);
  EXPECT_EQ(p.data.depth, 2);
  EXPECT_EQ(p.data.move, some_move(1, 18));
  // So does any result of a later search.
  tt.probe(key).writer.write(key, 50, 30, Bound::Lower, Move::none());
  tt.new_search();
  tt.probe(key).writer.write(key, 9, 1, Bound::Upper, Move::none());
  EXPECT_EQ(tt.probe(key).data.depth, 1);
}

TEST(TranspositionTable, ReplacesSameKeyFirstThenTheShallowestEntry) {
  static_assert(TranspositionTable::kEntriesPerCluster == 3);
  TranspositionTable tt;
  ASSERT_EQ(tt.resize_clusters_for_testing(1), "");
  const int depths[3] = {10, 3, 7};
  for (int i = 0; i < 3; ++i) {
    const Key k = key_with_check(std::uint16_t(100 + i));
    tt.probe(k).writer.write(k, i, depths[i], Bound::Exact, Move::none());
  }
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(tt.probe(key_with_check(std::uint16_t(100 + i))).hit);

  // Same key: updated in place, nothing else evicted.
  const Key k0 = key_with_check(100);
  tt.probe(k0).writer.write(k0, 77, 11, Bound::Exact, Move::none());
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(tt.probe(key_with_check(std::uint16_t(100 + i))).hit);
  EXPECT_EQ(tt.probe(k0).data.score, 77);

  // A new key evicts the shallowest entry (depth 3), then the next shallowest.
  const Key k5 = key_with_check(200);
  tt.probe(k5).writer.write(k5, 0, 1, Bound::Exact, Move::none());
  EXPECT_FALSE(tt.probe(key_with_check(101)).hit);
  EXPECT_TRUE(tt.probe(k5).hit);
  const Key k6 = key_with_check(201);
  tt.probe(k6).writer.write(k6, 0, 4, Bound::Exact, Move::none());
  EXPECT_TRUE(tt.probe(k6).hit);
  // The depth-1 entry was the least valuable now.
  EXPECT_FALSE(tt.probe(k5).hit);
  EXPECT_TRUE(tt.probe(key_with_check(100)).hit);
  EXPECT_TRUE(tt.probe(key_with_check(102)).hit);
}

TEST(TranspositionTable, OldGenerationsAreReplacedBeforeFreshShallowEntries) {
  TranspositionTable tt;
  ASSERT_EQ(tt.resize_clusters_for_testing(1), "");
  for (int i = 0; i < 3; ++i) {
    const Key k = key_with_check(std::uint16_t(300 + i));
    tt.probe(k).writer.write(k, 0, 12, Bound::Exact, Move::none());
  }
  tt.new_search();
  tt.new_search();
  // Two new shallow entries replace two deep but old ones, not each other.
  const Key a = key_with_check(400), b = key_with_check(401);
  tt.probe(a).writer.write(a, 0, 1, Bound::Exact, Move::none());
  tt.probe(b).writer.write(b, 0, 1, Bound::Exact, Move::none());
  EXPECT_TRUE(tt.probe(a).hit);
  EXPECT_TRUE(tt.probe(b).hit);
  int old_left = 0;
  for (int i = 0; i < 3; ++i) old_left += tt.probe(key_with_check(std::uint16_t(300 + i))).hit;
  EXPECT_EQ(old_left, 1);
}

TEST(TranspositionTable, AnEvaluationIsStoredOnAMissAndKeptByResultsWithoutOne) {
  TranspositionTable tt;
  const Key key = 0x2468ACE013579BDFULL;
  tt.probe(key).writer.write_eval(key, -321, true);
  TTProbe p = tt.probe(key);
  ASSERT_TRUE(p.hit);
  EXPECT_EQ(p.data.eval, -321);
  EXPECT_EQ(p.data.bound, Bound::None);  // no result: nothing to cut off on
  EXPECT_EQ(p.data.score, kNone);
  EXPECT_EQ(p.data.move, Move::none());
  EXPECT_TRUE(p.data.pv);
  // A result that brings no evaluation (a node in check) keeps the stored one.
  p.writer.write(key, 55, 6, Bound::Lower, some_move(8, 16), kNone, false);
  p = tt.probe(key);
  ASSERT_TRUE(p.hit);
  EXPECT_EQ(p.data.eval, -321);
  EXPECT_EQ(p.data.score, 55);
  EXPECT_FALSE(p.data.pv);
  p.writer.write(key, 56, 7, Bound::Exact, Move::none(), 99, true);
  EXPECT_EQ(tt.probe(key).data.eval, 99);
  EXPECT_EQ(tt.probe(key ^ 1).data.eval, kNone);  // a miss has none
}

TEST(TranspositionTable, ANewPositionNeverInheritsTheEvaluationItDisplaces) {
  TranspositionTable tt;
  ASSERT_EQ(tt.resize_clusters_for_testing(1), "");
  for (int i = 0; i < 3; ++i) {
    const Key k = key_with_check(std::uint16_t(500 + i));
    tt.probe(k).writer.write(k, 0, 10 + i, Bound::Exact, Move::none(), 100 + i);
  }
  const Key fresh = key_with_check(600);
  tt.probe(fresh).writer.write(fresh, 0, 20, Bound::Exact, Move::none());
  const TTProbe p = tt.probe(fresh);
  ASSERT_TRUE(p.hit);
  EXPECT_EQ(p.data.eval, kNone);
  EXPECT_FALSE(tt.probe(key_with_check(500)).hit);  // the shallowest went
  EXPECT_EQ(tt.probe(key_with_check(501)).data.eval, 101);
}

TEST(TranspositionTable, AnEvaluationOnlyEntryIsTheFirstToBeReplaced) {
  TranspositionTable tt;
  ASSERT_EQ(tt.resize_clusters_for_testing(1), "");
  const Key only_eval = key_with_check(700);
  tt.probe(only_eval).writer.write_eval(only_eval, 12, false);
  for (int i = 0; i < 2; ++i) {
    const Key k = key_with_check(std::uint16_t(701 + i));
    tt.probe(k).writer.write(k, 0, -1, Bound::Upper, Move::none(), 5);  // quiescence drafts
  }
  const Key fresh = key_with_check(710);
  tt.probe(fresh).writer.write(fresh, 0, -1, Bound::Upper, Move::none(), 6);
  EXPECT_FALSE(tt.probe(only_eval).hit);
  EXPECT_TRUE(tt.probe(key_with_check(701)).hit);
  EXPECT_TRUE(tt.probe(key_with_check(702)).hit);
}

TEST(TranspositionTable, AnotherEvaluatorForgetsTheEvaluationsButNotTheResults) {
  TranspositionTable tt;
  const Key key = 0x1111222233334444ULL;
  tt.set_evaluator(7);
  tt.probe(key).writer.write(key, 40, 9, Bound::Exact, some_move(12, 20), 33);
  tt.set_evaluator(7);
  EXPECT_EQ(tt.probe(key).data.eval, 33);
  tt.set_evaluator(8);
  const TTProbe p = tt.probe(key);
  ASSERT_TRUE(p.hit);
  EXPECT_EQ(p.data.eval, kNone);
  EXPECT_EQ(p.data.score, 40);
  EXPECT_EQ(p.data.move, some_move(12, 20));
  EXPECT_EQ(tt.evaluator(), 8u);
}

TEST(TranspositionTable, HashfullCountsCurrentGenerationOnly) {
  TranspositionTable tt;
  ASSERT_EQ(tt.resize(1), "");
  EXPECT_EQ(tt.hashfull(), 0);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 400000; ++i) {
    const Key k = rng();
    tt.probe(k).writer.write(k, 0, 1, Bound::Exact, Move::none());
  }
  EXPECT_GT(tt.hashfull(), 900);
  tt.new_search();
  EXPECT_EQ(tt.hashfull(), 0);
}

TEST(TranspositionTable, ResizeChecksItsArgumentAndKeepsTheTable) {
  TranspositionTable tt;
  ASSERT_EQ(tt.resize(2), "");
  EXPECT_EQ(tt.size_mb(), 2u);
  EXPECT_EQ(tt.cluster_count(), (2u << 20) / 32);
  const Key key = 0xABCDEF0123456789ULL;
  tt.probe(key).writer.write(key, 1, 1, Bound::Exact, Move::none());
  EXPECT_NE(tt.resize(0), "");
  EXPECT_NE(tt.resize(TranspositionTable::kMaxMb + 1), "");
  EXPECT_EQ(tt.size_mb(), 2u);
  EXPECT_TRUE(tt.probe(key).hit);  // a failed resize leaves the table alone
  ASSERT_EQ(tt.resize(3), "");     // not a power of two: fine
  EXPECT_EQ(tt.size_mb(), 3u);
  EXPECT_FALSE(tt.probe(key).hit);
}

TEST(TranspositionTable, MateScoresAreStoredRelativeToTheNode) {
  // A mate found 3 plies below a node at ply 5 is mate_in(8) from the root. Reached again at
  // ply 9 by another path, the same entry means mate_in(12).
  const int stored = score_to_tt(mate_in(8), 5);
  EXPECT_EQ(stored, mate_in(3));
  EXPECT_EQ(score_from_tt(stored, 9, 0), mate_in(12));
  EXPECT_EQ(score_from_tt(score_to_tt(mated_in(7), 4), 2, 0), mated_in(5));
  // Through the packed entry as well.
  TranspositionTable tt;
  const Key key = 0x5555AAAA5555AAAAULL;
  tt.probe(key).writer.write(key, score_to_tt(mated_in(10), 6), 4, Bound::Exact, Move::none());
  EXPECT_EQ(score_from_tt(tt.probe(key).data.score, 6, 0), mated_in(10));
  // Tablebase wins and losses move with the ply like mates, and stay below the mate range.
  EXPECT_EQ(score_from_tt(score_to_tt(tb_win_in(12), 5), 3, 0), tb_win_in(10));
  EXPECT_EQ(score_from_tt(score_to_tt(tb_loss_in(9), 4), 6, 0), tb_loss_in(11));
  EXPECT_FALSE(is_mate_score(score_to_tt(tb_win_in(1), 1)));
  // Ordinary scores pass unchanged.
  EXPECT_EQ(score_from_tt(score_to_tt(-250, 17), 3, 0), -250);
  // A mate that the fifty-move rule would overtake is no longer reported as a mate.
  EXPECT_FALSE(is_mate_score(score_from_tt(mate_in(9), 0, 95)));
  EXPECT_TRUE(is_mate_score(score_from_tt(mate_in(9), 0, 80)));
  // Such a doubtful mate is a plain bound: not a mate, and not a tablebase result either (the
  // search treats both as decisive), just the best score short of them.
  EXPECT_FALSE(is_decisive(score_from_tt(mate_in(9), 0, 95)));
  EXPECT_FALSE(is_decisive(score_from_tt(mated_in(9), 0, 95)));
  EXPECT_GT(score_from_tt(mate_in(9), 0, 95), 20000);
  EXPECT_LT(score_from_tt(mated_in(9), 0, 95), -20000);
}

TEST(TranspositionTable, FoldedKeysMakeDistantPositionsShareEntries) {
  TranspositionTable tt;
  EXPECT_EQ(TranspositionTable::fold_key(0x1234, 0), 0x1234u);
  tt.set_key_bits(4);
  // Keys equal in their low four bits are one position to the table.
  const Key a = 0xABCDEF0123456785ULL, b = 0x1111111111111115ULL, c = 0x1111111111111116ULL;
  tt.probe(a).writer.write(a, 77, 3, Bound::Exact, Move(std::uint16_t(1234)));
  const TTProbe hit = tt.probe(b);
  ASSERT_TRUE(hit.hit);
  EXPECT_EQ(hit.data.score, 77);
  EXPECT_FALSE(tt.probe(c).hit);
  tt.set_key_bits(0);
  EXPECT_FALSE(tt.probe(b).hit);
}

TEST(TranspositionTable, MateMovesCountsFullMoves) {
  EXPECT_EQ(mate_moves(mate_in(1)), 1);
  EXPECT_EQ(mate_moves(mate_in(3)), 2);
  EXPECT_EQ(mate_moves(mate_in(7)), 4);
  EXPECT_EQ(mate_moves(mated_in(0)), 0);
  EXPECT_EQ(mate_moves(mated_in(2)), -1);
  EXPECT_EQ(mate_moves(mated_in(6)), -3);
}

// A table of two clusters fed results from thousands of positions, where entries are also
// written on purpose under keys that share the 16-bit check with the position probed next:
// nearly every probe finds a foreign move. Whatever move a probe returns, pseudo_legal &&
// legal must accept only moves the generator also produces, and nothing may crash.
TEST(TranspositionTable, ForcedCollisionsNeverYieldAnIllegalMove) {
  TranspositionTable tt;
  ASSERT_EQ(tt.resize_clusters_for_testing(2), "");
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "4k3/1P6/8/2pP4/8/8/6p1/4K2R w K c6 0 1",
  };
  std::mt19937_64 rng(2024);
  int probes_with_move = 0;
  int accepted = 0;
  int rejected = 0;
  Move previous_move = Move::none();
  Key previous_key = 0;
  for (const char* fen : fens) {
    std::string error;
    auto start = Position::from_fen(fen, false, error);
    ASSERT_TRUE(start) << error;
    for (int game = 0; game < 20; ++game) {
      Position pos = *start;
      for (int ply = 0; ply < 60; ++ply) {
        const MoveList<GenType::All> legal(pos);
        // A foreign entry: another position's move under a key with this position's check.
        const Key foreign = (previous_key & ~Key(0xFFFF)) | (pos.key() & 0xFFFF);
        const Move planted = rng() % 4 == 0 ? Move(std::uint16_t(rng())) : previous_move;
        tt.probe(foreign).writer.write(foreign, 0, 5, Bound::Lower, planted);
        for (int attempt = 0; attempt < 2; ++attempt) {
          const TTProbe p = tt.probe(pos.key());
          if (!p.hit || !p.data.move) continue;
          ++probes_with_move;
          if (pos.pseudo_legal(p.data.move) && pos.legal(p.data.move)) {
            ++accepted;
            EXPECT_TRUE(legal.contains(p.data.move))
                << pos.fen() << " accepted " << pos.move_to_uci(p.data.move);
          } else {
            ++rejected;
          }
          // Overwrite with this position's own result half of the time.
          if (!legal.empty() && rng() % 2)
            p.writer.write(pos.key(), int(rng() % 2001) - 1000, int(rng() % 30), Bound::Exact,
                           legal[rng() % legal.size()]);
        }
        if (legal.empty()) break;
        previous_move = legal[rng() % legal.size()];
        previous_key = pos.key();
        pos.make_move(legal[rng() % legal.size()]);
      }
    }
  }
  // The test did exercise both outcomes of the check.
  EXPECT_GT(probes_with_move, 1000);
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 100);
}

}  // namespace
}  // namespace tessera::search
