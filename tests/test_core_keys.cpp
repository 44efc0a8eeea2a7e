// Zobrist keys: the incrementally updated key, pawn key and material key must equal their
// from-scratch recomputation at every node of a move tree, unmake must restore the position
// exactly, and keys must identify positions independently of the move order that reached them.
// Each colour's non-pawn key follows that colour's pieces other than pawns, and nothing else.
#include <gtest/gtest.h>

#include <string>

#include "core/movegen.h"
#include "core/position.h"
#include "test_core_support.h"

namespace tessera {
namespace {

using test::consistency_error;
using test::parse;
using test::play;

// Statistics of one tree walk, so that a test can assert it visited something.
struct WalkStats {
  std::uint64_t nodes = 0;
  std::uint64_t failures = 0;
};

// Walks the legal move tree to `depth`. At every child the incremental state must match the
// recomputation; after every unmake the FEN, the three keys, the checkers and the rule-50
// counter must be exactly those from before the make. Stops reporting after a few failures so
// that one bug does not flood the log.
void walk(Position& pos, int depth, const std::string& root, WalkStats& stats) {
  if (depth == 0) return;
  const std::string fen_before = pos.fen();
  const StateInfo before = pos.state();
  const int history = pos.history_size();
  for (const Move m : MoveList<GenType::All>(pos)) {
    pos.make_move(m);
    ++stats.nodes;
    std::string error = consistency_error(pos);
    if (pos.last_move() != m || pos.history_size() != history + 1)
      error += " last_move()/history_size() not updated";
    if (!error.empty() && ++stats.failures <= 5)
      ADD_FAILURE() << error << " after " << m.from().to_string() << m.to().to_string() << " (kind "
                    << int(m.kind()) << ") in " << fen_before << " (child " << pos.fen()
                    << ", root " << root << ")";
    walk(pos, depth - 1, root, stats);
    pos.unmake_move(m);
    const StateInfo& after = pos.state();
    const bool restored =
        pos.fen() == fen_before && after.key == before.key && after.pawn_key == before.pawn_key &&
        after.material_key == before.material_key && after.checkers == before.checkers &&
        after.rule50 == before.rule50 && after.castling == before.castling &&
        after.ep_square == before.ep_square && after.plies_from_null == before.plies_from_null &&
        pos.history_size() == history;
    if (!restored && ++stats.failures <= 5)
      ADD_FAILURE() << "unmake of " << pos.move_to_uci(m) << " did not restore " << fen_before
                    << " (got " << pos.fen() << ")";
  }
}

void walk_suite(const std::vector<test::EpdEntry>& entries, bool chess960, int depth) {
  WalkStats stats;
  for (const auto& e : entries) {
    Position pos = parse(e.fen, chess960);
    ASSERT_EQ(consistency_error(pos), "") << e.fen;
    walk(pos, depth, e.fen, stats);
    if (stats.failures > 20) break;
  }
  EXPECT_EQ(stats.failures, 0u);
  EXPECT_GT(stats.nodes, 1000u);  // the walk really ran
}

TEST(CoreKeys, IncrementalKeysMatchRecomputationOverStandardSuite) {
  // Depth 3 over every second standard position, plus every position with castling rights or an
  // en-passant square and the promotion positions at the end of the suite.
  const auto all = test::load_perft_epd("perft/standard.epd");
  std::vector<test::EpdEntry> sample;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto fields = test::fen_fields(all[i].fen);
    const bool special = fields.at(2) != "-" || fields.at(3) != "-" || i >= 118;
    if (special || i % 2 == 0) sample.push_back(all[i]);
  }
  walk_suite(sample, false, 3);
}

TEST(CoreKeys, IncrementalKeysMatchRecomputationOverNamedPositions) {
  // The CPW positions (kiwipete, ep pins, promotions with checks) at depth 3.
  walk_suite(test::load_perft_epd("tests/data/named.epd"), false, 3);
}

TEST(CoreKeys, IncrementalKeysMatchRecomputationOverChess960Suite) {
  // Chess960 castling moves the king onto or past its own rook: every 30th position (32) plus
  // every position that has an en-passant square.
  const auto all = test::load_perft_epd("perft/fischer.epd");
  std::vector<test::EpdEntry> sample = test::every_nth(all, 30 * test::suite_stride());
  for (const auto& e : all)
    if (test::fen_fields(e.fen).at(3) != "-") sample.push_back(e);
  ASSERT_GE(sample.size(), 20u / test::suite_stride());
  walk_suite(sample, true, 3);
}

TEST(CoreKeys, TranspositionsShareOneKey) {
  Position a = Position::startpos();
  Position b = Position::startpos();
  play(a, "g1f3 g8f6 b1c3 b8c6");
  play(b, "b1c3 b8c6 g1f3 g8f6");
  EXPECT_EQ(a.key(), b.key());
  EXPECT_EQ(a.pawn_key(), b.pawn_key());
  EXPECT_EQ(a.material_key(), b.material_key());
  EXPECT_EQ(a.fen(), b.fen());

  // A piece going out and back is the same position as never having moved.
  Position c = Position::startpos();
  play(c, "g1f3 g8f6 f3g1 f6g8");
  EXPECT_EQ(c.key(), Position::startpos().key());

  // A different position must (for these) get a different key.
  Position d = Position::startpos();
  play(d, "g1f3 g8f6 b1c3 b8a6");
  EXPECT_NE(a.key(), d.key());
}

TEST(CoreKeys, KeyDependsOnSideToMove) {
  const Position w = parse("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
  const Position b = parse("4k3/8/8/8/8/8/8/4K2R b - - 0 1");
  EXPECT_NE(w.key(), b.key());
  // The pawn and material keys describe only the pieces.
  EXPECT_EQ(w.pawn_key(), b.pawn_key());
  EXPECT_EQ(w.material_key(), b.material_key());
}

TEST(CoreKeys, KeyDependsOnCastlingRights) {
  const Position all = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const Position some = parse("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1");
  const Position none = parse("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
  EXPECT_NE(all.key(), some.key());
  EXPECT_NE(all.key(), none.key());
  EXPECT_NE(some.key(), none.key());
}

TEST(CoreKeys, UselessDoublePushHashesLikeNoEnPassantSquare) {
  // After 1.e4 no black pawn can take en passant, so the position equals the FEN without an
  // ep square: same key, and fen() writes '-'.
  Position pos = Position::startpos();
  play(pos, "e2e4");
  const Position no_ep = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(pos.key(), no_ep.key());
  EXPECT_TRUE(pos.ep_square().is_none());
  EXPECT_EQ(pos.fen(), no_ep.fen());

  // Same with the FEN spelling out e3: a useless ep square is dropped on parsing.
  const Position with_field = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  EXPECT_EQ(with_field.key(), no_ep.key());
}

TEST(CoreKeys, DoublePushNextToEnemyPawnHashesTheEnPassantSquare) {
  // Black pawn on d4; 1.e4 (from a position with white to move) lets d4xe3 e.p.
  Position pos = parse("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
  play(pos, "e2e4");
  ASSERT_EQ(pos.ep_square(), test::sq("e3"));
  const Position without = parse("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
  const Position with = parse("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
  EXPECT_NE(pos.key(), without.key());
  EXPECT_EQ(pos.key(), with.key());
  EXPECT_EQ(pos.pawn_key(), without.pawn_key());  // ep is not part of the pawn structure
  // The ep square lasts one ply only.
  play(pos, "e8d8");
  const Position later = parse("3k4/8/8/8/3pP3/8/8/4K3 w - - 0 1");
  EXPECT_EQ(pos.key(), later.key());
}

TEST(CoreKeys, NullMoveTogglesSideAndDropsEnPassant) {
  Position pos = parse("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
  play(pos, "e2e4");
  ASSERT_FALSE(pos.ep_square().is_none());
  const Key key = pos.key();
  const std::string fen = pos.fen();

  pos.make_null_move();
  EXPECT_EQ(pos.side_to_move(), WHITE);
  EXPECT_TRUE(pos.ep_square().is_none());
  EXPECT_EQ(pos.key(), parse("4k3/8/8/8/3pP3/8/8/4K3 w - - 0 1").key());
  EXPECT_EQ(consistency_error(pos), "");

  pos.unmake_null_move();
  EXPECT_EQ(pos.key(), key);
  EXPECT_EQ(pos.fen(), fen);
  EXPECT_EQ(pos.side_to_move(), BLACK);
  EXPECT_EQ(pos.ep_square(), test::sq("e3"));
}

TEST(CoreKeys, NullMoveFromStartKeepsPiecesKeys) {
  Position pos = Position::startpos();
  const Key pawn = pos.pawn_key();
  const Key material = pos.material_key();
  pos.make_null_move();
  EXPECT_EQ(pos.side_to_move(), BLACK);
  EXPECT_EQ(pos.key(), pos.compute_key());
  EXPECT_EQ(pos.pawn_key(), pawn);
  EXPECT_EQ(pos.material_key(), material);
  EXPECT_NE(pos.key(), Position::startpos().key());
  pos.unmake_null_move();
  EXPECT_EQ(pos.key(), Position::startpos().key());
}

TEST(CoreKeys, MaterialKeyDependsOnlyOnPieceCounts) {
  // Same material on different squares: equal material keys, different keys and pawn keys.
  const Position a = parse("4k3/pp6/8/8/8/8/6PP/R3K3 w - - 0 1");
  const Position b = parse("4k3/6pp/8/8/8/8/PP6/4K2R w - - 0 1");
  EXPECT_EQ(a.material_key(), b.material_key());
  EXPECT_NE(a.key(), b.key());
  EXPECT_NE(a.pawn_key(), b.pawn_key());
  // One pawn fewer: a different material key.
  const Position c = parse("4k3/p7/8/8/8/8/6PP/R3K3 w - - 0 1");
  EXPECT_NE(a.material_key(), c.material_key());
  // A promotion changes the material key exactly as the piece counts say.
  Position d = parse("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  play(d, "a7a8q");
  EXPECT_EQ(d.material_key(), parse("Q3k3/8/8/8/8/8/8/4K3 b - - 0 1").material_key());
}

TEST(CoreKeys, NonPawnKeyFollowsOneColoursPiecesOnly) {
  Position a = Position::startpos();
  const Key white = a.non_pawn_key(WHITE);
  const Key black = a.non_pawn_key(BLACK);
  EXPECT_NE(white, black);
  // Pawn moves, and the other colour's moves, leave a colour's key alone.
  play(a, "e2e4 e7e5");
  EXPECT_EQ(a.non_pawn_key(WHITE), white);
  EXPECT_EQ(a.non_pawn_key(BLACK), black);
  // A piece move changes its own colour's key only; moving back restores it.
  play(a, "g1f3");
  EXPECT_NE(a.non_pawn_key(WHITE), white);
  EXPECT_EQ(a.non_pawn_key(BLACK), black);
  play(a, "g8f6 f3g1 f6g8");
  EXPECT_EQ(a.non_pawn_key(WHITE), white);
  EXPECT_EQ(a.non_pawn_key(BLACK), black);
  // Transpositions agree; the same pieces with other pawns share the key.
  Position b = Position::startpos();
  Position c = Position::startpos();
  play(b, "g1f3 g8f6 b1c3");
  play(c, "b1c3 g8f6 g1f3");
  EXPECT_EQ(b.non_pawn_key(WHITE), c.non_pawn_key(WHITE));
  EXPECT_EQ(parse("4k3/pp6/8/8/8/8/6PP/R3K3 w - - 0 1").non_pawn_key(WHITE),
            parse("4k3/8/8/8/8/8/PP6/R3K3 w - - 0 1").non_pawn_key(WHITE));
  // A capture of a piece changes the victim's key; a promotion the promoter's.
  Position d = parse("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1");
  const Key black_before = d.non_pawn_key(BLACK);
  play(d, "d1d5");
  EXPECT_NE(d.non_pawn_key(BLACK), black_before);
  Position e = parse("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  const Key white_before = e.non_pawn_key(WHITE);
  play(e, "a7a8q");
  EXPECT_NE(e.non_pawn_key(WHITE), white_before);
  // The key is the XOR of the Zobrist keys of those pieces: a lone king's is its square's key.
  EXPECT_EQ(parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1").non_pawn_key(WHITE),
            kZobrist.piece[Piece(WHITE, KING).index()][Square(4, 0).index()]);
}

}  // namespace
}  // namespace tessera
