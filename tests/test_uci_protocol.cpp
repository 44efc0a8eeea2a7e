// UCI protocol tests against the real `tessera` binary, driven over pipes as a GUI drives it.
//
// Every read has a timeout, so an engine that hangs fails a test rather than the whole run.
// Timing is only checked against generous bounds ("answers within 10 s"): these tests must
// pass on a loaded CI machine and under sanitizers.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/position.h"
#include "uci/tokens.h"
#include "uci_session.h"

namespace tessera {
namespace {

using namespace test;

// ----- Handshake

TEST(UciProtocol, NothingIsPrintedBeforeUci) {
  Uci uci;
  EXPECT_FALSE(uci.process().read_line(500ms).has_value());
  EXPECT_FALSE(uci.process().output_closed());
}

TEST(UciProtocol, HandshakeIsWellFormed) {
  Uci uci;
  const std::vector<std::string> lines = uci.handshake();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "uciok");  // exact: no trailing space
  ASSERT_GE(lines.size(), 3u);
  EXPECT_TRUE(starts_with(lines[0], "id name Tessera ")) << lines[0];
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) { return starts_with(l, "id author "); }),
            1);

  std::set<std::string> names;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (starts_with(line, "id ")) continue;
    ASSERT_TRUE(starts_with(line, "option name ")) << line;
    const Words w = split_words(line);
    const std::size_t type_at = uci::find_word(w, "type");
    ASSERT_LT(type_at + 1, w.size()) << line;
    const std::string name = uci::join_words(w, 2, type_at);
    EXPECT_FALSE(name.empty()) << line;
    names.insert(name);
    const std::string& type = w[type_at + 1];
    ASSERT_TRUE(type == "spin" || type == "check" || type == "button" || type == "combo" ||
                type == "string")
        << line;
    if (type == "spin") {
      const auto def = uci::parse_int(field(line, "default").value_or(""));
      const auto min = uci::parse_int(field(line, "min").value_or(""));
      const auto max = uci::parse_int(field(line, "max").value_or(""));
      ASSERT_TRUE(def && min && max) << line;
      EXPECT_LE(*min, *def) << line;
      EXPECT_LE(*def, *max) << line;
      EXPECT_GE(*min, INT_MIN) << line;
      EXPECT_LE(*max, INT_MAX) << line;
    }
    if (type == "check") {
      const std::string def = field(line, "default").value_or("");
      EXPECT_TRUE(def == "true" || def == "false") << line;
    }
  }
  for (const char* required :
       {"Hash", "Threads", "Clear Hash", "MultiPV", "Ponder", "Move Overhead", "UCI_Chess960"})
    EXPECT_TRUE(names.count(required)) << "missing option " << required;
  // Nothing follows uciok unasked.
  EXPECT_FALSE(uci.process().read_line(200ms).has_value());
}

// ----- Search control

TEST(UciProtocol, IsReadyIsAnsweredDuringInfiniteSearch) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  uci.send("go infinite");
  std::this_thread::sleep_for(200ms);
  const std::vector<std::string> before = uci.sync();
  EXPECT_EQ(count_if_line(before, is_bestmove), 0u);
  uci.send("stop");
  uci.until_bestmove();
}

TEST(UciProtocol, StopGivesExactlyOneBestmove) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  uci.send("go infinite");
  std::this_thread::sleep_for(300ms);
  uci.send("stop");
  const std::vector<std::string> lines = uci.until_bestmove();
  EXPECT_EQ(count_if_line(lines, is_bestmove), 1u);
  // A second stop while idle is ignored: no second bestmove.
  uci.send("stop");
  const std::vector<std::string> after = uci.sync();
  EXPECT_EQ(count_if_line(after, is_bestmove), 0u);
  const std::string best = split_words(lines.back()).at(1);
  EXPECT_FALSE(position_after(Position::kStartFen, {}).parse_uci_move(best).is_none()) << best;
}

TEST(UciProtocol, InfiniteSearchWaitsForStopEvenAfterFindingMate) {
  Uci uci;
  uci.handshake();
  uci.send(fmt::format("position fen {}", kMateInOne));
  uci.send("go infinite");
  const std::vector<std::string> early = uci.process().read_for(1500ms);
  EXPECT_EQ(count_if_line(early, is_bestmove), 0u);
  uci.send("stop");
  const std::vector<std::string> lines = uci.until_bestmove();
  EXPECT_EQ(count_if_line(lines, is_bestmove), 1u);
}

