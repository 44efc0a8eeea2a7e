// What OpenBench's DATAGEN hands Tessera: `genfens` books read as Chess960 by their name in
// either castling notation, and Chess960 (`frc`) and double Chess960 (`dfrc`) starts without
// a book. Built only with TESSERA_DATAGEN.
#if TESSERA_DATAGEN
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "datagen/genfens.h"
#include "datagen/openings.h"
#include "game/game_rules.h"
#include "temp_dir.h"

namespace tessera {
namespace {

using test::TempDir;

constexpr std::string_view kPrefix = "info string genfens ";

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// genfens's output lines for the words after `genfens`.
[[nodiscard]] std::vector<std::string> genfens(const std::vector<std::string>& words) {
  std::string error;
  const auto request = datagen::parse_genfens(words, error);
  EXPECT_TRUE(request) << error;
  std::vector<std::string> lines;
  if (!request) return lines;
  const bool ran = datagen::run_genfens(
      *request, [&](const std::string& l) { lines.push_back(l); }, error);
  EXPECT_TRUE(ran) << error;
  return lines;
}

// The FENs of the `info string genfens` lines.
[[nodiscard]] std::vector<std::string> fens_of(const std::vector<std::string>& lines) {
  std::vector<std::string> fens;
  for (const std::string& line : lines)
    if (line.rfind(kPrefix, 0) == 0) fens.push_back(line.substr(kPrefix.size()));
  return fens;
}

// Board, side, castling and en passant: a position without its counters.
[[nodiscard]] std::string four_fields(const std::string& fen) {
  std::istringstream in(fen);
  std::string field, out;
  for (int i = 0; i < 4 && in >> field; ++i) out += (i ? " " : "") + field;
  return out;
}

// four_fields of every position `plies` plies (exactly) after `pos`, for each plies in
// [low, high].
void reachable(Position& pos, int low, int high, std::set<std::string>& out, int done = 0) {
  if (done >= low) out.insert(four_fields(pos.fen()));
  if (done == high) return;
  for (const Move m : MoveList<>(pos)) {
    pos.make_move(m);
    reachable(pos, low, high, out, done + 1);
    pos.unmake_move(m);
  }
}

// Rank 1 (white's back rank) and rank 8 of a FEN, files a to h, '.' for an empty square.
[[nodiscard]] std::string rank_of(const std::string& fen, int rank) {
  std::string rows = fen.substr(0, fen.find(' '));
  std::vector<std::string> split;
  std::stringstream in(rows);
  for (std::string row; std::getline(in, row, '/');) split.push_back(row);
  std::string squares;
  for (const char c : split.at(std::size_t(8 - rank))) {
    if (c >= '1' && c <= '8')
      squares.append(std::size_t(c - '0'), '.');
    else
      squares += c;
  }
  return squares;
}

// How many files two back ranks differ on, black's taken as white's pieces.
[[nodiscard]] int back_rank_difference(const std::string& fen) {
  const std::string white = rank_of(fen, 1), black = rank_of(fen, 8);
  int differ = 0;
  for (std::size_t f = 0; f < 8; ++f)
    differ += white[f] != char(std::toupper(static_cast<unsigned char>(black[f])));
  return differ;
}

// Every genfens FEN reads back in Chess960 mode to itself, in Shredder-FEN, and can be played.
void expect_chess960_round_trip(const std::vector<std::string>& fens) {
  for (const std::string& fen : fens) {
    std::string error;
    const auto pos = Position::from_fen(fen, true, error);
    ASSERT_TRUE(pos) << fen << ": " << error;
    EXPECT_EQ(pos->fen(), fen);
    EXPECT_TRUE(has_legal_move(*pos)) << fen;
    std::istringstream fields(fen);
    std::string board, side, castling;
    fields >> board >> side >> castling;
    for (const char c : castling)
      EXPECT_TRUE(c == '-' || (c >= 'A' && c <= 'H') || (c >= 'a' && c <= 'h')) << fen;
  }
}

// ----- Chess960 books

// Lines of a Chess960 perft suite (castling as rook files), and the same positions in X-FEN:
// KQkq for the outermost rook, the file letter for an inner one (the last line: the e-file
// rooks castle, the h-file ones do not).
const std::vector<std::string> kShredderBook = {
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "1k2r2r/pppppppp/8/8/8/8/PPPPPPPP/1K2R2R w Ee - 0 1",
};
const std::vector<std::string> kXfenBook = {
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w KQkq - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w KQ - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w kq - 0 9",
    "1k2r2r/pppppppp/8/8/8/8/PPPPPPPP/1K2R2R w Ee - 0 1",
};

[[nodiscard]] std::string lines_of(const std::vector<std::string>& book) {
  std::string text;
  for (const std::string& line : book) text += line + " ;D1 20\n";
  return text;
}

TEST(GenfensChess960, BookNamedAsChess960IsReadInEitherNotation) {
  TempDir dir;
  const std::string shredder = dir.file("openings_FRC.epd"), xfen = dir.file("Fischer-xfen.epd");
  write_text(shredder, lines_of(kShredderBook));
  write_text(xfen, lines_of(kXfenBook));
  EXPECT_TRUE(datagen::is_chess960_book(shredder));
  EXPECT_TRUE(datagen::is_chess960_book(dir.file("dfrc960.pgn")));
  EXPECT_FALSE(datagen::is_chess960_book(dir.file("UHO_Lichess_4852_v1.epd")));
  EXPECT_FALSE(datagen::is_chess960_book("frc/standard.epd"));  // the name, not the folder

  const auto lines = genfens({"16", "seed", "7", "book", shredder, "plies", "2", "nodes", "2000"});
  const auto fens = fens_of(lines);
  ASSERT_EQ(fens.size(), 16u);
  ASSERT_EQ(lines.size(), 16u);
  expect_chess960_round_trip(fens);
  // The same positions in X-FEN give the same draws.
  EXPECT_EQ(genfens({"16", "seed", "7", "book", xfen, "plies", "2", "nodes", "2000"}), lines);

  // Each position is 2 or 3 plies after a line of the book, and several lines were drawn.
  std::set<std::string> after;
  for (const std::string& line : kShredderBook) {
    std::string error;
    Position pos = *Position::from_fen(line, true, error);
    reachable(pos, 2, 3, after);
  }
  std::set<std::string> boards;
  for (const std::string& fen : fens) {
    EXPECT_TRUE(after.count(four_fields(fen))) << fen << " is not 2 or 3 plies from the book";
    boards.insert(fen.substr(fen.rfind('/') + 1, 8));
  }
  EXPECT_GE(boards.size(), 3u);

  // The same file under a name without FRC, 960 or FISCHER is standard chess, which refuses it.
  const std::string plain = dir.file("openings.epd");
  write_text(plain, lines_of(kShredderBook));
  std::string error;
  const auto request = datagen::parse_genfens({"4", "seed", "7", "book", plain}, error);
  ASSERT_TRUE(request) << error;
  EXPECT_FALSE(request->chess960);
  EXPECT_FALSE(datagen::run_genfens(
      *request, [](const std::string&) {}, error));
  EXPECT_NE(error.find("Chess960"), std::string::npos) << error;
}

TEST(GenfensChess960, FrcWithoutABookGivesMirroredStarts) {
  const auto lines = genfens({"24", "seed", "3", "book", "None", "plies", "0", "frc"});
  const auto fens = fens_of(lines);
  ASSERT_EQ(fens.size(), 24u);
  expect_chess960_round_trip(fens);
  std::set<std::string> ranks;
  for (const std::string& fen : fens) {
    // At most one ply: a knight or pawn move, so the back ranks mirror each other but for one
    // square, and all four rights stand, black's the lower case of white's.
    EXPECT_LE(back_rank_difference(fen), 1) << fen;
    std::istringstream in(fen);
    std::string board, side, castling;
    in >> board >> side >> castling;
    ASSERT_EQ(castling.size(), 4u) << fen;
    EXPECT_EQ(castling[0] - 'A', castling[2] - 'a') << fen;
    EXPECT_EQ(castling[1] - 'A', castling[3] - 'a') << fen;
    ranks.insert(rank_of(fen, 8));
  }
  EXPECT_GE(ranks.size(), 10u);  // not the standard start every time
  EXPECT_EQ(genfens({"24", "seed", "3", "book", "None", "plies", "0", "chess960"}), lines);
}

TEST(GenfensChess960, DfrcDrawsEachSidesBackRankOnItsOwn) {
  const auto lines = genfens({"24", "seed", "3", "book", "None", "plies", "0", "dfrc"});
  const auto fens = fens_of(lines);
  ASSERT_EQ(fens.size(), 24u);
  expect_chess960_round_trip(fens);
  int different = 0;
  for (const std::string& fen : fens) {
    // One ply changes one square of a back rank at most; two ranks of the 960 that differ at
    // all differ on two files or more.
    different += back_rank_difference(fen) >= 2;
    // Each side castles with its own rooks.
    std::istringstream in(fen);
    std::string board, side, castling;
    in >> board >> side >> castling;
    for (const char c : castling) {
      const bool white = c >= 'A' && c <= 'H';
      const std::string rank = rank_of(fen, white ? 1 : 8);
      EXPECT_EQ(rank[std::size_t(white ? c - 'A' : c - 'a')], white ? 'R' : 'r') << fen;
    }
  }
  EXPECT_GE(different, 20);  // the same rank for both sides is one draw in 960
  // Position i is a function of (seed, i): the same request gives the same lines, a shorter one
  // their prefix, another seed others.
  EXPECT_EQ(genfens({"24", "seed", "3", "book", "None", "plies", "0", "dfrc"}), lines);
  const auto prefix = genfens({"10", "seed", "3", "book", "None", "plies", "0", "dfrc"});
  EXPECT_EQ(prefix, std::vector<std::string>(lines.begin(), lines.begin() + 10));
  EXPECT_NE(genfens({"24", "seed", "4", "book", "None", "plies", "0", "dfrc"}), lines);
}

TEST(GenfensChess960, DoubleStartsAndRequests) {
  std::set<std::string> ranks;
  for (int i = 0; i < 960; ++i) {
    EXPECT_EQ(game::chess960_start_fen(i), game::double_chess960_start_fen(i, i)) << i;
    ranks.insert(game::chess960_back_rank(i));
  }
  EXPECT_EQ(ranks.size(), 960u);
  EXPECT_EQ(game::chess960_back_rank(518), "RNBQKBNR");
  // White's standard rank against black's start 0 (bbqnnrkr).
  const std::string fen = game::double_chess960_start_fen(518, 0);
  EXPECT_EQ(fen, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAhf - 0 1");
  std::string error;
  const auto pos = Position::from_fen(fen, true, error);
  ASSERT_TRUE(pos) << error;
  EXPECT_EQ(pos->castling_rights(), ALL_CASTLING);
  EXPECT_EQ(pos->fen(), fen);

  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{{"3", "seed", "1", "book", "x_frc.epd", "dfrc"},
                                             {"3", "seed", "1", "book", "None", "frc", "dfrc"},
                                             {"3", "seed", "1", "book", "None", "960"}})
    EXPECT_FALSE(datagen::parse_genfens(bad, error)) << bad.back();
  const auto frc = datagen::parse_genfens({"3", "seed", "1", "book", "None", "frc"}, error);
  ASSERT_TRUE(frc) << error;
  EXPECT_EQ(frc->starts, datagen::GenfensStarts::Chess960);
  EXPECT_TRUE(frc->chess960);
  const auto book = datagen::parse_genfens({"3", "seed", "1", "book", "Books/DFRC.pgn"}, error);
  ASSERT_TRUE(book) << error;
  EXPECT_EQ(book->starts, datagen::GenfensStarts::Standard);
  EXPECT_TRUE(book->chess960);
}

}  // namespace
}  // namespace tessera
#endif
