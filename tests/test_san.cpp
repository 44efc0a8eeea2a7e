// SAN for every kind of move, and self-play's PGN: each game's move text replays as legal moves
// (every token is the SAN of exactly one legal move) from its start to its stated result.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/selfplay.h"
#include "core/movegen.h"
#include "core/san.h"
#include "test_core_support.h"

namespace tessera {
namespace {

TEST(San, EveryKindOfMove) {
  struct Case {
    const char* fen;
    bool chess960;
    const char* move;
    const char* san;
  };
  const Case cases[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, "g1f3", "Nf3"},
      {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", false, "e4d5", "exd5"},
      {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false, "e5d6", "exd6"},
      {"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", false, "a7b8q", "axb8=Q+"},
      {"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", false, "a7a8n", "a8=N"},
      {"5k2/8/8/8/8/8/8/4K2R w K - 0 1", false, "e1g1", "O-O+"},
      {"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", false, "e1c1", "O-O-O"},
      {"4k3/8/8/8/8/8/8/5KR1 w G - 0 1", true, "f1g1", "O-O"},
      // Two rooks on one rank: the file tells them apart; on one file, the rank.
      {"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", false, "a1d1", "Rad1"},
      {"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", false, "a1a3", "R1a3"},
      // Three queens: only the full square names the one.
      {"7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", false, "a4b3", "Qa4b3"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", false, "a1a8", "Ra8#"},
  };
  for (const Case& c : cases) {
    const Position pos = test::parse(c.fen, c.chess960);
    EXPECT_EQ(move_to_san(pos, test::uci(pos, c.move)), c.san) << c.fen << " " << c.move;
  }
}

TEST(San, LegalMovesHaveDistinctSan) {
  for (const auto& e : test::every_nth(test::load_perft_epd("perft/standard.epd"), 4)) {
    const Position pos = test::parse(e.fen);
    std::vector<std::string> seen;
    for (const Move m : MoveList<GenType::All>(pos)) seen.push_back(move_to_san(pos, m));
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end()) << e.fen;
  }
}

// Reading SAN back: every legal move of the suites' positions is found again from its SAN, also
// written without check marks, without the '=' of a promotion, and with zeros for castling.
TEST(San, FromSanFindsEveryLegalMove) {
  const auto check = [](const Position& pos, const std::string& fen) {
    for (const Move m : MoveList<GenType::All>(pos)) {
      const std::string san = move_to_san(pos, m);
      ASSERT_EQ(move_from_san(pos, san), m) << fen << " " << san;
      std::string bare;
      for (const char c : san)
        if (c != '+' && c != '#' && c != '=') bare += c == 'O' ? '0' : c;
      ASSERT_EQ(move_from_san(pos, bare), m) << fen << " " << bare;
    }
  };
  for (const auto& e : test::every_nth(test::load_perft_epd("perft/standard.epd"), 2))
    check(test::parse(e.fen), e.fen);
  for (const auto& e : test::every_nth(test::load_perft_epd("perft/fischer.epd"), 8))
    check(test::parse(e.fen, true), e.fen);
}

TEST(San, FromSanRefusesWhatNamesNoSingleMove) {
  const Position start = Position::startpos();
  EXPECT_EQ(move_from_san(start, "Ngf3"), test::uci(start, "g1f3"));  // needless, but right
  for (const char* bad : {"Nf9", "e5", "Ke2", "O-O", "Bb5", "", "x", "Nbd2", "e4=Q", "Qd1d3"})
    EXPECT_TRUE(move_from_san(start, bad).is_none()) << bad;
  const Position rooks = test::parse("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
  EXPECT_TRUE(move_from_san(rooks, "Rd1").is_none());  // ambiguous
  EXPECT_EQ(move_from_san(rooks, "Rad1"), test::uci(rooks, "a1d1"));
  const Position pawn = test::parse("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_TRUE(move_from_san(pawn, "a8").is_none());  // a promotion names its piece
  EXPECT_EQ(move_from_san(pawn, "a8Q"), test::uci(pawn, "a7a8q"));
}

// The legal move whose SAN is `token`, or none.
Move from_san(const Position& pos, const std::string& token) {
  Move found = Move::none();
  for (const Move m : MoveList<GenType::All>(pos))
    if (move_to_san(pos, m) == token) found = m;
  return found;
}

TEST(San, SelfplayPgnReplaysToItsResults) {
  const auto path = std::filesystem::temp_directory_path() / "tessera-selfplay-test.pgn";
  cli::SelfplayConfig config;
  config.games = 2;
  config.nodes = 300;
  config.pgn = path.string();
  std::ostringstream out, err;
  ASSERT_EQ(cli::run_selfplay(config, out, err), 0) << err.str();

  std::ifstream in(path);
  std::string line, moves;
  std::vector<std::string> results;
  int games = 0;
  const auto replay = [&] {
    std::istringstream words(moves);
    Position pos = Position::startpos();
    std::string token;
    while (words >> token) {
      if (token.back() == '.') continue;  // move number
      if (token == results.back()) break;
      const Move m = from_san(pos, token);
      ASSERT_FALSE(m.is_none()) << "'" << token << "' in " << pos.fen();
      pos.make_move(m);
    }
    EXPECT_EQ(token, results.back());
    ++games;
    moves.clear();
  };
  while (std::getline(in, line)) {
    if (line.rfind("[Result \"", 0) == 0) results.push_back(line.substr(9, line.size() - 11));
    if (!line.empty() && line[0] != '[') moves += line + ' ';
    if (line.empty() && !moves.empty()) replay();
  }
  if (!moves.empty()) replay();
  EXPECT_EQ(games, 2);
  ASSERT_EQ(results.size(), 2u);
  for (const std::string& r : results) EXPECT_TRUE(r == "1-0" || r == "0-1" || r == "1/2-1/2");
}

}  // namespace
}  // namespace tessera
