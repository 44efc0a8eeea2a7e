// FEN parsing and writing: every suite position round-trips, the castling dialects (standard,
// X-FEN, Shredder-FEN) agree, and every malformed or impossible FEN is rejected with a message
// instead of crashing or producing a corrupt position.
#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/zobrist.h"
#include "test_core_support.h"

namespace tessera {
namespace {

using test::fen_fields;
using test::parse;

constexpr std::array<CastlingRight, 4> kRights = {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO};

// The FEN with its en-passant field replaced.
std::string with_ep_field(const std::string& fen, const std::string& ep) {
  auto f = fen_fields(fen);
  f.at(3) = ep;
  std::string out;
  for (const auto& x : f) out += (out.empty() ? "" : " ") + x;
  return out;
}

bool has_en_passant_capture(const Position& pos) {
  for (const Move m : MoveList<GenType::All>(pos))
    if (m.kind() == MoveKind::EnPassant) return true;
  return false;
}

// Does a pawn of the side to move attack the FEN's ep square?
bool ep_attacked_by_mover(const Position& pos, const std::string& ep) {
  if (ep == "-") return false;
  const Square s = test::sq(ep);
  const Color us = pos.side_to_move();
  return (pawn_attacks(~us, s) & pos.pieces(us, PAWN)) != 0;
}

// Round trip of one FEN: fen() parses back to the same key and the same text; the castling
// rooks survive; and where the input's ep field is meaningful the text equals the input.
void check_round_trip(const std::string& fen, bool chess960) {
  SCOPED_TRACE(fen);
  const Position pos = parse(fen, chess960);
  EXPECT_EQ(test::consistency_error(pos), "");
  const std::string written = pos.fen();
  const Position again = parse(written, chess960);
  EXPECT_EQ(again.key(), pos.key());
  EXPECT_EQ(again.pawn_key(), pos.pawn_key());
  EXPECT_EQ(again.material_key(), pos.material_key());
  EXPECT_EQ(again.fen(), written);
  EXPECT_EQ(again.castling_rights(), pos.castling_rights());
  EXPECT_EQ(again.rule50(), pos.rule50());
  for (const CastlingRight r : kRights)
    if (pos.can_castle(r)) {
      EXPECT_EQ(again.castling_rook(r), pos.castling_rook(r)) << int(r);
    }

  if (chess960) return;  // Shredder letters may legitimately be rewritten as KQkq
  const std::string ep = fen_fields(fen).at(3);
  if (ep == "-" || has_en_passant_capture(pos)) {
    EXPECT_EQ(written, fen);
  } else if (!ep_attacked_by_mover(pos, ep)) {
    // No pawn could take: the ep square is not part of the position.
    EXPECT_EQ(written, with_ep_field(fen, "-"));
    EXPECT_TRUE(pos.ep_square().is_none());
  }
}

TEST(CoreFen, StandardSuiteRoundTrips) {
  for (const auto& e : test::load_perft_epd("perft/standard.epd")) check_round_trip(e.fen, false);
}

TEST(CoreFen, NamedAndBenchPositionsRoundTrip) {
  for (const auto& e : test::load_perft_epd("tests/data/named.epd")) check_round_trip(e.fen, false);
  for (const auto& f : test::load_fens("tests/data/bench_ethereal.fen")) check_round_trip(f, false);
  for (const auto& f : test::load_fens("tests/data/bench_stockfish.fen"))
    check_round_trip(f, false);
}

TEST(CoreFen, Chess960SuiteRoundTrips) {
  for (const auto& e : test::load_perft_epd("perft/fischer.epd")) check_round_trip(e.fen, true);
}

TEST(CoreFen, StartposMatchesItsFen) {
  const Position pos = Position::startpos();
  EXPECT_EQ(pos.fen(), Position::kStartFen);
  EXPECT_EQ(pos.key(), parse(Position::kStartFen).key());
  EXPECT_EQ(pos.side_to_move(), WHITE);
  EXPECT_EQ(pos.castling_rights(), ALL_CASTLING);
  EXPECT_EQ(pos.castling_rook(WHITE_OO), test::sq("h1"));
  EXPECT_EQ(pos.castling_rook(BLACK_OOO), test::sq("a8"));
  EXPECT_FALSE(pos.chess960());
}

TEST(CoreFen, CountersAreOptional) {
  const Position pos = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
  EXPECT_EQ(pos.key(), Position::startpos().key());
  EXPECT_EQ(pos.rule50(), 0);
  EXPECT_EQ(pos.fen(), Position::kStartFen);
}

TEST(CoreFen, CountersAreKept) {
  const Position pos = parse("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 17 42");
  EXPECT_EQ(pos.rule50(), 17);
  EXPECT_EQ(pos.fen(), "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 17 42");
  // The fullmove number advances after black's move, and the clock with a quiet move.
  Position after = pos;
  test::play(after, "a8b8");
  EXPECT_EQ(after.fen(), "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 18 43");
  test::play(after, "a1a8");
  EXPECT_EQ(after.fen(), "Rr2k2r/8/8/8/8/8/8/4K2R b Kk - 19 43");
  test::play(after, "b8a8");  // capture resets the clock
  EXPECT_EQ(after.fen(), "r3k2r/8/8/8/8/8/8/4K2R w Kk - 0 44");
}

TEST(CoreFen, ShredderCastlingLettersOnTheStandardStart) {
  for (const bool chess960 : {false, true}) {
    const Position pos =
        parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", chess960);
    EXPECT_EQ(pos.key(), Position::startpos().key()) << chess960;
    EXPECT_EQ(pos.castling_rights(), ALL_CASTLING);
    EXPECT_EQ(pos.castling_rook(WHITE_OO), test::sq("h1"));
    EXPECT_EQ(pos.castling_rook(WHITE_OOO), test::sq("a1"));
    EXPECT_EQ(pos.castling_rook(BLACK_OO), test::sq("h8"));
    EXPECT_EQ(pos.castling_rook(BLACK_OOO), test::sq("a8"));
  }
}

TEST(CoreFen, XFenMeansTheOutermostRook) {
  // White king b1 with two rooks on its king side: K is the outer one (h1), D names d1.
  const Position outer = parse("1k6/8/8/8/8/8/8/1K1R3R w K - 0 1", true);
  const Position shredder_outer = parse("1k6/8/8/8/8/8/8/1K1R3R w H - 0 1", true);
  const Position inner = parse("1k6/8/8/8/8/8/8/1K1R3R w D - 0 1", true);
  EXPECT_EQ(outer.castling_rook(WHITE_OO), test::sq("h1"));
  EXPECT_EQ(shredder_outer.castling_rook(WHITE_OO), test::sq("h1"));
  EXPECT_EQ(inner.castling_rook(WHITE_OO), test::sq("d1"));
  EXPECT_EQ(outer.key(), shredder_outer.key());
  // The castling rook changes which moves exist: with d1 as the castling rook the king may
  // castle (it passes d1, the rook's own square); with h1 it is blocked by the d1 rook, and
  // b1d1 would be the king taking its own piece.
  EXPECT_TRUE(outer.parse_uci_move("b1h1").is_none());
  EXPECT_TRUE(outer.parse_uci_move("b1d1").is_none());
  EXPECT_FALSE(inner.parse_uci_move("b1d1").is_none());
  // The written FEN keeps the distinction.
  EXPECT_EQ(parse(inner.fen(), true).castling_rook(WHITE_OO), test::sq("d1"));
  EXPECT_EQ(parse(outer.fen(), true).castling_rook(WHITE_OO), test::sq("h1"));
}

// Rewrites a Shredder castling field to X-FEN where the rook is the outermost on its side.
std::string shredder_to_xfen(const std::string& fen) {
  auto f = fen_fields(fen);
  auto expand = [](const std::string& rank) {
    std::string out;
    for (const char c : rank)
      out += (c >= '1' && c <= '8') ? std::string(c - '0', '.') : std::string(1, c);
    return out;
  };
  std::vector<std::string> ranks;
  std::string cur;
  for (const char c : f.at(0)) {
    if (c == '/') {
      ranks.push_back(expand(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  ranks.push_back(expand(cur));
  std::string castling;
  for (const char c : f.at(2)) {
    if (c == '-') {
      castling += c;
      continue;
    }
    const bool white = c >= 'A' && c <= 'H';
    const std::string& rank = white ? ranks.at(7) : ranks.at(0);
    const char king = white ? 'K' : 'k', rook = white ? 'R' : 'r';
    const int file = (white ? c - 'A' : c - 'a');
    const int king_file = int(rank.find(king));
    const bool king_side = file > king_file;
    bool outermost = true;
    for (int x = 0; x < 8; ++x)
      if (rank[x] == rook && (king_side ? x > file : x < file)) outermost = false;
    castling += outermost ? (king_side ? (white ? 'K' : 'k') : (white ? 'Q' : 'q')) : c;
  }
  f.at(2) = castling;
  std::string out;
  for (const auto& x : f) out += (out.empty() ? "" : " ") + x;
  return out;
}

TEST(CoreFen, XFenAndShredderFenAgreeOverTheChess960Suite) {
  int rewritten = 0;
  for (const auto& e : test::load_perft_epd("perft/fischer.epd")) {
    const std::string xfen = shredder_to_xfen(e.fen);
    rewritten += xfen != e.fen;
    const Position a = parse(e.fen, true);
    const Position b = parse(xfen, true);
    ASSERT_EQ(a.key(), b.key()) << e.fen << " vs " << xfen;
    ASSERT_EQ(a.castling_rights(), b.castling_rights()) << xfen;
    for (const CastlingRight r : kRights)
      if (a.can_castle(r)) {
        ASSERT_EQ(a.castling_rook(r), b.castling_rook(r)) << xfen;
      }
  }
  EXPECT_GT(rewritten, 100);
}

TEST(CoreFen, SideToMoveInCheckIsAccepted) {
  const Position pos = parse("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1");
  EXPECT_TRUE(pos.in_check());
  EXPECT_EQ(pos.checkers(), test::sq("e2").bb());
}

// Each of these must be rejected with a one-line message.
struct BadFen {
  const char* why;
  const char* fen;
  bool chess960;
};

const BadFen kBadFens[] = {
    // Field count and garbage
    {"empty", "", false},
    {"blank", "   ", false},
    {"garbage", "hello world", false},
    {"slashes only", "////////", false},
    {"board only", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", false},
    {"two fields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", false},
    {"three fields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", false},
    {"seven fields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", false},
    // Board
    {"bad piece letter", "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"bad piece letter 2", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w Qkq - 0 1", false},
    {"zero digit", "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"digit nine", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"rank too long", "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"rank too long 2", "rnbqkbnr/pppppppp/8p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"rank too long 3", "rnbqkbnr/pppppppp/4P4/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1", false},
    {"rank too short", "rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1", false},
    {"rank too short 2", "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"empty rank", "rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"seven ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"nine ranks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"trailing slash", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", false},
    {"no kings", "8/8/8/8/8/8/8/8 w - - 0 1", false},
    {"no white king", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", false},
    {"no black king", "4q3/8/8/8/8/8/8/4K3 w - - 0 1", false},
    {"two black kings", "rnbqkbnr/pppppppp/8/3k4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"two white kings", "4k3/8/8/8/8/8/8/K3K3 w - - 0 1", false},
    {"white pawn on eighth", "4k2P/8/8/8/8/8/8/4K3 w - - 0 1", false},
    {"white pawn on first", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", false},
    {"black pawn on first", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", false},
    {"black pawn on eighth", "p3k3/8/8/8/8/8/8/4K3 w - - 0 1", false},
    {"side not to move in check", "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", false},
    {"side not to move in check 2", "4k3/4r3/8/8/8/8/8/4K3 b - - 0 1", false},
    {"kings adjacent", "8/8/8/3kK3/8/8/8/8 w - - 0 1", false},
    // Side to move
    {"bad side", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", false},
    {"side word", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", false},
    // Castling
    {"castling rook missing", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", false},
    {"castling queen rook missing", "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     false},
    {"castling king moved", "rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    // In standard chess castling needs the king on e1/e8 and the rooks on the corners.
    {"castling king off e1", "4k3/8/8/8/8/8/8/R4K1R w KQ - 0 1", false},
    {"castling rook off h1", "4k3/8/8/8/8/8/8/R3K1R1 w KQ - 0 1", false},
    {"castling rook off a1", "4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1", false},
    {"castling inner rook letter in standard chess", "1k6/8/8/8/8/8/8/1K1R3R w D - 0 1", false},
    {"castling bad letter", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", false},
    {"castling digit", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ1q - 0 1", false},
    {"960 no king-side rook", "1k6/8/8/8/8/8/8/R3K3 w K - 0 1", true},
    {"960 king on the edge", "1k6/8/8/8/8/8/8/R6K w K - 0 1", true},
    {"960 shredder file without rook", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w GAha - 0 1",
     true},
    {"960 king not on back rank", "1k6/8/8/8/8/8/4K3/R6R w KQ - 0 1", true},
    // En passant
    {"ep wrong rank", "4k3/8/8/3Pp3/8/8/8/4K3 w - e5 0 1", false},
    {"ep rank of the wrong side", "4k3/8/8/3Pp3/8/8/8/4K3 w - e3 0 1", false},
    {"ep rank of the wrong side black", "4k3/8/8/8/3pP3/8/8/4K3 b - e6 0 1", false},
    {"ep no pawn in front", "4k3/8/8/3P4/8/8/8/4K3 w - e6 0 1", false},
    {"ep own pawn in front", "4k3/8/8/3PP3/8/8/8/4K3 w - e6 0 1", false},
    {"ep knight in front", "4k3/8/8/3Pn3/8/8/8/4K3 w - e6 0 1", false},
    {"ep square occupied", "4k3/8/4n3/3Pp3/8/8/8/4K3 w - e6 0 1", false},
    {"ep no pawn in front, no capturer",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", false},
    {"ep not a square", "4k3/8/8/3Pp3/8/8/8/4K3 w - e9 0 1", false},
    {"ep not a square 2", "4k3/8/8/3Pp3/8/8/8/4K3 w - i6 0 1", false},
    {"ep too long", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6e6 0 1", false},
    // Counters
    {"negative halfmove", "4k3/8/8/8/8/8/8/4K3 w - - -1 1", false},
    {"non-numeric halfmove", "4k3/8/8/8/8/8/8/4K3 w - - x 1", false},
    {"half-numeric halfmove", "4k3/8/8/8/8/8/8/4K3 w - - 1x 1", false},
    {"overflowing halfmove", "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1", false},
    {"negative fullmove", "4k3/8/8/8/8/8/8/4K3 w - - 0 -5", false},
    {"non-numeric fullmove", "4k3/8/8/8/8/8/8/4K3 w - - 0 one", false},
    {"fractional fullmove", "4k3/8/8/8/8/8/8/4K3 w - - 0 1.5", false},
    {"overflowing fullmove", "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999", false},
};

void PrintTo(const BadFen& b, std::ostream* os) { *os << b.why << " (" << b.fen << ")"; }

class BadFenTest : public ::testing::TestWithParam<BadFen> {};

TEST_P(BadFenTest, IsRejectedWithAMessage) {
  const BadFen& bad = GetParam();
  std::string error;
  const std::optional<Position> pos = Position::from_fen(bad.fen, bad.chess960, error);
  EXPECT_FALSE(pos.has_value()) << bad.why << ": accepted '" << bad.fen << "' as "
                                << (pos ? pos->fen() : "");
  EXPECT_FALSE(error.empty()) << bad.why;
  EXPECT_EQ(error.find('\n'), std::string::npos) << "not one line: " << error;
}

INSTANTIATE_TEST_SUITE_P(Core, BadFenTest, ::testing::ValuesIn(kBadFens),
                         [](const ::testing::TestParamInfo<BadFen>& param_info) {
                           std::string name = param_info.param.why;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(CoreFen, ValidVariantsOfTheBadFensAreAccepted) {
  // Guards the table above: the same positions with the defect removed parse, so each bad FEN
  // is rejected for the stated reason and not for something incidental.
  for (const char* fen : {
           "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1",
           "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
           "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
           "4k3/8/8/8/8/8/8/4K3 w - - 99 200",
           "1k6/8/8/8/8/8/8/R3K3 w Q - 0 1",
           "4k3/8/8/8/8/8/8/R4K1R w - - 0 1",
       })
    EXPECT_NO_THROW((void)parse(fen)) << fen;
  EXPECT_NO_THROW((void)parse("1k6/8/8/8/8/8/8/R3K3 w Q - 0 1", true));
  EXPECT_NO_THROW((void)parse("1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1", true));
}

TEST(CoreFen, AbsurdPieceCountsAreRejectedOrHandled) {
  // 23 white knights: legal chess can't reach it, and the material key has 16 slots per piece.
  // Rejection is fine; acceptance must leave a consistent position.
  for (const char* fen : {"k7/8/8/8/8/N7/NNNNNNNN/NNNNNNK1 w - - 0 1",  // 15 knights: the limit
                          "k7/8/8/8/8/NNNNNNNN/NNNNNNNN/NNNNNNNK w - - 0 1",
                          "k7/8/8/8/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQK b - - 0 1",
                          "kq6/qqqqqqqq/qqqqqqqq/8/8/8/8/7K b - - 0 1",
                          "k7/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/7K w - - 0 1"}) {
    std::string error;
    const std::optional<Position> pos = Position::from_fen(fen, false, error);
    if (!pos) {
      EXPECT_FALSE(error.empty()) << fen;
      continue;
    }
    EXPECT_EQ(test::consistency_error(*pos), "") << fen;
    Position p = *pos;
    for (const Move m : MoveList<GenType::All>(p)) {
      p.make_move(m);
      EXPECT_EQ(test::consistency_error(p), "") << fen;
      p.unmake_move(m);
    }
  }
}

// Deterministic random mutations of valid FENs: parsing must never crash, and any accepted
// result must be a consistent position that round-trips and can be played on.
TEST(CoreFen, MutationFuzzNeverCrashesAndAcceptedFensRoundTrip) {
  const std::vector<std::string> seeds = {
      std::string(Position::kStartFen),
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
      "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
      "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
  };
  const std::string alphabet = "pnbrqkPNBRQK12345678/ -wbKQkqabcdefghAH09x+";
  std::uint64_t state = 20260101;
  auto rnd = [&state](std::size_t n) { return std::size_t(splitmix64(state) % n); };
  int accepted = 0, rejected = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string fen = seeds[rnd(seeds.size())];
    const int edits = 1 + int(rnd(3));
    for (int e = 0; e < edits && !fen.empty(); ++e) {
      const std::size_t at = rnd(fen.size());
      switch (rnd(5)) {
        case 0:
          fen[at] = alphabet[rnd(alphabet.size())];
          break;
        case 1:
          fen.erase(at, 1);
          break;
        case 2:
          fen.insert(at, 1, alphabet[rnd(alphabet.size())]);
          break;
        case 3:
          if (at + 1 < fen.size()) std::swap(fen[at], fen[at + 1]);
          break;
        default:
          fen.resize(at);
          break;
      }
    }
    const bool chess960 = rnd(2) == 0;
    std::string error;
    const std::optional<Position> pos = Position::from_fen(fen, chess960, error);
    if (!pos) {
      ++rejected;
      ASSERT_FALSE(error.empty()) << "rejected without a message: '" << fen << "'";
      continue;
    }
    ++accepted;
    ASSERT_EQ(test::consistency_error(*pos), "") << fen;
    std::string error2;
    const std::optional<Position> again = Position::from_fen(pos->fen(), chess960, error2);
    ASSERT_TRUE(again.has_value()) << "'" << fen << "' -> '" << pos->fen() << "': " << error2;
    ASSERT_EQ(again->key(), pos->key()) << fen;
    ASSERT_EQ(again->fen(), pos->fen()) << fen;
    // Play one ply of every move: a bad position would trip the consistency checks (or ASan).
    Position p = *pos;
    for (const Move m : MoveList<GenType::All>(p)) {
      p.make_move(m);
      ASSERT_EQ(test::consistency_error(p), "") << fen << " after " << m.raw();
      p.unmake_move(m);
    }
  }
  EXPECT_GT(accepted, 500);
  EXPECT_GT(rejected, 5000);
}

}  // namespace
}  // namespace tessera