TEST(UciProtocol, PonderWaitsForPonderhitThenAnswers) {
  Uci uci;
  uci.handshake();
  uci.send("setoption name Ponder value true");
  uci.send("position startpos moves e2e4 e7e5");
  // Short clocks: a search that ignored `ponder` would answer well within the wait below.
  uci.send("go ponder wtime 1000 btime 1000 winc 0 binc 0");
  const std::vector<std::string> early = uci.process().read_for(1500ms);
  EXPECT_EQ(count_if_line(early, is_bestmove), 0u);
  uci.send("ponderhit");
  const std::vector<std::string> lines = uci.until_bestmove();
  EXPECT_EQ(count_if_line(lines, is_bestmove), 1u);
  const Words words = split_words(lines.back());
  ASSERT_GE(words.size(), 2u);
  const Position pos = position_after(Position::kStartFen, {"e2e4", "e7e5"});
  EXPECT_FALSE(pos.parse_uci_move(words[1]).is_none()) << lines.back();
}

TEST(UciProtocol, StopDuringPonderGivesBestmove) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  uci.send("go ponder wtime 60000 btime 60000");
  std::this_thread::sleep_for(200ms);
  uci.send("stop");
  EXPECT_EQ(count_if_line(uci.until_bestmove(), is_bestmove), 1u);
}

TEST(UciProtocol, StopRightAfterGoStillGivesALegalMove) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos moves g1f3");
  uci.send("go infinite");
  uci.send("stop");
  const std::vector<std::string> lines = uci.until_bestmove();
  EXPECT_EQ(count_if_line(lines, is_bestmove), 1u);
  const Words words = split_words(lines.back());
  ASSERT_GE(words.size(), 2u);
  EXPECT_FALSE(position_after(Position::kStartFen, {"g1f3"}).parse_uci_move(words[1]).is_none())
      << lines.back();
  EXPECT_EQ(count_if_line(uci.sync(), is_bestmove), 0u);
}

// A GUI that sends a new position without `stop` must not hang the engine: the infinite search
// is stopped (one bestmove) and the new position searched.
TEST(UciProtocol, NewPositionDuringInfiniteSearchImpliesStop) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  uci.send("go infinite");
  std::this_thread::sleep_for(200ms);
  uci.send("position startpos moves e2e4");
  const std::vector<std::string> first = uci.until_bestmove();
  EXPECT_EQ(count_if_line(first, is_bestmove), 1u);
  const std::string best = uci.search("go depth 3");
  EXPECT_FALSE(position_after(Position::kStartFen, {"e2e4"}).parse_uci_move(best).is_none());
}

TEST(UciProtocol, QuitDuringSearchExitsPromptly) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  uci.send("go infinite");
  std::this_thread::sleep_for(200ms);
  uci.send("quit");
  const std::optional<int> status = uci.process().wait_exit(5s);
  ASSERT_TRUE(status.has_value()) << "still running 5 s after quit";
  EXPECT_EQ(*status, 0);
}

TEST(UciProtocol, EndOfInputExits) {
  Uci uci;
  uci.handshake();
  uci.process().close_input();
  const std::optional<int> status = uci.process().wait_exit(5s);
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(*status, 0);
}

TEST(UciProtocol, EndOfInputLetsAFiniteSearchFinish) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  uci.send("go depth 4");
  uci.process().close_input();
  uci.until_bestmove();
  EXPECT_TRUE(uci.process().wait_exit(5s).has_value());
}

TEST(UciProtocol, EndOfInputStopsAnInfiniteSearch) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  uci.send("go infinite");
  std::this_thread::sleep_for(200ms);
  uci.process().close_input();
  EXPECT_TRUE(uci.process().wait_exit(5s).has_value()) << "still running 5 s after EOF";
}

// ----- Roots without legal moves

TEST(UciProtocol, CheckmatedRootGivesNullBestmove) {
  Uci uci;
  uci.handshake();
  uci.send(fmt::format("position fen {}", kFoolsMate));
  std::vector<std::string> lines;
  EXPECT_EQ(uci.search("go depth 5", &lines), "0000");
  EXPECT_NE(std::find(lines.begin(), lines.end(), "info depth 0 score mate 0"), lines.end());
}

