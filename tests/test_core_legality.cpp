// Move legality: pseudo_legal() && legal() must accept exactly the generator's moves among all
// 65,536 16-bit values (the search trusts both for hash and killer moves), and the Noisy and
// Quiet generators must partition the full list.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/zobrist.h"
#include "test_core_support.h"

namespace tessera {
namespace {

using test::parse;

struct Case {
  const char* name;
  const char* fen;
  bool chess960;
};

// Positions chosen for the rules they exercise.
const Case kCases[] = {
    {"startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"kiwipete black", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
     false},
    // CPW position 3: one move deeper, en passant that would expose the king along the rank.
    {"cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
    {"cpw4 promotions", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
    {"cpw5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false},
    {"cpw6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", false},
    // e5xf6 e.p. is legal here, so the ep square is kept and hashed.
    {"ep available", "rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
    // b5xc6 e.p. would remove both pawns from the fifth rank and expose the king to the rook.
    {"ep horizontally pinned", "8/8/8/KPp4r/8/8/8/7k w - c6 0 1", false},
    // d2-d4 gives check; e4xd3 e.p. removes the checker.
    {"ep evades check", "8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1", false},
    // The e4 pawn is pinned along a8-g2: e4xd3 e.p. (square hashed, a pawn attacks it) and
    // e4-e3 are both illegal.
    {"ep diagonally pinned", "B7/8/8/8/3Pp3/8/6k1/K7 b - d3 0 1", false},
    // Knight on d2, rook on e2 and pawn on f2 pinned to the king.
    {"pins", "4r1k1/8/8/8/1b5b/8/3NRP2/4K3 w - - 0 1", false},
    // Single check by a bishop: block (Nf2, Ng3, g3), capture (Rxh4) or step aside; no
    // castling although the rights are held.
    {"check", "4k3/8/8/8/4N2b/8/3P2P1/R3K2R w KQ - 0 1", false},
    // Double check (rook and knight): only king moves, Qxd3 is illegal.
    {"double check", "4r2k/8/8/8/8/Q2n4/8/4K3 w - - 0 1", false},
    // Promotions, with and without captures, both sides.
    {"promotions white", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1", false},
    {"promotions black", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},
    // f1 attacked: O-O illegal, O-O-O legal (b1 may be attacked).
    {"castle through attack", "1r2kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", false},
    // d1 attacked: O-O-O illegal, O-O legal.
    {"castle long through attack", "3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1", false},
    // In check: no castling at all.
    {"castle in check", "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", false},
    // Castling into check on g8 and c8 for black.
    {"castle into check", "r3k2r/8/8/8/8/8/8/2R1K1R1 b kq - 0 1", false},
    // Blocked castling paths (a piece on b1 blocks O-O-O though the king never crosses b1).
    {"castle blocked", "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1", false},
    // Chess960: the long-castling rook on b1 shields the king on c1 from the queen on a1;
    // O-O-O (king stays on c1, rook to d1) would expose it, O-O is fine.
    {"960 rook shields king", "6k1/8/8/8/8/8/8/qRK4R w HB - 0 1", true},
    // Chess960: king on f1, rooks b1 and g1; O-O swaps king and rook.
    {"960 king rook swap", "1r3kr1/6p1/8/8/8/8/6P1/1R3KR1 w GBgb - 0 1", true},
    {"960 king rook swap black", "1r3kr1/6p1/8/8/8/8/6P1/1R3KR1 b GBgb - 0 1", true},
    // Chess960: as above without the pawns: the king's destination g1 is the castling rook's
    // square, attacked by the rook g8 through nothing but that rook. O-O is illegal.
    {"960 destination is attacked rook square", "1r3kr1/8/8/8/8/8/8/1R3KR1 w GBgb - 0 1", true},
    // Chess960: king b1, rook a1; O-O-O puts the king on c1 and the rook on d1.
    {"960 king next to rook", "rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1", true},
    // Chess960: king d1, rook c1 (queen side): they swap squares.
    {"960 king d1 rook c1", "2rk3r/8/8/8/8/8/8/2RK3R w CHch - 0 1", true},
    // Chess960: king g1, f1 attacked. O-O (king stays, rook h1 to f1) is legal because only
    // the king's squares must be safe; O-O-O (king crosses f1) is not.
    {"960 rook square attacked", "1r4kr/8/8/8/8/8/5r2/1R4KR w HBhb - 0 1", true},
    // Chess960: king c1 stays put in O-O-O, but the bishop on b1 blocks the rook's way a1-d1.
    {"960 rook path blocked", "r1k1r3/pppppppp/8/8/8/8/PPPPPPPP/RBK1R3 w EAea - 0 1", true},
    // Chess960: black may castle both ways; in O-O-O the king does not move at all.
    {"960 black to move", "r1k1r3/pppppppp/8/8/8/8/PPPPPPPP/RBK1R3 b EAea - 0 1", true},
    // Chess960: black's O-O king crosses e8, which the white rook e1 attacks through the
    // castling rook standing there: illegal. O-O-O stays legal.
    {"960 king crosses attacked rook square", "r1k1r3/8/8/8/8/8/8/RBK1R3 b EAea - 0 1", true},
};

// Names the parameter in GoogleTest's output instead of dumping its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name << " (" << c.fen << ")"; }

// A well-formed raw move value with its generator membership, for messages.
std::string describe(const Position& pos, Move m) {
  return "raw " + std::to_string(m.raw()) + " (" + m.from().to_string() + m.to().to_string() +
         " kind " + std::to_string(int(m.kind())) + " promo " + std::to_string(int(m.promotion())) +
         ") in " + pos.fen();
}

// Checks the sweep for one position; returns the number of legal moves.
std::size_t sweep(const Position& pos) {
  const MoveList<GenType::All> legal(pos);
  std::set<std::uint16_t> expected;
  for (const Move m : legal) {
    EXPECT_TRUE(expected.insert(m.raw()).second) << "duplicate move " << describe(pos, m);
  }
  int failures = 0;
  std::size_t accepted = 0;
  for (int raw = 0; raw < 65536; ++raw) {
    const Move m{std::uint16_t(raw)};
    const bool is_legal = pos.pseudo_legal(m) && pos.legal(m);
    accepted += is_legal;
    if (is_legal != (expected.count(m.raw()) != 0) && ++failures <= 5)
      ADD_FAILURE() << (is_legal ? "accepted a move the generator does not produce: "
                                 : "rejected a generated move: ")
                    << describe(pos, m);
    if (is_legal != pos.is_legal_move(m) && ++failures <= 5)
      ADD_FAILURE() << "is_legal_move disagrees with pseudo_legal && legal: " << describe(pos, m);
  }
  EXPECT_EQ(accepted, legal.size()) << pos.fen();
  // The sentinels are never moves.
  EXPECT_FALSE(pos.pseudo_legal(Move::none()));
  EXPECT_FALSE(pos.pseudo_legal(Move::null()));
  return legal.size();
}

// Noisy and Quiet partition All, and is_noisy tells which list a move is in.
void check_partition(const Position& pos) {
  const MoveList<GenType::All> all(pos);
  const MoveList<GenType::Noisy> noisy(pos);
  const MoveList<GenType::Quiet> quiet(pos);
  std::multiset<std::uint16_t> a, u;
  for (const Move m : all) a.insert(m.raw());
  for (const Move m : noisy) {
    u.insert(m.raw());
    EXPECT_TRUE(pos.is_noisy(m)) << "Noisy list holds a quiet move: " << describe(pos, m);
    EXPECT_FALSE(quiet.contains(m)) << "move in both lists: " << describe(pos, m);
  }
  for (const Move m : quiet) {
    u.insert(m.raw());
    EXPECT_FALSE(pos.is_noisy(m)) << "Quiet list holds a noisy move: " << describe(pos, m);
  }
  EXPECT_EQ(a, u) << "Noisy + Quiet differ from All in " << pos.fen();
  EXPECT_EQ(has_legal_move(pos), !all.empty()) << pos.fen();
  // is_capture agrees with the board.
  for (const Move m : all) {
    const bool capture =
        m.kind() == MoveKind::EnPassant || (m.kind() != MoveKind::Castling && !pos.empty(m.to()));
    EXPECT_EQ(pos.is_capture(m), capture) << describe(pos, m);
  }
}

class LegalitySweep : public ::testing::TestWithParam<Case> {};

TEST_P(LegalitySweep, PseudoLegalAndLegalAcceptExactlyTheGeneratedMoves) {
  const Case& c = GetParam();
  const Position pos = parse(c.fen, c.chess960);
  EXPECT_GT(sweep(pos), 0u);
}

TEST_P(LegalitySweep, PseudoLegalAndLegalAcceptExactlyTheGeneratedMovesOneMoveDeeper) {
  // The children reach states the FENs don't spell out (fresh ep squares, lost rights).
  const Case& c = GetParam();
  Position pos = parse(c.fen, c.chess960);
  for (const Move m : MoveList<GenType::All>(pos)) {
    pos.make_move(m);
    sweep(pos);
    check_partition(pos);
    pos.unmake_move(m);
    if (HasFailure()) break;
  }
}

TEST_P(LegalitySweep, NoisyAndQuietPartitionAll) {
  const Case& c = GetParam();
  check_partition(parse(c.fen, c.chess960));
}

INSTANTIATE_TEST_SUITE_P(Core, LegalitySweep, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                           std::string name = param_info.param.name;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// The positions above encode specific rules; spot-check that the generator agrees with them,
// so a sweep that passes because both sides share a bug is still caught.
TEST(CoreLegality, SpecificRulesInTheSweepPositions) {
  auto has = [](const Position& pos, std::string_view uci) {
    return !pos.parse_uci_move(uci).is_none();
  };
  {
    const Position pos = parse("8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    EXPECT_FALSE(has(pos, "b5c6"));  // ep would expose the king
    EXPECT_TRUE(has(pos, "b5b6"));
  }
  {
    const Position pos = parse("8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1");
    EXPECT_TRUE(has(pos, "e4d3"));  // ep removes the checking pawn
    EXPECT_TRUE(has(pos, "e5d4"));
    EXPECT_FALSE(has(pos, "e4e3"));  // does not address the check
  }
  {
    const Position pos = parse("B7/8/8/8/3Pp3/8/6k1/K7 b - d3 0 1");
    EXPECT_EQ(pos.ep_square(), test::sq("d3"));  // a pawn attacks it, so it is kept
    EXPECT_FALSE(has(pos, "e4d3"));              // but the pawn is pinned
    EXPECT_FALSE(has(pos, "e4e3"));
  }
  {
    const Position pos = parse("4k3/8/8/8/4N2b/8/3P2P1/R3K2R w KQ - 0 1");
    EXPECT_TRUE(has(pos, "e4f2"));
    EXPECT_TRUE(has(pos, "g2g3"));
    EXPECT_TRUE(has(pos, "h1h4"));
    EXPECT_FALSE(has(pos, "e1f2"));
    EXPECT_FALSE(has(pos, "e1g1"));
    EXPECT_FALSE(has(pos, "d2d3"));
    EXPECT_EQ(MoveList<GenType::All>(pos).size(), 7u);  // Nf2 Ng3 g3 Rxh4 Kd1 Ke2 Kf1
  }
  {
    const Position pos = parse("4r1k1/8/8/8/1b5b/8/3NRP2/4K3 w - - 0 1");
    EXPECT_FALSE(has(pos, "d2f3"));
    EXPECT_FALSE(has(pos, "f2f3"));
    EXPECT_FALSE(has(pos, "e2d2"));
    EXPECT_TRUE(has(pos, "e2e5"));  // along the pin
    EXPECT_TRUE(has(pos, "e2e8"));  // capturing the pinner
  }
  {
    const Position pos = parse("4r2k/8/8/8/8/Q2n4/8/4K3 w - - 0 1");
    EXPECT_FALSE(has(pos, "a3d3"));
    for (const Move m : MoveList<GenType::All>(pos))
      EXPECT_EQ(pos.moved_piece(m).type(), KING) << "only king moves in double check";
  }
  {
    const Position pos = parse("1r2kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    EXPECT_FALSE(has(pos, "e1g1"));
    EXPECT_TRUE(has(pos, "e1c1"));
    EXPECT_FALSE(pos.can_castle_now(WHITE_OO));
    EXPECT_TRUE(pos.can_castle_now(WHITE_OOO));
  }
  {
    const Position pos = parse("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    EXPECT_TRUE(has(pos, "e1g1"));
    EXPECT_FALSE(has(pos, "e1c1"));
  }
  {
    const Position pos = parse("r3k2r/8/8/8/8/8/8/2R1K1R1 b kq - 0 1");
    EXPECT_FALSE(has(pos, "e8g8"));  // g8 attacked
    EXPECT_FALSE(has(pos, "e8c8"));  // c8 attacked
    EXPECT_TRUE(has(pos, "e8f8"));
  }
  {
    const Position pos = parse("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
    EXPECT_FALSE(has(pos, "e1g1"));  // no castling out of check
    EXPECT_FALSE(has(pos, "e1c1"));
  }
  {
    const Position pos = parse("r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1");
    EXPECT_FALSE(has(pos, "e1g1"));
    EXPECT_FALSE(has(pos, "e1c1"));
    EXPECT_TRUE(pos.castling_blocked(WHITE_OOO));
  }
  {
    const Position pos = parse("6k1/8/8/8/8/8/8/qRK4R w HB - 0 1", true);
    EXPECT_FALSE(has(pos, "c1b1"));  // O-O-O exposes the king to the queen
    EXPECT_TRUE(has(pos, "c1h1"));   // O-O
  }
  {
    Position pos = parse("1r3kr1/6p1/8/8/8/8/6P1/1R3KR1 w GBgb - 0 1", true);
    test::play(pos, "f1g1");  // O-O: king and rook swap squares
    EXPECT_EQ(pos.piece_on(test::sq("g1")), Piece(WHITE, KING));
    EXPECT_EQ(pos.piece_on(test::sq("f1")), Piece(WHITE, ROOK));
    EXPECT_EQ(pos.count(WHITE, ROOK), 2);
    EXPECT_FALSE(pos.can_castle(WHITE_OO));
    EXPECT_FALSE(pos.can_castle(WHITE_OOO));
  }
  {
    Position pos = parse("1r3kr1/6p1/8/8/8/8/6P1/1R3KR1 b GBgb - 0 1", true);
    test::play(pos, "f8b8");  // O-O-O: king to c8, rook b8 to d8
    EXPECT_EQ(pos.piece_on(test::sq("c8")), Piece(BLACK, KING));
    EXPECT_EQ(pos.piece_on(test::sq("d8")), Piece(BLACK, ROOK));
    EXPECT_TRUE(pos.empty(test::sq("b8")));
    EXPECT_TRUE(pos.empty(test::sq("f8")));
    EXPECT_EQ(pos.piece_on(test::sq("g8")), Piece(BLACK, ROOK));
  }
  {
    const Position pos = parse("1r3kr1/8/8/8/8/8/8/1R3KR1 w GBgb - 0 1", true);
    EXPECT_FALSE(has(pos, "f1g1"));  // g1 is attacked by the rook g8
    EXPECT_TRUE(has(pos, "f1b1"));
  }
  {
    const Position pos = parse("1r4kr/8/8/8/8/8/5r2/1R4KR w HBhb - 0 1", true);
    EXPECT_TRUE(has(pos, "g1h1"));   // the rook may land on an attacked square
    EXPECT_FALSE(has(pos, "g1b1"));  // the king may not cross one
  }
  {
    const Position pos = parse("r1k1r3/pppppppp/8/8/8/8/PPPPPPPP/RBK1R3 w EAea - 0 1", true);
    EXPECT_FALSE(has(pos, "c1a1"));  // the rook's path is blocked by the bishop
    EXPECT_TRUE(has(pos, "c1e1"));
  }
  {
    const Position pos = parse("r1k1r3/pppppppp/8/8/8/8/PPPPPPPP/RBK1R3 b EAea - 0 1", true);
    EXPECT_TRUE(has(pos, "c8a8"));  // the king does not move at all
    EXPECT_TRUE(has(pos, "c8e8"));
  }
  {
    const Position pos = parse("r1k1r3/8/8/8/8/8/8/RBK1R3 b EAea - 0 1", true);
    EXPECT_TRUE(has(pos, "c8a8"));
    EXPECT_FALSE(has(pos, "c8e8"));  // e8 is attacked by Re1 once the rook leaves it
  }
}

// Random legal games: the sweep invariants hold along many game paths, cheaply (only a
// sample of raw values per node).
TEST(CoreLegality, RandomGamesKeepGeneratorAndValidatorInAgreement) {
  std::uint64_t state = 0x5EEDULL;
  auto next = [&state] { return splitmix64(state); };
  int nodes = 0;
  for (int game = 0; game < 40; ++game) {
    Position pos = Position::startpos();
    for (int ply = 0; ply < 120; ++ply) {
      const MoveList<GenType::All> moves(pos);
      if (moves.empty()) break;
      // Every generated move validates, and 500 random raw values agree with the list.
      for (const Move m : moves)
        ASSERT_TRUE(pos.pseudo_legal(m) && pos.legal(m)) << describe(pos, m);
      for (int i = 0; i < 500; ++i) {
        const Move m{std::uint16_t(next())};
        ASSERT_EQ(pos.pseudo_legal(m) && pos.legal(m), moves.contains(m)) << describe(pos, m);
      }
      pos.make_move(moves[next() % moves.size()]);
      ++nodes;
    }
  }
  EXPECT_GT(nodes, 1000);
}

}  // namespace
}  // namespace tessera
