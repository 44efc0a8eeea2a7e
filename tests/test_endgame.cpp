// Endgame knowledge: the KPK bitbase against the Syzygy KPvK table over every legal position,
// the classification of endings by material, the specialised evaluations (direction towards the
// mate, score ranges, draws), the scale factors, and colour symmetry of all of it.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "core/packed_position.h"
#include "core/position.h"
#include "eval/endgame.h"
#include "eval/evaluate.h"
#include "eval/kpk.h"
#include "search/tablebase.h"
#include "test_core_support.h"

namespace tessera::eval {
namespace {

using search::Tablebases;
using search::Wdl;

const std::string kTables = TESSERA_SOURCE_DIR "/tests/data/syzygy";

// The colour flip of `pos` (ranks mirrored, colours and side to move swapped), through the
// record codec whose flip is tested on its own.
Position flipped(const Position& pos) {
  std::string error;
  auto result = decode(flip_colors(encode(pos)), error);
  if (!result) throw std::runtime_error("flip of " + pos.fen() + " rejected: " + error);
  return std::move(*result);
}

// A FEN of the men given as (letter, square), with no castling and counters 0 1.
std::string fen_of(std::initializer_list<std::pair<char, Square>> men, Color stm) {
  std::array<char, 64> board{};
  board.fill('.');
  for (const auto& [letter, square] : men) board[square.index()] = letter;
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const char c = board[rank * 8 + file];
      if (c == '.') {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty);
      empty = 0;
      fen += c;
    }
    if (empty) fen += char('0' + empty);
    if (rank) fen += '/';
  }
  return fen + (stm == WHITE ? " w - - 0 1" : " b - - 0 1");
}

// A FEN with the three KPK men; `strong` owns the king on `sk` and the pawn.
std::string kpk_fen(Color strong, Square sk, Square pawn, Square wk, Color stm) {
  const bool white = strong == WHITE;
  return fen_of({{white ? 'K' : 'k', sk}, {white ? 'P' : 'p', pawn}, {white ? 'k' : 'K', wk}}, stm);
}

// ----- KPK bitbase

