// `go` doing what the GUI asked, and the analysis output, against the real `tessera` binary.
//
// Times are only ever bounded from below ("not before 80% of movetime"): a loaded machine can
// make any answer late, but never early.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "uci_session.h"

namespace tessera {
namespace {

using namespace test;

// White mates at once with Qxf7#; Kd1 is what an unsearched move list offers first.
constexpr std::string_view kScholarsMate =
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";

// How long a search that should end by itself may take before it counts as unbounded.
constexpr Millis kBounded = 10s;

[[nodiscard]] std::string bestmove_of(const std::vector<std::string>& lines) {
  if (lines.empty() || !is_bestmove(lines.back())) return {};
  const Words words = split_words(lines.back());
  return words.size() >= 2 ? words[1] : std::string();
}

// Three positions, since the early stop this guards against depended on how stable the search
// happened to be.
TEST(UciGo, MovetimeIsSpentInFull) {
  Uci uci;
  uci.handshake();
  for (const char* moves : {"", " moves e2e4", " moves d2d4 g8f6"}) {
    uci.send(std::string("position startpos") + moves);
    uci.sync();
    const auto start = std::chrono::steady_clock::now();
    const std::string best = uci.search("go movetime 1000");
    const auto elapsed =
        std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - start);
    EXPECT_FALSE(best.empty());
    // 1000 ms less the 10 ms Move Overhead; the stability stop of clock games used about 60%.
    EXPECT_GE(elapsed.count(), 800) << moves;
  }
}

TEST(UciGo, StopRightAfterGoStillFindsMateInOne) {
  Uci uci;
  uci.handshake();
  uci.send(fmt::format("position fen {}", kScholarsMate));
  uci.send("go wtime 60000 btime 60000");
  uci.send("stop");
  EXPECT_EQ(bestmove_of(uci.until_bestmove()), "h5f7");
}

TEST(UciGo, EndOfInputRightAfterGoInfiniteStillFindsMateInOne) {
  Uci uci;
  uci.handshake();
  uci.send(fmt::format("position fen {}", kScholarsMate));
  uci.send("go infinite");
  uci.process().close_input();
  EXPECT_EQ(bestmove_of(uci.until_bestmove()), "h5f7");
  EXPECT_TRUE(uci.process().wait_exit(kAnswer).has_value());
}

// A bad value is reported, and the search still ends by itself: the limits that were valid
// hold, and with none left the search is minimal rather than endless.
TEST(UciGo, BadValuesAreReportedAndTheSearchStillEnds) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  for (const char* go :
       {"go depth abc", "go depth 0", "go wtime abc", "go foo", "go nodes 0", "go movetime x"}) {
    uci.send(go);
    const auto reply = uci.process().read_until(is_bestmove, kBounded);
    ASSERT_TRUE(reply.found) << go << ": no bestmove without stop";
    EXPECT_TRUE(std::any_of(reply.lines.begin(), reply.lines.end(), [](const std::string& l) {
      return starts_with(l, "info string error: ");
    })) << go;
    EXPECT_FALSE(Position::startpos().parse_uci_move(bestmove_of(reply.lines)).is_none()) << go;
  }
  // The valid part of a line still applies: depth 3 is searched, not less.
  std::vector<std::string> lines;
  (void)uci.search("go nodes 0 depth 3", &lines);
  int deepest = 0;
  for (const std::string& line : lines)
    if (is_search_info(line)) deepest = std::max(deepest, std::stoi(field(line, "depth").value()));
  EXPECT_EQ(deepest, 3);
}

TEST(UciGo, LiveOptionsApplyDuringAnalysisAndOthersAreRefused) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos");
  uci.send("go infinite");
  ASSERT_TRUE(uci.process().read_until(is_search_info, kAnswer).found);
  uci.send("setoption name MultiPV value 2");
  uci.send("setoption name UCI_ShowWDL value true");
  uci.send("setoption name Move Overhead value 50");
  const std::vector<std::string> refused = uci.info_strings_after("setoption name Hash value 32");
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_TRUE(starts_with(refused[0], "info string error: ")) << refused[0];
  // The analysis goes on, now with two lines and WDL.
  const auto second = uci.process().read_until(
      [](const std::string& l) {
        return is_bestmove(l) || (field(l, "multipv") == "2" && field(l, "wdl").has_value());
      },
      kAnswer);
  ASSERT_TRUE(second.found);
  EXPECT_EQ(count_if_line(second.lines, is_bestmove), 0u) << second.lines.back();
  uci.send("stop");
  EXPECT_EQ(count_if_line(uci.until_bestmove(), is_bestmove), 1u);
  // Refused while searching, the option is accepted once the search is over.
  EXPECT_TRUE(uci.info_strings_after("setoption name Hash value 32").empty());
}

// Each line is printed once: the report at the end of the search repeats nothing.
TEST(UciGo, TheLastInfoLineIsNotRepeated) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos moves e2e4");
  std::vector<std::string> lines;
  (void)uci.search("go depth 7", &lines);
  int at_depth_7 = 0;
  for (const std::string& line : lines)
    if (is_search_info(line) && field(line, "depth") == "7") ++at_depth_7;
  EXPECT_EQ(at_depth_7, 1);
}