TEST(UciProtocol, StalematedRootScoresZero) {
  Uci uci;
  uci.handshake();
  uci.send(fmt::format("position fen {}", kStalemate));
  std::vector<std::string> lines;
  EXPECT_EQ(uci.search("go wtime 1000 btime 1000", &lines), "0000");
  EXPECT_NE(std::find(lines.begin(), lines.end(), "info depth 0 score cp 0"), lines.end());
}

// ----- Positions

TEST(UciProtocol, BadFenIsReportedAndKeepsThePreviousPosition) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos moves e2e4");
  for (const char* bad : {"position fen garbage",
                          "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                          "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w - - 0 1",
                          "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "position fen", "position"}) {
    const std::vector<std::string> errors = uci.info_strings_after(bad);
    ASSERT_EQ(errors.size(), 1u) << bad;
    EXPECT_TRUE(starts_with(errors[0], "info string error: ")) << errors[0];
  }
  const std::string best = uci.search("go depth 3");
  const Position pos = position_after(Position::kStartFen, {"e2e4"});
  EXPECT_FALSE(pos.parse_uci_move(best).is_none()) << "bestmove " << best << " is not legal";
}

TEST(UciProtocol, IllegalMoveInListIsReportedAndPlayingStopsThere) {
  Uci uci;
  uci.handshake();
  const std::vector<std::string> errors =
      uci.info_strings_after("position startpos moves e2e4 e7e5 e1e8 g1f3");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(starts_with(errors[0], "info string error: ")) << errors[0];
  // The position is the one before the illegal move: white to move after 1. e4 e5.
  Position expected = position_after(Position::kStartFen, {"e2e4", "e7e5"});
  std::uint64_t total = 0;
  const auto divide = uci.perft(1, &total);
  EXPECT_EQ(total, MoveList<>(expected).size());
  EXPECT_TRUE(divide.count("g1f3"));
  EXPECT_TRUE(divide.count("e1e2"));
}

TEST(UciProtocol, VeryLongMoveListIsAccepted) {
  Uci uci;
  uci.handshake();
  // 1200 plies of knights going out and back: legal throughout (repetitions are draws, not
  // illegal moves), and a line of about 6000 characters.
  std::string line = "position startpos moves";
  const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
  for (int ply = 0; ply < 1200; ++ply) line += std::string(" ") + cycle[ply % 4];
  EXPECT_TRUE(uci.info_strings_after(line).empty());
  std::uint64_t total = 0;
  (void)uci.perft(1, &total);
  EXPECT_EQ(total, 20u);
  const std::string best = uci.search("go depth 3");
  EXPECT_FALSE(Position::startpos().parse_uci_move(best).is_none()) << best;
  // The same list once more, plus one move: the GUI resends the whole game every move.
  uci.send(line + " e2e4");
  const std::string reply = uci.search("go depth 3");
  EXPECT_FALSE(position_after(Position::kStartFen, {"e2e4"}).parse_uci_move(reply).is_none());
}

TEST(UciProtocol, WhitespaceTabsAndCarriageReturnsAreTolerated) {
  Uci uci;
  uci.handshake();
  uci.send("  position \t startpos   moves \t e2e4  \r");
  std::uint64_t total = 0;
  const auto divide = uci.perft(1, &total);
  EXPECT_EQ(total, 20u);
  EXPECT_TRUE(divide.count("e7e5"));  // black to move
  uci.send("isready\r");
  EXPECT_EQ(uci.process().read_line(kAnswer).value_or(""), "readyok");
  uci.send("");
  uci.send("   ");
  uci.sync();
}

TEST(UciProtocol, DisplayShowsTheFen) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos moves e2e4");
  uci.send("d");
  const std::vector<std::string> lines = uci.sync();
  const std::string fen = position_after(Position::kStartFen, {"e2e4"}).fen();
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(),
                          [&](const std::string& l) { return l.find(fen) != std::string::npos; }))
      << "d does not show " << fen;
}

// ----- Chess960

