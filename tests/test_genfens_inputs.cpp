// What OpenBench's DATAGEN hands Tessera: `genfens` books read as Chess960 by their name in
// either castling notation, Chess960 (`frc`) and double Chess960 (`dfrc`) starts without a
// book, PGN books whose games' last positions are the openings; and, for the way back, the
// converter reading bzip2-compressed PGNs and tar archives of them as it reads plain PGN.
// Built only with TESSERA_DATAGEN.
#if TESSERA_DATAGEN
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "datagen/archive.h"
#include "datagen/convert.h"
#include "datagen/genfens.h"
#include "datagen/openings.h"
#include "game/game_rules.h"
#include "genfens_lines.h"
#include "temp_dir.h"

namespace tessera {
namespace {

using test::read_bytes;
using test::TempDir;

constexpr std::string_view kPrefix = "info string genfens ";

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

using test::genfens;

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

// ----- PGN books

// Five games: two usable (one from a FEN tag), one with an illegal move, one that ends in
// checkmate, and one with comments, a variation and a NAG.
constexpr const char* kPgnBook =
    "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
    "[Event \"illegal\"]\n\n1. e4 Ke7 *\n\n"
    "[Event \"set up\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 40\"]\n\n"
    "40. e4 Kd7 41. Kd2 1/2-1/2\n\n"
    "[Event \"mate\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
    "[Event \"annotated\"]\n\n1. d4 {a comment} d5 (1... Nf6 2. c4) 2. c4 $1 e6 1-0\n";

const std::vector<std::string> kPgnBookEnds = {
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "8/3k4/8/8/4P3/8/3K4/8 b - - 2 41",
    "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3",
};

TEST(GenfensPgnBook, OpeningsAreTheLastPositionsOfTheGames) {
  TempDir dir;
  const std::string path = dir.file("Pohl.pgn");
  write_text(path, kPgnBook);
  std::vector<std::string> fens;
  std::string error, warning;
  ASSERT_TRUE(datagen::load_openings(path, false, fens, error, &warning)) << error;
  EXPECT_EQ(fens, kPgnBookEnds);
  EXPECT_NE(warning.find("2 of 5 games"), std::string::npos) << warning;
  EXPECT_NE(warning.find("Ke7"), std::string::npos) << warning;

  // genfens draws from them: one warning line, then N positions 0 or 1 ply after an end.
  const auto lines = genfens({"12", "seed", "5", "book", path, "plies", "0", "nodes", "2000"});
  ASSERT_EQ(lines.size(), 13u);
  EXPECT_EQ(lines[0].rfind("info string warning: 2 of 5 games", 0), 0u) << lines[0];
  std::set<std::string> near_ends;
  for (const std::string& end : kPgnBookEnds) {
    Position pos = *Position::from_fen(end, false, error);
    reachable(pos, 0, 1, near_ends);
  }
  std::set<std::string> drawn;
  for (const std::string& fen : fens_of(lines)) {
    EXPECT_TRUE(near_ends.count(four_fields(fen))) << fen;
    drawn.insert(fen);
  }
  EXPECT_GE(drawn.size(), 3u);
}

TEST(GenfensPgnBook, ChessNineSixtyByNameAndUnusableBooks) {
  TempDir dir;
  // A Chess960 game from a Shredder-FEN tag, castling included, in a book named as Chess960.
  const std::string game =
      "[Variant \"chess960\"]\n[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]"
      "\n\n1. O-O O-O-O *\n";
  const std::string frc = dir.file("games960.pgn");
  write_text(frc, game);
  std::vector<std::string> fens;
  std::string error;
  ASSERT_TRUE(datagen::load_openings(frc, true, fens, error)) << error;
  EXPECT_EQ(fens, std::vector<std::string>{"2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2"});
  const auto lines = genfens({"2", "seed", "1", "book", frc, "plies", "1", "nodes", "1000"});
  ASSERT_EQ(fens_of(lines).size(), 2u);
  expect_chess960_round_trip(fens_of(lines));

  // Read as standard chess (a name without FRC, 960 or FISCHER) the game is skipped; a book
  // with no usable game, or none at all, is an error.
  const std::string plain = dir.file("games.pgn");
  write_text(plain, game);
  std::string why;
  const auto request = datagen::parse_genfens({"2", "seed", "1", "book", plain}, why);
  ASSERT_TRUE(request) << why;
  EXPECT_FALSE(datagen::run_genfens(
      *request, [](const std::string&) {}, why));
  EXPECT_NE(why.find("no usable game"), std::string::npos) << why;
  write_text(plain, "\n");
  fens.clear();
  EXPECT_FALSE(datagen::load_openings(plain, false, fens, why));
  EXPECT_NE(why.find("no games"), std::string::npos) << why;
}

// ----- bzip2 and tar inputs of the converter

// Scored games as a match runner writes them, split over two files.
constexpr const char* kGamesA =
    "[Event \"a\"]\n[Result \"1-0\"]\n\n"
    "1. e4 {book} e5 {book} 2. Nf3 {+0.40/12 0.5s} Nc6 {-0.35/11 0.4s}\n"
    "3. Bb5 {+0.50/12} a6 {-0.45/10} 4. Bxc6 {+0.20/9} dxc6 {-0.10/9} 1-0\n\n";
constexpr const char* kGamesB =
    "[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 {+0.10/5} d5 {-0.10/5} 2. c4 {+0.20/5} e6 "
    "{-0.10/4} 0-1\n\n[Event \"c\"]\n[Result \"1/2-1/2\"]\n\n1. c4 {+0.05/7} c5 {-0.02/7} "
    "1/2-1/2\n\n";

[[nodiscard]] bool have_programs() {
  return std::system("bzip2 --help >/dev/null 2>&1") == 0 &&
         std::system("tar --version >/dev/null 2>&1") == 0;
}

// Runs a shell command in `dir`.
[[nodiscard]] int shell(const TempDir& dir, const std::string& command) {
  return std::system(("cd '" + dir.file("") + "' && " + command).c_str());
}

[[nodiscard]] int convert(const std::vector<std::string>& inputs, const std::string& output,
                          std::string& messages) {
  std::ostringstream out, err;
  const int rc = datagen::run_convert({inputs, output}, out, err);
  messages = err.str();
  return rc;
}

TEST(ConvertPackedPgn, Bzip2AndTarArchivesGiveThePlainPgnsChains) {
  if (!have_programs()) GTEST_SKIP() << "needs the programs bzip2 and tar";
  TempDir dir;
  write_text(dir.file("all.pgn"), std::string(kGamesA) + kGamesB);
  const std::string long_dir(90, 'd');
  ASSERT_EQ(shell(dir, "mkdir -p sub " + long_dir), 0);
  write_text(dir.file("sub/a.pgn"), kGamesA);
  write_text(dir.file(long_dir + "/b-with-a-long-name.pgn"), kGamesB);
  write_text(dir.file("sub/notes.txt"), "not a game\n");
  ASSERT_EQ(shell(dir, "bzip2 -k sub/a.pgn " + long_dir + "/b-with-a-long-name.pgn"), 0);
  const std::string members =
      "sub/a.pgn.bz2 sub/notes.txt " + long_dir + "/b-with-a-long-name.pgn.bz2";
  // The default (GNU) format, pax and plain ustar with its name prefix; plain .pgn members too.
  ASSERT_EQ(shell(dir, "tar -cf gnu.tar " + members), 0);
  ASSERT_EQ(shell(dir, "tar --format=pax -cf pax.tar " + members), 0);
  ASSERT_EQ(shell(dir, "tar --format=ustar -cf ustar.tar " + members), 0);
  ASSERT_EQ(shell(dir, "tar -cf plain.tar sub/a.pgn " + long_dir + "/b-with-a-long-name.pgn"), 0);

  std::string messages;
  ASSERT_EQ(convert({dir.file("all.pgn")}, dir.file("plain.chain"), messages), 0) << messages;
  const auto expected = read_bytes(dir.file("plain.chain"));
  ASSERT_GT(expected.size(), 0u);
  ASSERT_EQ(convert({dir.file("sub/a.pgn.bz2"), dir.file(long_dir + "/b-with-a-long-name.pgn.bz2")},
                    dir.file("bz2.chain"), messages),
            0)
      << messages;
  EXPECT_EQ(read_bytes(dir.file("bz2.chain")), expected);
  for (const char* tar : {"gnu.tar", "pax.tar", "ustar.tar", "plain.tar"}) {
    const std::string out = dir.file(std::string(tar) + ".chain");
    ASSERT_EQ(convert({dir.file(tar)}, out, messages), 0) << tar << ": " << messages;
    EXPECT_EQ(read_bytes(out), expected) << tar << ": " << messages;
    // A member that is not PGN is named and passed over.
    EXPECT_EQ(messages.find("notes.txt") != std::string::npos, std::string(tar) != "plain.tar")
        << tar << ": " << messages;
  }
}

TEST(ConvertPackedPgn, DamagedOrUnreadableInputsFail) {
  if (!have_programs()) GTEST_SKIP() << "needs the programs bzip2 and tar";
  TempDir dir;
  write_text(dir.file("a.pgn"), kGamesA);
  ASSERT_EQ(shell(dir, "bzip2 -k a.pgn && tar -cf a.tar a.pgn.bz2"), 0);
  const auto bz2 = read_bytes(dir.file("a.pgn.bz2"));
  const auto tar = read_bytes(dir.file("a.tar"));
  std::string messages;

  test::write_bytes(dir.file("cut.pgn.bz2"), {bz2.begin(), bz2.begin() + long(bz2.size() / 2)});
  EXPECT_EQ(convert({dir.file("cut.pgn.bz2")}, dir.file("o1.chain"), messages), 1);
  EXPECT_NE(messages.find("bzip2 failed"), std::string::npos) << messages;

  // Cut inside the member, and after it (the end-of-archive blocks missing).
  for (const std::size_t cut : {512 + bz2.size() / 2, std::size_t(1024)}) {
    test::write_bytes(dir.file("cut.tar"), {tar.begin(), tar.begin() + long(cut)});
    EXPECT_EQ(convert({dir.file("cut.tar")}, dir.file("o2.chain"), messages), 1) << cut;
    EXPECT_NE(messages.find("cut short"), std::string::npos) << cut << ": " << messages;
  }
  // A damaged header after a good member: its checksum no longer holds.
  ASSERT_EQ(shell(dir, "tar -cf two.tar a.pgn.bz2 a.pgn"), 0);
  auto damaged = read_bytes(dir.file("two.tar"));
  damaged.at(512 + (bz2.size() + 511) / 512 * 512) ^= 0x20;  // the second name's 'a' to 'A'
  test::write_bytes(dir.file("damaged.tar"), damaged);
  EXPECT_EQ(convert({dir.file("damaged.tar")}, dir.file("o3.chain"), messages), 1);
  EXPECT_NE(messages.find("damaged"), std::string::npos) << messages;

  // Without the bzip2 program a .bz2 is an error that says so.
  const char* old_path = std::getenv("PATH");
  const std::string saved = old_path ? old_path : "";
  ::setenv("PATH", dir.file("nothing-here").c_str(), 1);
  const int rc = convert({dir.file("a.pgn.bz2")}, dir.file("o4.chain"), messages);
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(rc, 1);
  EXPECT_NE(messages.find("bzip2 is not installed"), std::string::npos) << messages;
}

TEST(ConvertPackedPgn, Bunzip2AndTarReadersDirectly) {
  if (!have_programs()) GTEST_SKIP() << "needs the programs bzip2 and tar";
  TempDir dir;
  // Larger than a pipe's buffer both ways, so that feeding and draining must interleave.
  std::string big;
  for (int i = 0; big.size() < 300'000; ++i) big += std::to_string(i * 7919 % 100003) + "\n";
  write_text(dir.file("big.txt"), big);
  ASSERT_EQ(shell(dir, "bzip2 -k big.txt"), 0);
  const auto bytes = read_bytes(dir.file("big.txt.bz2"));
  const std::string compressed(bytes.begin(), bytes.end());
  ASSERT_GT(compressed.size(), 65536u);
  EXPECT_TRUE(datagen::starts_like_bzip2(compressed));
  EXPECT_FALSE(datagen::starts_like_bzip2(big));
  std::string text, error;
  ASSERT_TRUE(datagen::bunzip2(compressed, "big.txt.bz2", text, error)) << error;
  EXPECT_EQ(text, big);
  EXPECT_FALSE(datagen::bunzip2("BZh9 not really", "x.bz2", text, error));
  EXPECT_NE(error.find("x.bz2"), std::string::npos) << error;

  ASSERT_EQ(shell(dir, "tar -cf t.tar big.txt big.txt.bz2"), 0);
  std::vector<std::string> names;
  std::vector<std::size_t> sizes;
  ASSERT_TRUE(datagen::read_tar(
      dir.file("t.tar"),
      [&](const std::string& name, const std::string& member) {
        names.push_back(name);
        sizes.push_back(member.size());
        return true;
      },
      error))
      << error;
  EXPECT_EQ(names, (std::vector<std::string>{"big.txt", "big.txt.bz2"}));
  EXPECT_EQ(sizes, (std::vector<std::size_t>{big.size(), compressed.size()}));
  EXPECT_FALSE(datagen::read_tar(
      dir.file("big.txt"), [](auto&, auto&) { return true; }, error));
  EXPECT_NE(error.find("not a tar"), std::string::npos) << error;

  // Names past the header's 100 bytes: GNU's long-name member, pax's path record, ustar's prefix.
  const std::string folder(90, 'f'), name = folder + "/a-name-of-thirty-letters.pgn";
  ASSERT_EQ(shell(dir, "mkdir " + folder + " && echo x > " + name), 0);
  for (const char* format : {"gnu", "pax", "ustar"}) {
    ASSERT_EQ(
        shell(dir, fmt::format("tar --format={} -cf {}.tar {} big.txt", format, format, name)), 0);
    names.clear();
    ASSERT_TRUE(datagen::read_tar(
        dir.file(std::string(format) + ".tar"),
        [&](const std::string& member, const std::string&) {
          names.push_back(member);
          return true;
        },
        error))
        << format << ": " << error;
    EXPECT_EQ(names, (std::vector<std::string>{name, "big.txt"})) << format;
  }
}

}  // namespace
}  // namespace tessera
#endif
