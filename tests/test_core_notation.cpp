// UCI move notation: move_to_uci and parse_uci_move, including castling in both notations
// (e1g1 in standard chess, king-takes-rook e1h1 in Chess960), promotions, and rejection of
// every malformed or illegal string.
#include <gtest/gtest.h>

#include <string>

#include "core/movegen.h"
#include "core/position.h"
#include "test_core_support.h"

namespace tessera {
namespace {

using test::parse;
using test::sq;

TEST(CoreNotation, NormalMoves) {
  const Position pos = Position::startpos();
  const Move m = pos.parse_uci_move("e2e4");
  ASSERT_FALSE(m.is_none());
  EXPECT_EQ(m.from(), sq("e2"));
  EXPECT_EQ(m.to(), sq("e4"));
  EXPECT_EQ(m.kind(), MoveKind::Normal);
  EXPECT_EQ(pos.move_to_uci(m), "e2e4");
  EXPECT_EQ(pos.move_to_uci(pos.parse_uci_move("g1f3")), "g1f3");
}

TEST(CoreNotation, StandardCastlingIsKingTwoSquares) {
  const Position pos = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const Move oo = pos.parse_uci_move("e1g1");
  ASSERT_FALSE(oo.is_none());
  EXPECT_EQ(oo.kind(), MoveKind::Castling);
  EXPECT_EQ(oo.from(), sq("e1"));
  EXPECT_EQ(oo.to(), sq("h1"));  // stored as king takes rook
  EXPECT_EQ(pos.move_to_uci(oo), "e1g1");
  const Move ooo = pos.parse_uci_move("e1c1");
  ASSERT_FALSE(ooo.is_none());
  EXPECT_EQ(ooo.to(), sq("a1"));
  EXPECT_EQ(pos.move_to_uci(ooo), "e1c1");

  Position black = parse("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  EXPECT_EQ(black.move_to_uci(test::uci(black, "e8g8")), "e8g8");
  EXPECT_EQ(black.move_to_uci(test::uci(black, "e8c8")), "e8c8");
}

TEST(CoreNotation, Chess960CastlingIsKingTakesRook) {
  const Position pos = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true);
  const Move oo = pos.parse_uci_move("e1h1");
  ASSERT_FALSE(oo.is_none());
  EXPECT_EQ(oo.kind(), MoveKind::Castling);
  EXPECT_EQ(pos.move_to_uci(oo), "e1h1");
  EXPECT_EQ(pos.move_to_uci(test::uci(pos, "e1a1")), "e1a1");

  // The same move switches notation with the mode.
  Position toggled = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const Move m = test::uci(toggled, "e1g1");
  toggled.set_chess960(true);
  EXPECT_EQ(toggled.move_to_uci(m), "e1h1");
  toggled.set_chess960(false);
  EXPECT_EQ(toggled.move_to_uci(m), "e1g1");

  // Chess960 with the king next to a rook (b1, a1) and far from the other (h1).
  const Position c960 = parse("rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1", true);
  int castlings = 0;
  for (const Move mv : MoveList<GenType::All>(c960)) {
    if (mv.kind() != MoveKind::Castling) continue;
    ++castlings;
    EXPECT_EQ(c960.move_to_uci(mv), mv.from().to_string() + mv.to().to_string());
  }
  EXPECT_EQ(castlings, 2);
}

TEST(CoreNotation, Promotions) {
  const Position pos = parse("3n4/4P3/8/8/8/8/k7/4K3 w - - 0 1");
  const Move q = pos.parse_uci_move("e7e8q");
  ASSERT_FALSE(q.is_none());
  EXPECT_EQ(q.kind(), MoveKind::Promotion);
  EXPECT_EQ(q.promotion(), QUEEN);
  EXPECT_EQ(pos.move_to_uci(q), "e7e8q");
  EXPECT_EQ(pos.parse_uci_move("e7e8r").promotion(), ROOK);
  EXPECT_EQ(pos.parse_uci_move("e7e8b").promotion(), BISHOP);
  EXPECT_EQ(pos.parse_uci_move("e7e8n").promotion(), KNIGHT);
  EXPECT_EQ(pos.move_to_uci(pos.parse_uci_move("e7e8n")), "e7e8n");
  // Capture-promotion.
  const Move cq = pos.parse_uci_move("e7d8q");
  ASSERT_FALSE(cq.is_none());
  EXPECT_TRUE(pos.is_capture(cq));
  EXPECT_EQ(pos.move_to_uci(cq), "e7d8q");
}

TEST(CoreNotation, InvalidStringsAreNone) {
  const Position promo = parse("3n4/4P3/8/8/8/8/k7/4K3 w - - 0 1");
  for (const char* text : {"e7e8Q", "e7e8", "e7e8k", "e7e8p", "e7e8qq", "e7e8x", "e7d8"})
    EXPECT_TRUE(promo.parse_uci_move(text).is_none()) << text;

  const Position pos = Position::startpos();
  for (const char* text : {"",      "e",     "e2",   "e2e",  "e2e4q", "e2e4e5", "e2e4 ",
                           " e2e4", "e2-e4", "i2i4", "e0e1", "e9e1",  "0000",   "xxxx",
                           "e2e5",  "e1e2",  "a1a1", "g1g3", "e7e5",  "e2e4\n", "e1g1"})
    EXPECT_TRUE(pos.parse_uci_move(text).is_none()) << "'" << text << "'";

  // Castling that is not available is not a legal move either.
  const Position no_rights = parse("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
  EXPECT_TRUE(no_rights.parse_uci_move("e1g1").is_none());
  EXPECT_TRUE(no_rights.parse_uci_move("e1h1").is_none());
}

TEST(CoreNotation, EveryLegalMoveRoundTrips) {
  struct Case {
    const char* fen;
    bool chess960;
  };
  const Case cases[] = {
      {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
      {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", true},
      {"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", false},
      {"rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
      {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},
      {"1r3kr1/6p1/8/8/8/8/6P1/1R3KR1 w GBgb - 0 1", true},
      {"rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1", true},
  };
  for (const Case& c : cases) {
    const Position pos = parse(c.fen, c.chess960);
    for (const Move m : MoveList<GenType::All>(pos)) {
      const std::string text = pos.move_to_uci(m);
      EXPECT_TRUE(text.size() == 4 || (text.size() == 5 && m.kind() == MoveKind::Promotion))
          << text;
      EXPECT_EQ(pos.parse_uci_move(text), m) << c.fen << " " << text;
    }
  }
}

}  // namespace
}  // namespace tessera