TEST(UciProtocol, Chess960CastlingIsKingTakesRook) {
  Uci uci;
  uci.handshake();
  const std::string fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  uci.send("position fen " + fen);
  std::uint64_t total = 0;
  auto divide = uci.perft(1, &total);
  EXPECT_TRUE(divide.count("e1g1") && divide.count("e1c1"));
  EXPECT_FALSE(divide.count("e1h1") || divide.count("e1a1"));

  uci.send("setoption name UCI_Chess960 value true");
  uci.send("position fen " + fen);
  divide = uci.perft(1, &total);
  EXPECT_TRUE(divide.count("e1h1") && divide.count("e1a1"));
  EXPECT_FALSE(divide.count("e1g1") || divide.count("e1c1"));
  EXPECT_EQ(uci.search("go depth 2 searchmoves e1h1"), "e1h1");

  // A Chess960 start where e1g1 is castling with the g1 rook; after it, black to move.
  const std::string frc = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
  uci.send("position fen " + frc + " moves e1g1");
  divide = uci.perft(1, &total);
  Position expected = position_after(frc, {"e1g1"}, true);
  EXPECT_EQ(expected.piece_on(parse_square("g1")), Piece(WHITE, KING));
  EXPECT_EQ(expected.piece_on(parse_square("f1")), Piece(WHITE, ROOK));
  std::map<std::string, std::uint64_t> want;
  for (const auto& [move, count] : perft_divide(expected, 1))
    want[expected.move_to_uci(move)] = count;
  EXPECT_EQ(divide, want);
  EXPECT_TRUE(divide.count("e8g8") && divide.count("e8b8"));  // black's castlings, 960 style

  uci.send("setoption name UCI_Chess960 value false");
  uci.send("position fen " + fen);
  EXPECT_EQ(uci.search("go depth 2 searchmoves e1g1"), "e1g1");
}

// ----- go parameters

TEST(UciProtocol, GoDepthSearchesToThatDepth) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  std::vector<std::string> lines;
  const std::string best = uci.search("go depth 5", &lines);
  EXPECT_FALSE(Position::startpos().parse_uci_move(best).is_none()) << best;
  int deepest = 0;
  for (const std::string& line : lines)
    if (is_search_info(line)) deepest = std::max(deepest, std::stoi(field(line, "depth").value()));
  EXPECT_EQ(deepest, 5);
}

TEST(UciProtocol, GoNodesAnswers) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos moves d2d4");
  const std::string best = uci.search("go nodes 5000");
  EXPECT_FALSE(position_after(Position::kStartFen, {"d2d4"}).parse_uci_move(best).is_none());
}

TEST(UciProtocol, NodeLimitIsKept) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  std::vector<std::string> lines;
  (void)uci.search("go nodes 3000", &lines);
  std::uint64_t most = 0;
  for (const std::string& line : lines)
    if (const auto nodes = field(line, "nodes"))
      most = std::max<std::uint64_t>(most, std::stoull(*nodes));
  EXPECT_GT(most, 0u);
  EXPECT_LE(most, 3000u);
}

// The clock is a rule of the game: a move that comes after the time the GUI gave is a loss.
// This checks that the limits are obeyed at all, not how precisely (fastchess and self-play
// measure that): the bounds leave two seconds for a loaded machine and sanitizer builds, while
// a search that ignored the clock would run until the 30-second hang limit.
TEST(UciProtocol, MovetimeAndTinyClocksAreRespected) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos moves e2e4 c7c5");
  const Position pos = position_after(Position::kStartFen, {"e2e4", "c7c5"});
  for (const auto& [go, limit] : {std::pair{"go movetime 200", 200},
                                  {"go wtime 150 btime 150", 150},
                                  {"go wtime 30 btime 30 winc 10 binc 10", 30},
                                  {"go wtime 1000 btime 1000 movestogo 1", 1000},
                                  {"go wtime -20 btime 500", 0}}) {
    const auto start = std::chrono::steady_clock::now();
    const std::string best = uci.search(go);
    const auto elapsed =
        std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - start);
    EXPECT_FALSE(pos.parse_uci_move(best).is_none()) << go << " gave " << best;
    EXPECT_LT(elapsed.count(), limit + 2000) << go;
  }
}

