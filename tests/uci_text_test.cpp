// In-process tests of the UCI text layer: splitting words, `go` and `setoption` parsing,
// info / bestmove formatting, and bench determinism.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>

#include "core/position.h"
#include "uci/bench.h"
#include "uci/go.h"
#include "uci/info.h"
#include "uci/options.h"
#include "uci/tokens.h"
#include "uci/wdl.h"

namespace tessera::uci {
namespace {

TEST(UciText, SplitWordsIgnoresAnyWhitespace) {
  EXPECT_EQ(split_words("  go\tdepth  5 \r"), (Words{"go", "depth", "5"}));
  EXPECT_TRUE(split_words(" \t\r").empty());
  EXPECT_EQ(join_words(split_words("a  b\tc"), 1, 99), "b c");
}

TEST(UciText, IntegersMustBeWhole) {
  EXPECT_EQ(parse_int("-42"), -42);
  EXPECT_EQ(parse_int("+7"), 7);
  EXPECT_FALSE(parse_int("12x"));
  EXPECT_FALSE(parse_int(""));
  EXPECT_FALSE(parse_int("1.5"));
  EXPECT_FALSE(parse_int("99999999999999999999"));
  EXPECT_FALSE(parse_uint("-5"));
  EXPECT_FALSE(parse_uint("+-5"));
  EXPECT_EQ(parse_uint("18446744073709551615"), 18446744073709551615ull);
}

TEST(UciText, GoReadsEveryParameterInAnyOrder) {
  const Position pos = Position::startpos();
  const GoCommand go = parse_go(
      split_words("go movestogo 7 binc 20 wtime -30 depth 9 nodes 1000 mate 3 btime 4000 winc 10 "
                  "movetime 250 ponder infinite searchmoves e2e4 d2d4"),
      pos);
  EXPECT_TRUE(go.errors.empty());
  const search::SearchLimits& l = go.limits;
  EXPECT_EQ(l.time[WHITE], -30);
  EXPECT_EQ(l.time[BLACK], 4000);
  EXPECT_EQ(l.increment[WHITE], 10);
  EXPECT_EQ(l.increment[BLACK], 20);
  EXPECT_EQ(l.movestogo, 7);
  EXPECT_EQ(l.depth, 9);
  EXPECT_EQ(l.nodes, 1000u);
  EXPECT_EQ(l.mate, 3);
  EXPECT_EQ(l.movetime, 250);
  EXPECT_TRUE(l.ponder && l.infinite);
  ASSERT_EQ(l.searchmoves.size(), 2u);
  EXPECT_EQ(pos.move_to_uci(l.searchmoves[0]), "e2e4");
  EXPECT_FALSE(go.perft);
}

TEST(UciText, GoReportsBadParametersAndKeepsTheRest) {
  const Position pos = Position::startpos();
  GoCommand go = parse_go(split_words("go depth wtime 100 nodes x btime 1e3 bogus"), pos);
  EXPECT_EQ(go.errors.size(), 4u);  // depth without number, nodes x, btime 1e3, bogus
  EXPECT_EQ(go.limits.time[WHITE], 100);
  EXPECT_FALSE(go.limits.time[BLACK].has_value());
  EXPECT_EQ(go.limits.depth, 0);

  go = parse_go(split_words("go searchmoves e2e5 e2e4 e2e4 depth 0"), pos);
  // e2e5 illegal, depth 0 out of range, and so no limit left: the fallback depth is named
  EXPECT_EQ(go.errors.size(), 3u);
  EXPECT_EQ(go.limits.searchmoves.size(), 1u);
  EXPECT_EQ(go.limits.depth, kFallbackDepth);

  go = parse_go(split_words("go movetime 0"), pos);
  EXPECT_EQ(go.limits.movetime, 1);  // "0" still asks for a move now, not for no limit
}

// A bad value never leaves a search without limit: with nothing valid left it is minimal,
// and what was valid is kept. `nodes 0` is an error, not "no node limit".
TEST(UciText, GoWithOnlyBadValuesSearchesMinimally) {
  const Position pos = Position::startpos();
  for (const char* text : {"go depth abc", "go depth 0", "go wtime abc", "go foo", "go nodes 0",
                           "go movetime", "go mate 2 depth x"}) {
    const GoCommand go = parse_go(split_words(text), pos);
    EXPECT_GE(go.errors.size(), 2u) << text;  // the bad value, then the fallback
    EXPECT_EQ(go.limits.depth, kFallbackDepth) << text;
    EXPECT_EQ(go.limits.nodes, 0u) << text;
    EXPECT_FALSE(is_unbounded(go.limits)) << text;
  }
  GoCommand go = parse_go(split_words("go nodes 0 wtime 500"), pos);
  EXPECT_EQ(go.errors.size(), 1u);
  EXPECT_EQ(go.limits.depth, 0);
  EXPECT_EQ(go.limits.time[WHITE], 500);
  // Analysis stays analysis, and a plain `go` without parameters is no error.
  go = parse_go(split_words("go infinite depth abc"), pos);
  EXPECT_EQ(go.errors.size(), 1u);
  EXPECT_TRUE(go.limits.infinite);
  EXPECT_EQ(go.limits.depth, 0);
  EXPECT_TRUE(parse_go(split_words("go"), pos).errors.empty());
}

TEST(UciText, GoSearchmovesAcceptsUppercasePromotions) {
  std::string error;
  const auto pos = Position::from_fen("8/4P3/8/8/8/8/k7/7K w - - 0 1", false, error);
  ASSERT_TRUE(pos) << error;
  const GoCommand go = parse_go(split_words("go depth 1 searchmoves e7e8Q e7e8n"), *pos);
  EXPECT_TRUE(go.errors.empty());
  ASSERT_EQ(go.limits.searchmoves.size(), 2u);
  EXPECT_EQ(pos->move_to_uci(go.limits.searchmoves[0]), "e7e8q");
}

// The model behind UCI_ShowWDL: per mille adding up to 1000, symmetric between the sides, a win
// likelier and a loss rarer as the score rises, and a score meaning more with less material.
TEST(UciText, WdlModelIsAConsistentCurve) {
  int previous_win = -1;
  for (int score = -3000; score <= 3000; score += 25) {
    const WdlPerMille w = wdl_per_mille(kWdlModel, score, 40);
    const WdlPerMille mirrored = wdl_per_mille(kWdlModel, -score, 40);
    EXPECT_EQ(w.win + w.draw + w.loss, 1000) << score;
    EXPECT_GE(w.draw, 0) << score;
    EXPECT_EQ(w.win, mirrored.loss) << score;
    EXPECT_GE(w.win, previous_win) << score;
    previous_win = w.win;
  }
  EXPECT_GT(wdl_per_mille(kWdlModel, 3000, 40).win, 990);
  EXPECT_EQ(wdl_per_mille(kWdlModel, 0, 78).win, wdl_per_mille(kWdlModel, 0, 78).loss);
  EXPECT_GT(wdl_per_mille(kWdlModel, 150, 78).win, 500);  // a pawn and a half wins, usually
  EXPECT_LT(wdl_per_mille(kWdlModel, 150, 10).win, wdl_per_mille(kWdlModel, 150, 78).win);
  EXPECT_EQ(wdl_material(Position::startpos()), 78);
}

TEST(UciText, GoPerftAndBoundedness) {
  const Position pos = Position::startpos();
  GoCommand go = parse_go(split_words("go perft 4"), pos);
  EXPECT_TRUE(go.perft);
  EXPECT_EQ(go.perft_depth, 4);
  go = parse_go(split_words("go perft"), pos);
  EXPECT_TRUE(go.perft);
  EXPECT_EQ(go.perft_depth, 0);
  EXPECT_EQ(go.errors.size(), 1u);

  EXPECT_TRUE(is_unbounded(parse_go(split_words("go"), pos).limits));
  EXPECT_TRUE(is_unbounded(parse_go(split_words("go infinite"), pos).limits));
  EXPECT_TRUE(is_unbounded(parse_go(split_words("go ponder wtime 100"), pos).limits));
  EXPECT_TRUE(is_unbounded(parse_go(split_words("go mate 3"), pos).limits));
  EXPECT_FALSE(is_unbounded(parse_go(split_words("go wtime 100"), pos).limits));
  EXPECT_FALSE(is_unbounded(parse_go(split_words("go depth 1"), pos).limits));
  EXPECT_FALSE(is_unbounded(parse_go(split_words("go nodes 1"), pos).limits));
  EXPECT_FALSE(is_unbounded(parse_go(split_words("go movetime 10"), pos).limits));
}

TEST(UciText, OptionLinesAreWellFormed) {
  EXPECT_EQ(option_line(*find_option("Hash")),
            "option name Hash type spin default 16 min 1 max 1048576");
  EXPECT_EQ(option_line(*find_option("clear hash")), "option name Clear Hash type button");
  EXPECT_EQ(option_line(*find_option("uci_chess960")),
            "option name UCI_Chess960 type check default false");
  for (const OptionSpec& spec : kOptions) {
    EXPECT_LE(spec.min, spec.default_value) << spec.name;
    EXPECT_LE(spec.default_value, spec.max) << spec.name;
    EXPECT_LE(spec.max, 2147483647) << spec.name;
  }
  EXPECT_EQ(find_option("No Such"), nullptr);
  EXPECT_EQ(option_line(*find_option("bookfile")),
            "option name BookFile type string default <empty>");
}

TEST(UciText, StringOptionTakesTheTextAndEmptyMeansUnset) {
  const OptionSpec& file = *find_option("BookFile");
  EXPECT_EQ(check_option_value(file, "/books/my book.bin").text, "/books/my book.bin");
  EXPECT_EQ(check_option_value(file, "<empty>").text, "");
  EXPECT_EQ(check_option_value(file, std::nullopt).text, "");
  EXPECT_TRUE(check_option_value(file, std::nullopt).error.empty());
  const SetOption s = parse_setoption(split_words("setoption name BookFile value /a/b c.bin"));
  EXPECT_EQ(s.name, "BookFile");
  EXPECT_EQ(s.value, "/a/b c.bin");
}

TEST(UciText, SetoptionNameAndValue) {
  SetOption s = parse_setoption(split_words("setoption name Move  Overhead value 250"));
  EXPECT_EQ(s.name, "Move Overhead");
  EXPECT_EQ(s.value, "250");
  s = parse_setoption(split_words("setoption name Clear Hash"));
  EXPECT_EQ(s.name, "Clear Hash");
  EXPECT_FALSE(s.value.has_value());
  EXPECT_FALSE(parse_setoption(split_words("setoption Hash 3")).error.empty());

  const OptionSpec& hash = *find_option("hash");
  EXPECT_EQ(check_option_value(hash, "64").value, 64);
  EXPECT_FALSE(check_option_value(hash, "0").error.empty());  // below min: not clamped
  EXPECT_FALSE(check_option_value(hash, "64MB").error.empty());
  EXPECT_FALSE(check_option_value(hash, std::nullopt).error.empty());
  const OptionSpec& ponder = *find_option("ponder");
  EXPECT_EQ(check_option_value(ponder, "True").value, 1);
  EXPECT_FALSE(check_option_value(ponder, "1").error.empty());
}

TEST(UciText, InfoAndBestmoveFormatting) {
  const Position pos = Position::startpos();
  search::SearchInfo info;
  info.depth = 7;
  info.seldepth = 11;
  info.score = -25;
  info.bound = search::Bound::Upper;
  info.nodes = 12345;
  info.nps = 1000000;
  info.hashfull = 3;
  info.tbhits = 5;
  info.time_ms = 12;
  info.pv = {pos.parse_uci_move("e2e4"), Move::none(), pos.parse_uci_move("d2d4")};
  EXPECT_EQ(format_info(info, pos),
            "info depth 7 seldepth 11 multipv 1 score cp -25 upperbound nodes 12345 nps 1000000 "
            "hashfull 3 tbhits 5 time 12 pv e2e4");  // the PV stops at its first illegal move

  info.is_mate = true;
  info.mate_moves = -3;
  info.bound = search::Bound::Exact;
  info.pv.clear();
  EXPECT_EQ(format_info(info, pos),
            "info depth 7 seldepth 11 multipv 1 score mate -3 nodes 12345 nps 1000000 hashfull 3 "
            "tbhits 5 time 12");

  search::SearchInfo none;
  none.is_mate = true;
  EXPECT_EQ(format_info(none, pos), "info depth 0 score mate 0");
  none.is_mate = false;
  EXPECT_EQ(format_info(none, pos), "info depth 0 score cp 0");

  const Move e4 = pos.parse_uci_move("e2e4");
  Position after = pos;
  after.make_move(e4);
  const Move e5 = after.parse_uci_move("e7e5");
  EXPECT_EQ(format_bestmove(e4, e5, pos), "bestmove e2e4 ponder e7e5");
  EXPECT_EQ(format_bestmove(e4, Move::none(), pos), "bestmove e2e4");
  EXPECT_EQ(format_bestmove(e4, e4, pos), "bestmove e2e4");  // illegal ponder move dropped
  EXPECT_EQ(format_bestmove(Move::none(), Move::none(), pos), "bestmove 0000");
}

[[nodiscard]] std::string bench_summary(int depth) {
  std::ostringstream out;
  EXPECT_EQ(run_bench(depth, out), 0);
  const std::string text = out.str();
  // The last two lines, which OpenBench parses from the bottom.
  const std::size_t nodes_at = text.rfind("Nodes searched: ");
  EXPECT_NE(nodes_at, std::string::npos);
  return nodes_at == std::string::npos ? std::string() : text.substr(nodes_at);
}

TEST(UciText, BenchReportsTheEvaluationCacheHitRates) {
  std::ostringstream out;
  // The pawn table serves the hand-crafted evaluation; the network does not probe it.
  ASSERT_EQ(run_bench(3, out, BenchEvaluation{.use_network = false, .eval_file = {}}), 0);
  const std::string text = out.str();
  const std::regex line(
      R"(Pawn table hits: (\d+\.\d)% of (\d+) probes\nMaterial table hits: (\d+\.\d)% of (\d+) probes\n)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, line)) << text;
  EXPECT_GT(std::stoull(m[2]), 1000u);
  EXPECT_GT(std::stod(m[1]), 50.0);  // searches revisit pawn structures all the time
  EXPECT_GT(std::stod(m[3]), 50.0);
  EXPECT_LE(std::stod(m[3]), 100.0);
}

TEST(UciText, BenchNodeCountIsDeterministic) {
  const std::string first = bench_summary(3);
  const std::string second = bench_summary(3);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first.substr(0, first.find('\n')), second.substr(0, second.find('\n')));
  // Exactly two lines from "Nodes searched" to the end, the last one the nps.
  EXPECT_EQ(std::count(first.begin(), first.end(), '\n'), 2);
  EXPECT_NE(first.find("\nNodes/second: "), std::string::npos);
}

}  // namespace
}  // namespace tessera::uci