TEST(Kpk, AgreesWithSyzygyOnEveryLegalPosition) {
  if (!Tablebases::supported()) GTEST_SKIP() << "built without Fathom (TESSERA_SYZYGY=OFF)";
  Tablebases tb;
  ASSERT_EQ(tb.load(kTables), "");
  int checked = 0, wins = 0, failures = 0;
  for (const Color strong : {WHITE, BLACK}) {
    for (int p = 8; p < 56; ++p) {
      for (int sk = 0; sk < 64; ++sk) {
        for (int wk = 0; wk < 64; ++wk) {
          if (sk == p || wk == p || sk == wk) continue;
          for (const Color stm : {WHITE, BLACK}) {
            std::string error;
            const std::string fen = kpk_fen(strong, Square(sk), Square(p), Square(wk), stm);
            const auto pos = Position::from_fen(fen, false, error);
            const bool win = kpk_is_win(strong, Square(sk), Square(p), Square(wk), stm);
            if (!pos) {  // illegal: adjacent kings, or the side not to move in check
              if (win && ++failures <= 5) ADD_FAILURE() << "illegal " << fen << " is a win";
              continue;
            }
            const auto wdl = tb.probe_wdl(*pos);
            ASSERT_TRUE(wdl.has_value()) << fen;
            const bool tb_win = *wdl == (stm == strong ? Wdl::Win : Wdl::Loss);
            ++checked;
            wins += tb_win;
            if (win != tb_win && ++failures <= 5)
              ADD_FAILURE() << fen << ": bitbase " << win << ", Syzygy " << int(*wdl);
          }
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(checked, 600000);
  EXPECT_GT(wins, checked / 2);
}

TEST(Kpk, KnownPositions) {
  struct Case {
    const char* fen;
    bool win;
  };
  const Case cases[] = {
      // The king on the sixth rank in front of its pawn wins whoever moves.
      {"4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", true},
      {"4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", true},
      // The king on a key square (d6, e6, f6 for a pawn on e4) wins.
      {"8/4k3/8/3K4/8/8/4P3/8 w - - 0 1", true},
      {"4k3/8/5K2/8/4P3/8/8/8 b - - 0 1", true},
      // The defender in front of the pawn with the opposition draws.
      {"8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", false},
      // Rook pawns: the defending king in the corner draws even against the king in front.
      {"k7/8/8/PK6/8/8/8/8 w - - 0 1", false},
      {"7k/8/8/6KP/8/8/8/8 b - - 0 1", false},
      {"k7/P7/1K6/8/8/8/8/8 b - - 0 1", false},
      {"8/2k5/K7/P7/8/8/8/8 w - - 0 1", false},
      {"8/8/1k6/8/8/8/P7/K7 w - - 0 1", false},
      // The square rule: a pawn on a4 outruns a king on h3 only with the move.
      {"8/8/8/8/P7/5k2/8/K7 w - - 0 1", true},
      {"8/8/8/8/P7/5k2/8/K7 b - - 0 1", false},
      // Black's colours.
      {"8/8/8/8/4p3/4k3/8/4K3 b - - 0 1", true},
      {"8/8/8/pk6/8/8/8/K7 b - - 0 1", false},
  };
  for (const auto& c : cases) {
    const Position pos = test::parse(c.fen);
    const Color strong = pos.count(WHITE, PAWN) ? WHITE : BLACK;
    EXPECT_EQ(kpk_is_win(strong, pos.king_square(strong), lsb(pos.pieces(PAWN)),
                         pos.king_square(~strong), pos.side_to_move()),
              c.win)
        << c.fen;
  }
}

TEST(Kpk, RookPawnWithTheKingNextToTheCornerIsAlwaysADraw) {
  // The rule scale_factor() applies to several rook pawns, checked on every single one.
  int checked = 0;
  for (int rank = 1; rank < 7; ++rank) {
    const Square pawn(0, rank);
    for (int sk = 0; sk < 64; ++sk) {
      for (const Square wk : {Square(0, 7), Square(1, 7), Square(0, 6), Square(1, 6)}) {
        for (const Color stm : {WHITE, BLACK}) {
          ++checked;
          EXPECT_FALSE(kpk_is_win(WHITE, Square(sk), pawn, wk, stm))
              << kpk_fen(WHITE, Square(sk), pawn, wk, stm);
        }
      }
    }
  }
  EXPECT_GT(checked, 3000);
}

TEST(Kpk, IllegalPlacementsAreNotWins) {
  EXPECT_FALSE(kpk_is_win(WHITE, Square(4, 4), Square(4, 4), Square(0, 7), WHITE));
  EXPECT_FALSE(kpk_is_win(WHITE, Square(4, 4), Square(4, 0), Square(0, 7), WHITE));
  EXPECT_FALSE(kpk_is_win(WHITE, Square(4, 4), Square(4, 7), Square(0, 7), WHITE));
  EXPECT_FALSE(kpk_is_win(WHITE, Square(4, 4), Square(0, 1), Square(4, 5), WHITE));
  EXPECT_FALSE(kpk_is_win(WHITE, Square::none(), Square(0, 1), Square(4, 5), WHITE));
}

TEST(Kpk, GenerationTime) {
  // The table is built on first use; this measures the build unless another test ran first.
  const auto start = std::chrono::steady_clock::now();
  kpk_init();
  const auto ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("KPK bitbase ready after %.2f ms\n", ms);
  SUCCEED();
}

// ----- Classification

TEST(Endgame, ClassifiesByMaterial) {
  struct Case {
    const char* fen;
    Endgame kind;
    Color strong;
  };
  const Case cases[] = {
      {"8/8/8/4k3/8/8/8/R3K3 w - - 0 1", Endgame::KXK, WHITE},
      {"8/8/8/4k3/8/8/8/3QK3 b - - 0 1", Endgame::KXK, WHITE},
      {"8/8/8/4k3/8/8/PP6/3QK3 w - - 0 1", Endgame::KXK, WHITE},
      {"3qk3/8/8/8/8/8/8/4K3 w - - 0 1", Endgame::KXK, BLACK},
      {"8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1", Endgame::KXK, WHITE},
      {"8/8/8/4k3/8/8/8/1NB1KB2 w - - 0 1", Endgame::KXK, WHITE},
      {"8/8/8/4k3/8/8/P7/2B1K1N1 w - - 0 1", Endgame::KXK, WHITE},
      {"8/8/8/4k3/8/8/8/2B1K1N1 w - - 0 1", Endgame::KBNK, WHITE},
      {"2b1k1n1/8/8/8/4K3/8/8/8 w - - 0 1", Endgame::KBNK, BLACK},
      {"4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Endgame::KPK, WHITE},
      {"8/8/8/8/4p3/4k3/8/4K3 b - - 0 1", Endgame::KPK, BLACK},
      {"8/8/8/8/8/2k5/2p5/R3K3 w - - 0 1", Endgame::KRKP, WHITE},
      {"r3k3/8/8/8/8/8/1P6/4K3 w - - 0 1", Endgame::KRKP, BLACK},
      {"8/8/8/8/8/2k5/2p5/Q3K3 b - - 0 1", Endgame::KQKP, WHITE},
      {"q3k3/8/8/8/8/8/1P6/4K3 w - - 0 1", Endgame::KQKP, BLACK},
      // No specialised evaluation.
      {Position::kStartFen.data(), Endgame::None, WHITE},
      {"8/8/8/4k3/8/8/8/4K3 w - - 0 1", Endgame::None, WHITE},
      {"8/8/8/4k3/8/8/8/1N2K3 w - - 0 1", Endgame::None, WHITE},
      {"8/8/8/4k3/8/8/8/1N2KN2 w - - 0 1", Endgame::None, WHITE},
      {"8/8/8/4k3/8/8/8/2B1K3 w - - 0 1", Endgame::None, WHITE},
      {"8/8/8/2b1k3/8/8/8/R3K3 w - - 0 1", Endgame::None, WHITE},
      {"8/8/8/4k3/8/8/PP6/4K3 w - - 0 1", Endgame::None, WHITE},
      {"8/8/3p4/4k3/8/8/8/R3K3 w - - 0 1", Endgame::KRKP, WHITE},
      {"8/8/3p4/4k3/8/8/P7/R3K3 w - - 0 1", Endgame::None, WHITE},
      {"8/8/3p4/4k3/8/8/8/R2BK3 w - - 0 1", Endgame::None, WHITE},
      {"8/8/8/4k3/3p4/8/4P3/4K3 w - - 0 1", Endgame::None, WHITE},
  };
  for (const auto& c : cases) {
    const Position pos = test::parse(c.fen);
    EXPECT_EQ(classify_endgame(pos), (EndgameInfo{c.kind, c.strong})) << c.fen;
    if (c.kind == Endgame::None) {
      EXPECT_EQ(evaluate_endgame(pos, classify_endgame(pos)), 0) << c.fen;
    }
  }
}

// ----- Specialised evaluations (white's point of view)

int endgame_score(const std::string& fen) {
  const Position pos = test::parse(fen);
  const EndgameInfo info = classify_endgame(pos);
  EXPECT_NE(info.kind, Endgame::None) << fen;
  return evaluate_endgame(pos, info);
}

TEST(Endgame, MatesWithALoneKingScoreAsWinsBelowTheMateRange) {
  for (const char* fen :
       {"8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "8/8/8/4k3/8/8/8/3QK3 b - - 0 1",
        "8/8/8/4k3/8/8/8/1NB1KB2 w - - 0 1", "8/8/8/4k3/8/8/8/2B1K1N1 w - - 0 1",
        "1QQQQQQ1/8/8/8/8/8/8/k3K3 w - - 0 1", "7k/8/8/8/8/8/8/RRRRKRRR b - - 0 1"}) {
    const int score = endgame_score(fen);
    EXPECT_GE(score, kEndgameKnownWin) << fen;
    EXPECT_LE(score, kEndgameMaxScore) << fen;
  }
  // Black's: negative.
  EXPECT_LE(endgame_score("3qk3/8/8/8/8/8/8/4K3 w - - 0 1"), -kEndgameKnownWin);
  // Two bishops on one colour cannot mate.
  EXPECT_EQ(endgame_score("8/8/8/4k3/8/8/8/2B1K1B1 w - - 0 1"), 0);
}

TEST(Endgame, KxkPrefersTheLoneKingAtTheEdgeAndTheKingsTogether) {
  EXPECT_LT(endgame_score("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"),
            endgame_score("8/8/8/7k/8/8/8/R3K3 w - - 0 1"));
  EXPECT_LT(endgame_score("8/8/8/8/7k/8/8/R1K5 w - - 0 1"),
            endgame_score("7k/8/8/8/8/8/8/R1K5 w - - 0 1"));
  EXPECT_LT(endgame_score("7k/8/8/8/8/8/8/R3K3 w - - 0 1"),
            endgame_score("7k/8/5K2/8/8/8/8/R7 w - - 0 1"));
}

TEST(Endgame, KbnkDrivesTheKingToTheBishopsCorner) {
  // A dark-squared bishop (f8): a1 and h8 are the mating corners, a8 and h1 are not.
  auto score = [](const char* king_square) {
    return endgame_score(fen_of({{'B', parse_square("f8")},
                                 {'N', parse_square("g8")},
                                 {'K', parse_square("f5")},
                                 {'k', parse_square(king_square)}},
                                BLACK));
  };
  // Along the long diagonal towards a1, and along the edge from the wrong corner h1.
  EXPECT_LT(score("d4"), score("c3"));
  EXPECT_LT(score("c3"), score("b2"));
  EXPECT_LT(score("b2"), score("a1"));
  EXPECT_LT(score("h1"), score("h2"));
  EXPECT_LT(score("h2"), score("h3"));
  EXPECT_LT(score("a8"), score("a1"));
  EXPECT_LT(score("h1"), score("a1"));
  EXPECT_GE(score("d4"), kEndgameKnownWin);
  EXPECT_LE(score("a1"), kEndgameMaxScore);
}

TEST(Endgame, KpkScoresWinsAndDraws) {
  const int win = endgame_score("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
  EXPECT_GE(win, kKpkWin);
  EXPECT_LT(win, kEndgameKnownWin);
  EXPECT_EQ(endgame_score("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1"), 0);
  EXPECT_EQ(endgame_score("k7/8/8/PK6/8/8/8/8 w - - 0 1"), 0);
  EXPECT_LE(endgame_score("8/8/8/8/4p3/4k3/8/4K3 b - - 0 1"), -kKpkWin);
  // A win is worth more with the pawn further up.
  EXPECT_LT(endgame_score("8/8/4k3/8/8/3K4/4P3/8 w - - 0 1"),
            endgame_score("8/4k3/8/3K4/4P3/8/8/8 w - - 0 1"));
}

TEST(Endgame, RookAgainstPawn) {
  // The rook's king in front of the pawn: won.
  EXPECT_GE(endgame_score("8/8/8/8/1k6/2p5/8/2K4R w - - 0 1"), 400);
  // The pawn's king far from its pawn and from the rook: won.
  EXPECT_GE(endgame_score("k7/8/8/8/8/8/2p5/4K2R w - - 0 1"), 400);
  // A pawn on the seventh supported by its king, the rook's king far away: drawish.
  const int drawish = endgame_score("7R/8/K7/8/8/8/2pk4/8 w - - 0 1");
  EXPECT_GT(drawish, -100);
  EXPECT_LT(drawish, 150);
  // The colours reversed.
  EXPECT_LE(endgame_score("2k4r/8/2P5/1K6/8/8/8/8 b - - 0 1"), -400);
}

TEST(Endgame, QueenAgainstPawn) {
  // A centre pawn on the seventh: won.
  EXPECT_GE(endgame_score("8/8/8/Q7/8/8/3pk3/K7 w - - 0 1"), 800);
  // A rook pawn on the seventh with its king beside it and the queen's king far: drawish.
  const int rook_pawn = endgame_score("K7/8/8/8/8/Q7/p7/1k6 w - - 0 1");
  EXPECT_GE(rook_pawn, 0);
  EXPECT_LT(rook_pawn, 200);
  const int bishop_pawn = endgame_score("K7/8/8/8/8/8/2pk4/Q7 w - - 0 1");
  EXPECT_LT(bishop_pawn, 200);
  // The same with the queen's king near: won.
  EXPECT_GE(endgame_score("8/8/8/8/8/Q1K5/p7/1k6 w - - 0 1"), 800);
  // Pawn not yet on the seventh: won.
  EXPECT_GE(endgame_score("K7/8/8/8/8/p7/1k6/7Q w - - 0 1"), 800);
}

// ----- Scale factors

TEST(Endgame, ScaleFactors) {
  struct Case {
    const char* fen;
    Color strong;
    int scale;
  };
  const Case cases[] = {
      // Material that cannot win.
      {"8/8/8/4k3/8/8/8/1N2K3 w - - 0 1", WHITE, 0},
      {"8/8/8/4k3/8/8/8/2B1K3 b - - 0 1", WHITE, 0},
      {"8/8/8/4k3/8/8/8/1N2KN2 w - - 0 1", WHITE, 0},
      {"8/8/8/4k3/8/8/8/4K3 w - - 0 1", WHITE, 0},
      {"8/8/2n5/4k3/8/8/8/2B1K3 w - - 0 1", WHITE, 0},
      {"8/8/8/4k3/8/8/5pp1/1N2K3 w - - 0 1", WHITE, 0},
      // Two knights against a pawn: rare wins.
      {"8/8/8/4k3/8/3p4/8/1N2KN2 w - - 0 1", WHITE, 16},
      // Pawnless, at most a minor piece up.
      {"8/8/2n5/4k3/8/8/8/R3K3 w - - 0 1", WHITE, 8},
      {"8/8/2b5/4k3/8/8/8/R3K3 w - - 0 1", WHITE, 8},
      {"8/8/2r5/4k3/8/8/8/R1B1K3 w - - 0 1", WHITE, 16},
      {"8/8/2n5/4k3/8/8/8/2B1KB2 w - - 0 1", WHITE, 64},
      {"8/8/2r5/4k3/8/8/8/1Q2K3 w - - 0 1", WHITE, 64},
      // Rook pawns and the lone king in the corner.
      {"k7/8/8/P7/8/8/8/4K3 w - - 0 1", WHITE, 0},
      {"1k6/8/P7/P7/8/8/8/4K3 w - - 0 1", WHITE, 0},
      {"8/8/8/8/8/6k1/7p/6K1 w - - 0 1", BLACK, 0},
      {"8/8/2k5/P7/8/8/8/4K3 w - - 0 1", WHITE, 64},
      {"k7/8/8/P6P/8/8/8/4K3 w - - 0 1", WHITE, 64},
      // ... with the wrong bishop (c1 is dark, a8 light), and with the right one.
      {"k7/8/8/P7/8/8/8/2B1K3 w - - 0 1", WHITE, 0},
      {"1k6/8/8/P7/P7/8/8/2B1K3 w - - 0 1", WHITE, 0},
      {"k7/8/8/P7/8/8/8/3BK3 w - - 0 1", WHITE, 64},
      {"8/8/8/8/8/5k2/7p/4b1K1 w - - 0 1", BLACK, 0},
      {"8/8/8/8/8/5k2/7p/3b2K1 w - - 0 1", BLACK, 64},
      // Opposite-coloured bishops: alone, one pawn up, then two; with rooks as well.
      {"4k3/5p2/8/5b2/8/8/PP6/2B1K3 w - - 0 1", WHITE, 16},
      {"4k3/8/8/5b2/8/8/PP6/2B1K3 w - - 0 1", WHITE, 24},
      {"r3k3/5p2/8/5b2/8/8/PP6/R1B1K3 w - - 0 1", WHITE, 44},
      // Same-coloured bishops: no scaling.
      {"4k3/5p2/8/4b3/8/8/PP6/2B1K3 w - - 0 1", WHITE, 64},
      // One pawn, equal pieces, the defending king in front of the pawn.
      {"4k3/r7/8/8/4P3/8/8/R3K3 w - - 0 1", WHITE, 24},
      {"8/r7/8/8/4P3/8/8/R3K1k1 w - - 0 1", WHITE, 64},
      // Normal positions.
      {Position::kStartFen.data(), WHITE, 64},
      {Position::kStartFen.data(), BLACK, 64},
      {"4k3/pp6/8/8/8/8/PPP5/4K3 w - - 0 1", WHITE, 64},
      {"r3k3/pp6/8/8/8/8/PPP5/R3K3 w - - 0 1", WHITE, 64},
      {"8/8/3p4/4k3/8/8/8/R3K3 w - - 0 1", WHITE, 64},
  };
  for (const auto& c : cases) {
    const Position pos = test::parse(c.fen);
    EXPECT_EQ(scale_factor(pos, c.strong), c.scale) << c.fen;
    EXPECT_EQ(scale_factor(flipped(pos), ~c.strong), c.scale) << "flip of " << c.fen;
  }
}

// ----- Colour symmetry

TEST(Endgame, ColourFlipNegatesTheScoreAndSwapsTheStrongSide) {
  const char* fens[] = {
      "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",    "8/8/8/4k3/8/8/8/3QK3 b - - 0 1",
      "8/8/8/4k3/8/8/PP6/3QK3 w - - 0 1",  "8/8/8/4k3/8/8/8/1NB1KB2 w - - 0 1",
      "8/8/8/4k3/8/8/8/2B1K1N1 w - - 0 1", "5BN1/8/8/5K2/8/8/8/k7 b - - 0 1",
      "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1",   "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1",
      "8/8/8/8/8/4k3/4P3/4K3 b - - 0 1",   "8/8/8/8/P7/8/8/2K4k b - - 0 1",
      "8/8/8/8/1k6/2p5/8/2K4R w - - 0 1",  "k7/8/8/8/8/8/2p5/4K2R b - - 0 1",
      "7R/8/8/K7/8/8/2pk4/8 w - - 0 1",    "7R/8/8/K7/8/8/2pk4/8 b - - 0 1",
      "8/8/8/Q7/8/8/3pk3/K7 w - - 0 1",    "K7/8/8/8/8/Q7/p7/1k6 w - - 0 1",
      "K7/8/8/8/8/8/2pk4/Q7 b - - 0 1",    "8/8/8/8/8/Q1K5/p7/1k6 w - - 0 1",
      "8/8/8/4k3/8/8/8/2B1K1B1 w - - 0 1", "4k3/5p2/8/5b2/8/8/PP6/2B1K3 w - - 0 1",
      "k7/8/8/P7/8/8/8/2B1K3 w - - 0 1",   "8/8/2n5/4k3/8/8/8/R3K3 w - - 0 1",
  };
  for (const char* fen : fens) {
    const Position pos = test::parse(fen);
    const Position mirror = flipped(pos);
    const EndgameInfo info = classify_endgame(pos);
    const EndgameInfo mirror_info = classify_endgame(mirror);
    EXPECT_EQ(mirror_info.kind, info.kind) << fen;
    if (info.kind != Endgame::None) {
      EXPECT_EQ(mirror_info.strong, ~info.strong) << fen;
    }
    EXPECT_EQ(evaluate_endgame(mirror, mirror_info), -evaluate_endgame(pos, info)) << fen;
    for (const Color strong : {WHITE, BLACK})
      EXPECT_EQ(scale_factor(mirror, ~strong), scale_factor(pos, strong)) << fen;
  }
}

// The network's score under the endgame knowledge: a named ending gets its own evaluation
// whatever the network said, drawish material scales the network's score, anything else
// passes unchanged.
TEST(Endgame, KnowledgeOnTopOfAnotherScore) {
  EvalCache cache;
  const Position krk = test::parse("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
  const EndgameInfo info = classify_endgame(krk);
  ASSERT_EQ(info.kind, Endgame::KXK);
  for (const int network : {-300, 0, 650})
    EXPECT_EQ(with_endgame_knowledge(krk, cache, network), evaluate_endgame(krk, info));
  const Position krk_black = flipped(krk);
  EXPECT_EQ(with_endgame_knowledge(krk_black, cache, 0), evaluate_endgame(krk, info));
  // Opposite-coloured bishops and pawns: scaled towards a draw, on either side's advantage.
  const Position ocb = test::parse("4k3/5p2/8/3b4/8/8/3P1P2/2B1K3 w - - 0 1");
  const int scale = scale_factor(ocb, WHITE);
  ASSERT_LT(scale, kScaleNormal);
  EXPECT_EQ(with_endgame_knowledge(ocb, cache, 200), 200 * scale / kScaleNormal);
  EXPECT_EQ(with_endgame_knowledge(ocb, cache, -200),
            -200 * scale_factor(ocb, BLACK) / kScaleNormal);
  const Position middlegame =
      test::parse("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  for (const int network : {-120, 0, 37})
    EXPECT_EQ(with_endgame_knowledge(middlegame, cache, network), network);
}

}  // namespace
}  // namespace tessera::eval