// A game as a GUI plays it, with the hash resized and cleared between moves.
TEST(UciProtocol, HashResizeAndClearHashDuringAGame) {
  Uci uci;
  uci.handshake();
  uci.send("ucinewgame");
  std::vector<std::string> moves;
  const char* between[] = {"setoption name Hash value 32", "setoption name Clear Hash",
                           "setoption name Hash value 1",  "setoption name Clear Hash",
                           "setoption name Hash value 64", ""};
  for (int ply = 0; ply < 12; ++ply) {
    std::string line = "position startpos";
    if (!moves.empty()) line += " moves";
    for (const std::string& m : moves) line += " " + m;
    uci.send(line);
    if (*between[ply % 6]) uci.send(between[ply % 6]);
    const std::string best = uci.search(ply % 2 ? "go nodes 20000" : "go depth 6");
    const Position pos = position_after(Position::kStartFen, moves);
    ASSERT_FALSE(pos.parse_uci_move(best).is_none()) << "ply " << ply << " gave " << best;
    moves.push_back(best);
  }
  EXPECT_TRUE(uci.info_strings_after("ucinewgame").empty());
}

TEST(UciProtocol, LimitedStrengthPlaysLegalMovesAndShowsOneLine) {
  Uci uci;
  uci.handshake();
  EXPECT_EQ(uci.info_strings_after("setoption name UCI_Elo value 1000").size(), 1u);
  EXPECT_TRUE(uci.info_strings_after("setoption name UCI_LimitStrength value true").empty());
  EXPECT_TRUE(uci.info_strings_after("setoption name UCI_Elo value 1500").empty());
  uci.send("position startpos moves e2e4");
  const Position pos = position_after(Position::kStartFen, {"e2e4"});
  for (int i = 0; i < 3; ++i) {
    std::vector<std::string> lines;
    const std::string best = uci.search("go wtime 10000 btime 10000", &lines);
    EXPECT_FALSE(pos.parse_uci_move(best).is_none()) << best;
    for (const std::string& line : lines)
      if (is_search_info(line)) {
        EXPECT_EQ(field(line, "multipv").value_or("1"), "1") << line;
      }
  }
}

TEST(UciProtocol, GoMovetimeAnswers) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  // search() fails the test when no bestmove comes within kAnswer: a hang, not a slow move.
  const std::string best = uci.search("go movetime 300");
  EXPECT_FALSE(Position::startpos().parse_uci_move(best).is_none());
}

TEST(UciProtocol, GoParametersInAnyOrderAndOddValues) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  const Position start = Position::startpos();
  for (const char* go : {"go btime 500 winc 0 wtime 2000 movestogo 3 binc 10",
                         "go wtime 100",  // no btime at all (fastchess compliance does this)
                         "go wtime -50 btime -50", "go wtime 1 btime 1", "go mate 2 depth 3",
                         "go depth 3 searchmoves e2e4 d2d4", "go searchmoves a2a3 depth 2"}) {
    std::vector<std::string> lines;
    const std::string best = uci.search(go, &lines);
    EXPECT_FALSE(start.parse_uci_move(best).is_none()) << go << " gave " << best;
    for (const std::string& line : lines)
      EXPECT_FALSE(starts_with(line, "info string error")) << go << ": " << line;
  }
  EXPECT_EQ(uci.search("go depth 3 searchmoves a2a3"), "a2a3");
}

TEST(UciProtocol, GarbageNumbersAreReportedNotFatal) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  for (const char* go :
       {"go wtime abc btime 1000 depth 3", "go depth 99999999999999999999 nodes 2000",
        "go depth nodes 2000", "go nodes -5 depth 2", "go depth 3 searchmoves e2e5 e2e4",
        "go depth 3 frobnicate 7"}) {
    std::vector<std::string> lines;
    const std::string best = uci.search(go, &lines);
    EXPECT_FALSE(Position::startpos().parse_uci_move(best).is_none()) << go << " gave " << best;
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
      return starts_with(l, "info string error");
    })) << go;
  }
}