TEST(UciGo, UppercasePromotionLettersAreAccepted) {
  Uci uci;
  uci.handshake();
  EXPECT_TRUE(
      uci.info_strings_after("position fen 8/4P3/8/8/8/8/k7/7K w - - 0 1 moves e7e8Q").empty());
  uci.send("d");
  const std::vector<std::string> board = uci.sync();
  EXPECT_TRUE(std::any_of(board.begin(), board.end(), [](const std::string& l) {
    return l.find("4Q3/8/8/8/8/8/k7/7K b") != std::string::npos;
  }));
  uci.send("position fen 8/4P3/8/8/8/8/k7/7K w - - 0 1");
  EXPECT_EQ(uci.search("go depth 2 searchmoves e7e8N"), "e7e8n");
}

// `wdl W D L` follows the score: three per-mille integers adding up to 1000, a win being more
// likely the higher the score.
TEST(UciGo, ShowWdlGivesWellFormedPerMille) {
  Uci uci;
  const std::vector<std::string> options = uci.handshake();
  EXPECT_TRUE(std::any_of(options.begin(), options.end(), [](const std::string& l) {
    return l == "option name UCI_ShowWDL type check default false";
  }));
  EXPECT_TRUE(uci.info_strings_after("setoption name UCI_AnalyseMode value true").empty());
  uci.send("position startpos");
  std::vector<std::string> lines;
  (void)uci.search("go depth 5", &lines);
  for (const std::string& line : lines) EXPECT_FALSE(field(line, "wdl").has_value()) << line;

  EXPECT_TRUE(uci.info_strings_after("setoption name UCI_ShowWDL value true").empty());
  const auto wdl = [&](std::string_view fen) {
    uci.send(fmt::format("position fen {}", fen));
    std::vector<std::string> got;
    (void)uci.search("go depth 5", &got);
    std::vector<int> last;
    for (const std::string& line : got) {
      if (!is_search_info(line)) continue;
      const Words w = split_words(line);
      const std::size_t at = uci::find_word(w, "wdl");
      EXPECT_LT(at + 3, w.size()) << line;
      if (at + 3 >= w.size()) continue;
      EXPECT_EQ(w[at - 3], "score") << line;  // score cp|mate N wdl W D L
      last.clear();
      int sum = 0;
      for (std::size_t i = at + 1; i <= at + 3; ++i) {
        const auto n = uci::parse_int(w[i]);
        EXPECT_TRUE(n && *n >= 0 && *n <= 1000) << line;
        last.push_back(int(n.value_or(0)));
        sum += int(n.value_or(0));
      }
      EXPECT_EQ(sum, 1000) << line;
    }
    return last;
  };
  const std::vector<int> even = wdl(Position::kStartFen);
  const std::vector<int> queen_up = wdl("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  const std::vector<int> mating = wdl(kMateInOne);
  ASSERT_EQ(even.size(), 3u);
  ASSERT_EQ(queen_up.size(), 3u);
  EXPECT_GT(queen_up[0], even[0]);
  EXPECT_LT(queen_up[2], even[2]);
  EXPECT_EQ(mating, (std::vector<int>{1000, 0, 0}));
}

// Long analyses announce the root move being searched (after 3 s, as Stockfish does).
TEST(UciGo, LongAnalysisShowsCurrmove) {
  Uci uci;
  uci.handshake();
  uci.send("position startpos moves e2e4");
  uci.send("go infinite");
  const auto reply = uci.process().read_until(
      [](const std::string& l) { return field(l, "currmove").has_value() || is_bestmove(l); },
      kAnswer);
  ASSERT_TRUE(reply.found);
  const std::string& line = reply.lines.back();
  const Words w = split_words(line);
  ASSERT_EQ(w.size(), 7u) << line;
  EXPECT_EQ(w[1], "depth");
  EXPECT_TRUE(uci::parse_int(w[2])) << line;
  EXPECT_FALSE(position_after(Position::kStartFen, {"e2e4"}).parse_uci_move(w[4]).is_none())
      << line;
  EXPECT_EQ(w[5], "currmovenumber");
  EXPECT_GE(uci::parse_int(w[6]).value_or(0), 1) << line;
  uci.send("stop");
  EXPECT_EQ(count_if_line(uci.until_bestmove(), is_bestmove), 1u);
}

// Kh5 is forced, then Rh3 mates: a quiet mate in one that late-move pruning must not skip.
// Before the mate is in sight, the lone king's position is clearly lost but on the scale of
// ordinary scores (under 35 pawns), which GUIs plot sensibly.
TEST(UciGo, ShortMateInAWonEndingIsFoundAtLowDepth) {
  Uci uci;
  uci.handshake();
  uci.send("position fen 8/8/8/8/4bk1K/6r1/8/8 w - - 0 1");
  std::vector<std::string> lines;
  (void)uci.search("go depth 3", &lines);
  bool mate_by_depth_2 = false;
  for (const std::string& line : lines) {
    if (!is_search_info(line)) continue;
    const Words w = split_words(line);
    const std::size_t at = uci::find_word(w, "score");
    ASSERT_LT(at + 2, w.size()) << line;
    const int depth = std::stoi(field(line, "depth").value());
    if (w[at + 1] == "mate") {
      EXPECT_EQ(w[at + 2], "-1") << line;
      mate_by_depth_2 = mate_by_depth_2 || depth <= 2;
    } else {
      const int cp = std::stoi(w[at + 2]);
      EXPECT_LT(cp, -600) << line;
      EXPECT_GT(cp, -3500) << line;
    }
  }
  EXPECT_TRUE(mate_by_depth_2);
}

}  // namespace
}  // namespace tessera