TEST(UciProtocol, MultiPvThreeGivesThreeLines) {
  Uci uci;
  uci.handshake();
  uci.send("setoption name MultiPV value 3");
  uci.send("position startpos");
  std::vector<std::string> lines;
  (void)uci.search("go depth 4", &lines);
  std::map<int, std::set<int>> slots_by_depth;
  std::map<int, std::set<std::string>> first_moves_by_depth;
  for (const std::string& line : lines) {
    if (!is_search_info(line) || !field(line, "multipv")) continue;
    const int depth = std::stoi(field(line, "depth").value());
    slots_by_depth[depth].insert(std::stoi(*field(line, "multipv")));
    if (const auto pv = field(line, "pv")) first_moves_by_depth[depth].insert(*pv);
  }
  ASSERT_FALSE(slots_by_depth.empty());
  const int deepest = slots_by_depth.rbegin()->first;
  EXPECT_EQ(slots_by_depth[deepest], (std::set<int>{1, 2, 3}));
  EXPECT_EQ(first_moves_by_depth[deepest].size(), 3u);  // three different root moves
}

TEST(UciProtocol, InfoLinesAreWellFormed) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos moves e2e4 c7c5 g1f3");
  std::vector<std::string> lines;
  const std::string best = uci.search("go depth 6", &lines);
  const Position root = position_after(Position::kStartFen, {"e2e4", "c7c5", "g1f3"});
  std::string last_pv_move;
  for (const std::string& line : lines) {
    if (!is_search_info(line)) continue;
    const Words w = split_words(line);
    for (std::size_t i = 1; i < w.size(); ++i) {
      const std::string& key = w[i];
      if (key == "pv") {
        Position pos = root;  // the PV is legal from the root
        for (std::size_t j = i + 1; j < w.size(); ++j) {
          const Move m = pos.parse_uci_move(w[j]);
          ASSERT_FALSE(m.is_none()) << "illegal pv move " << w[j] << " in " << line;
          pos.make_move(m);
        }
        last_pv_move = w[i + 1];
        break;
      }
      if (key == "score") {
        ASSERT_LT(i + 2, w.size()) << line;
        EXPECT_TRUE(w[i + 1] == "cp" || w[i + 1] == "mate") << line;
        EXPECT_TRUE(uci::parse_int(w[i + 2])) << line;
        i += 2;
        if (i + 1 < w.size() && (w[i + 1] == "lowerbound" || w[i + 1] == "upperbound")) ++i;
        continue;
      }
      ASSERT_LT(i + 1, w.size()) << line;
      EXPECT_TRUE(uci::parse_int(w[i + 1])) << key << " is not followed by an integer: " << line;
      ++i;
    }
    EXPECT_TRUE(field(line, "depth").has_value()) << line;
  }
  EXPECT_EQ(last_pv_move, best) << "the last PV does not start with the bestmove";
}

// ----- Options

TEST(UciProtocol, BadOptionValuesAreAnsweredWithInfoString) {
  Uci uci;
  uci.handshake();
  for (const char* bad :
       {"setoption name Hash value 0", "setoption name Hash value 99999999999",
        "setoption name Threads value abc", "setoption name Threads value 0",
        "setoption name MultiPV value 9999", "setoption name Move Overhead value -1",
        "setoption name Ponder value maybe", "setoption name UCI_Chess960 value",
        "setoption name Hash", "setoption name NoSuchOption value 3", "setoption",
        "setoption value 3"}) {
    const std::vector<std::string> replies = uci.info_strings_after(bad);
    EXPECT_EQ(replies.size(), 1u) << bad;
  }
  for (const char* good :
       {"setoption name hash value 32", "setoption name HASH value 32",
        "setoption name Threads value 1", "setoption name move overhead value 100",
        "setoption name Clear Hash", "setoption name multipv value 2",
        "setoption name Ponder value TRUE", "setoption name UCI_Chess960 value false"}) {
    EXPECT_TRUE(uci.info_strings_after(good).empty()) << good;
  }
  uci.send("position startpos");
  EXPECT_FALSE(Position::startpos().parse_uci_move(uci.search("go depth 3")).is_none());
}

TEST(UciProtocol, RepeatedOptionsAndNewGameStayResponsive) {
  Uci uci;
  uci.handshake();
  // Each sync() must see its readyok within kAnswer, so a resend that hangs fails here.
  for (int game = 0; game < 20; ++game) {
    uci.send("setoption name Threads value 1");
    uci.send("setoption name Hash value 16");
    uci.send("ucinewgame");
    uci.sync();
  }
}

TEST(UciProtocol, UnknownCommandsAndDebugAreHarmless) {
  Uci uci;
  uci.handshake();
  uci.send("frobnicate now");
  uci.send("debug on");
  uci.send("register later");
  uci.send("debug off");
  for (const std::string& line : uci.sync()) EXPECT_TRUE(starts_with(line, "info string")) << line;
  uci.send("position startpos");
  EXPECT_FALSE(Position::startpos().parse_uci_move(uci.search("go depth 2")).is_none());
}

// ----- perft and bench

TEST(UciProtocol, GoPerftPrintsDivideAndTotal) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  uci.send("go perft 3");
  const auto reply = uci.process().read_until(
      [](const std::string& l) { return starts_with(l, "Nodes searched"); }, kAnswer);
  ASSERT_TRUE(reply.found);
  const std::vector<std::string>& lines = reply.lines;
  EXPECT_EQ(lines.back(), "Nodes searched: 8902");
  ASSERT_EQ(lines.size(), 22u);  // 20 root moves, a blank line, the total
  EXPECT_EQ(lines[20], "");
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < 20; ++i) {
    const std::size_t colon = lines[i].find(": ");
    ASSERT_EQ(colon, 4u) << lines[i];
    EXPECT_FALSE(Position::startpos().parse_uci_move(lines[i].substr(0, 4)).is_none());
    sum += std::stoull(lines[i].substr(6));
  }
  EXPECT_EQ(sum, 8902u);
}

[[nodiscard]] std::vector<std::string> run_uci_bench(int depth) {
  Uci uci;
  uci.send("bench " + std::to_string(depth));
  auto reply = uci.process().read_until(
      [](const std::string& l) { return starts_with(l, "Nodes/second: "); }, 120s);
  EXPECT_TRUE(reply.found);
  return reply.lines;
}

TEST(UciProtocol, BenchIsDeterministicAndEndsWithTheSummary) {
  const std::vector<std::string> first = run_uci_bench(4);
  const std::vector<std::string> second = run_uci_bench(4);
  ASSERT_GE(first.size(), 3u);
  ASSERT_GE(second.size(), 3u);
  const std::string& nodes = first[first.size() - 2];
  EXPECT_TRUE(starts_with(nodes, "Nodes searched: ")) << nodes;
  EXPECT_TRUE(uci::parse_uint(nodes.substr(16)).has_value()) << nodes;
  EXPECT_GT(uci::parse_uint(nodes.substr(16)).value_or(0), 0u);
  EXPECT_EQ(nodes, second[second.size() - 2]);
  EXPECT_TRUE(uci::parse_uint(first.back().substr(14)).has_value()) << first.back();
}

// ----- Opening book

TEST(UciProtocol, OwnBookAnswersFromTheBookAndSurvivesABadFile) {
  Uci uci;
  const std::vector<std::string> options = uci.handshake();
  for (const char* line : {"option name OwnBook type check default false",
                           "option name BookFile type string default <empty>",
                           "option name BookBestMove type check default false",
                           "option name BookDepth type spin default 100 min 1 max 1000"})
    EXPECT_NE(std::find(options.begin(), options.end(), line), options.end()) << line;

  uci.send("setoption name OwnBook value true");
  uci.send("setoption name BookBestMove value true");
  const std::string book = TESSERA_SOURCE_DIR "/tests/data/book/openings.bin";
  const std::vector<std::string> loaded =
      uci.info_strings_after("setoption name BookFile value " + book);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_NE(loaded[0].find("loaded"), std::string::npos) << loaded[0];
  uci.send("position startpos moves d2d4");
  std::vector<std::string> lines;
  EXPECT_EQ(uci.search("go wtime 60000 btime 60000", &lines), "g8f6");
  EXPECT_NE(std::find(lines.begin(), lines.end(), "info string book move g8f6"), lines.end());

  // A missing file: an error, no book, and the engine still searches.
  const std::vector<std::string> errors =
      uci.info_strings_after("setoption name BookFile value /nonexistent/book.bin");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(starts_with(errors[0], "info string error: cannot open")) << errors[0];
  uci.send("position startpos moves d2d4");
  const std::string best = uci.search("go depth 3", &lines);
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.find("book move") != l.npos; }),
            0);
  EXPECT_FALSE(position_after(Position::kStartFen, {"d2d4"}).parse_uci_move(best).is_none());
}

}  // namespace
}  // namespace tessera
