// Syzygy tablebases: loading and refusing paths, Fathom's probes against known results, the
// search converting won endings and holding drawn ones, tbhits in the reports and over UCI.
//
// The tables are the 3-piece KQvK, KRvK and KPvK in tests/data/syzygy (about 25 KB). Built
// without Fathom, only the "not built" behaviour is checked and the rest is skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/engine.h"
#include "engine_recorder.h"
#include "search/score.h"
#include "search/tablebase.h"
#include "uci/uci.h"

namespace tessera {
namespace {

using engine::Engine;
using search::Bound;
using search::SearchInfo;
using search::SearchLimits;
using search::Tablebases;
using search::Wdl;
using testing::Recorder;

const std::string kTables = TESSERA_SOURCE_DIR "/tests/data/syzygy";

// KQvK and KRvK, far from mate, white to move.
constexpr const char* kQueenWins = "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1";
constexpr const char* kRookWins = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
// The pawn cannot advance and the black king keeps the opposition: a draw.
constexpr const char* kPawnDraws = "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1";
// The white king on the sixth rank in front of its pawn: a win whoever moves.
constexpr const char* kPawnWins = "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1";
// Four pieces, so not in the tables, but every capture leads into them.
constexpr const char* kCapturesIntoTables = "8/8/8/8/8/2k5/3r4/3QK3 w - - 0 1";

#define REQUIRE_SYZYGY() \
  if (!Tablebases::supported()) GTEST_SKIP() << "built without Fathom (TESSERA_SYZYGY=OFF)"

Position from_fen(const std::string& fen) {
  std::string error;
  auto pos = Position::from_fen(fen, false, error);
  if (!pos) throw std::runtime_error(error);
  return *pos;
}

SearchLimits depth_limit(int depth) {
  SearchLimits l;
  l.depth = depth;
  return l;
}

[[nodiscard]] bool is_checkmate(const Position& pos) {
  return pos.in_check() && !has_legal_move(pos);
}

// Tessera against itself from `fen`, each move a fixed-depth search of the game so far, until
// the game ends (no legal move, or a draw by rule) or `max_plies` have been played. With
// `referee`, every move of a side that the tables say wins must be one of the winning moves
// with the fewest plies to the next capture, pawn move or mate: the moves that convert.
Position play_out(Engine& engine, Recorder& rec, const std::string& fen, int depth, int max_plies,
                  const Tablebases* referee = nullptr) {
  Position pos = from_fen(fen);
  std::vector<std::string> moves;
  for (int ply = 0; ply < max_plies && has_legal_move(pos) && !pos.is_draw(0); ++ply) {
    EXPECT_EQ(engine.set_position(fen, moves), "");
    engine.search_sync(depth_limit(depth), search::Reports::All);
    if (rec.bestmoves.empty()) break;
    const Move best = rec.bestmoves.back().first;
    if (!pos.is_legal_move(best)) {
      ADD_FAILURE() << "illegal best move after " << moves.size() << " plies";
      break;
    }
    if (referee != nullptr) {
      const auto ranked = referee->probe_root(pos);
      EXPECT_TRUE(ranked.has_value()) << pos.fen();
      int fastest = INT_MAX;
      for (const auto& m : ranked.value_or(std::vector<search::TablebaseRootMove>{}))
        if (m.wdl == Wdl::Win) fastest = std::min(fastest, m.dtz);
      if (fastest != INT_MAX) {
        const auto chosen = std::find_if(ranked->begin(), ranked->end(),
                                         [&](const auto& m) { return m.move == best; });
        EXPECT_TRUE(chosen != ranked->end() && chosen->wdl == Wdl::Win && chosen->dtz == fastest)
            << pos.move_to_uci(best) << " in " << pos.fen() << " does not convert";
      }
    }
    moves.push_back(pos.move_to_uci(best));
    pos.make_move(best);
  }
  return pos;
}

// ----- Loading

TEST(Tablebase, LoadsTheTestTablesAndCountsThem) {
  REQUIRE_SYZYGY();
  Tablebases tb;
  ASSERT_EQ(tb.load(kTables), "");
  EXPECT_EQ(tb.files().wdl, 3);
  EXPECT_EQ(tb.files().dtz, 3);
  EXPECT_EQ(tb.max_pieces(), 3);
  // The same directory twice, as a list: the tables count once.
  const std::string twice = kTables + Tablebases::kPathSeparator + kTables;
  ASSERT_EQ(tb.load(twice), "");
  EXPECT_EQ(tb.files().wdl, 3);
  tb.unload();
  EXPECT_EQ(tb.max_pieces(), 0);
  EXPECT_FALSE(tb.probe_wdl(from_fen(kQueenWins)).has_value());
}

TEST(Tablebase, BadPathsAreRefusedAndLeaveNothingLoaded) {
  REQUIRE_SYZYGY();
  Tablebases tb;
  std::string error = tb.load("/nonexistent/syzygy");
  EXPECT_NE(error.find("not a directory"), std::string::npos) << error;
  EXPECT_EQ(tb.max_pieces(), 0);
  // One bad directory in a list spoils the list.
  ASSERT_EQ(tb.load(kTables), "");
  error = tb.load(kTables + Tablebases::kPathSeparator + "/nonexistent/syzygy");
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(tb.max_pieces(), 0);
  // A directory without tables.
  error = tb.load(TESSERA_SOURCE_DIR "/tests/data/book");
  EXPECT_NE(error.find("no Syzygy tables"), std::string::npos) << error;
  EXPECT_EQ(tb.max_pieces(), 0);
  EXPECT_EQ(tb.load("<empty>"), "");
  EXPECT_EQ(tb.load(""), "");
}

TEST(Tablebase, EngineReportsABadPathAndPlaysOn) {
  Recorder rec;
  Engine engine(rec.callbacks());
  const std::string error = engine.set_syzygy_path("/nonexistent/syzygy");
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(engine.syzygy_tables().max_pieces, 0);
  ASSERT_EQ(engine.set_position(kQueenWins, {}), "");
  engine.search_sync(depth_limit(4), search::Reports::All);
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  EXPECT_TRUE(engine.position().is_legal_move(rec.bestmoves[0].first));
  EXPECT_EQ(rec.infos.back().tbhits, 0u);
}

// ----- Probes: results known from theory, which a wrong square or colour mapping would break

TEST(Tablebase, WdlProbesMatchTheory) {
  REQUIRE_SYZYGY();
  Tablebases tb;
  ASSERT_EQ(tb.load(kTables), "");
  EXPECT_EQ(tb.probe_wdl(from_fen(kQueenWins)), Wdl::Win);
  EXPECT_EQ(tb.probe_wdl(from_fen(kRookWins)), Wdl::Win);
  EXPECT_EQ(tb.probe_wdl(from_fen("8/8/8/3k4/8/8/8/Q3K3 b - - 0 1")), Wdl::Loss);
  EXPECT_EQ(tb.probe_wdl(from_fen(kPawnDraws)), Wdl::Draw);
  EXPECT_EQ(tb.probe_wdl(from_fen(kPawnWins)), Wdl::Win);
  EXPECT_EQ(tb.probe_wdl(from_fen("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1")), Wdl::Loss);
  // The same endings with colours swapped (black has the pawn, moving down the board).
  EXPECT_EQ(tb.probe_wdl(from_fen("8/8/8/8/4p3/4k3/8/4K3 b - - 0 1")), Wdl::Win);
  EXPECT_EQ(tb.probe_wdl(from_fen("4k3/4p3/4K3/8/8/8/8/8 b - - 0 1")), Wdl::Draw);
  // A rook pawn with the defending king in the corner: a draw.
  EXPECT_EQ(tb.probe_wdl(from_fen("7k/8/8/6KP/8/8/8/8 w - - 0 1")), Wdl::Draw);
  // The queen en prise to the king: black takes it, a draw.
  EXPECT_EQ(tb.probe_wdl(from_fen("8/8/8/8/8/8/3kQ3/7K b - - 0 1")), Wdl::Draw);
  // Fathom answers only right after a capture or pawn move, and never with more pieces.
  EXPECT_FALSE(tb.probe_wdl(from_fen("8/8/8/3k4/8/8/8/Q3K3 w - - 1 1")).has_value());
  EXPECT_FALSE(tb.probe_wdl(from_fen(kCapturesIntoTables)).has_value());
}

TEST(Tablebase, RootProbeRanksEveryLegalMove) {
  REQUIRE_SYZYGY();
  Tablebases tb;
  ASSERT_EQ(tb.load(kTables), "");
  // Pawn moves and king moves: the pawn moves reset the fifty-move counter, so the position
  // after each can be checked with a WDL probe, which must agree (with the sign flipped).
  const Position pos = from_fen("8/8/4k3/8/8/3K4/4P3/8 w - - 0 1");
  const auto moves = tb.probe_root(pos);
  ASSERT_TRUE(moves.has_value());
  EXPECT_EQ(moves->size(), MoveList<GenType::All>(pos).size());
  int checked = 0;
  for (const auto& m : *moves) {
    const std::string uci = pos.move_to_uci(m.move);
    Position after = pos;
    after.make_move(m.move);
    if (after.rule50() == 0) {
      const std::optional<Wdl> reply = tb.probe_wdl(after);
      ASSERT_TRUE(reply.has_value()) << uci;
      EXPECT_EQ(int(m.wdl), -int(*reply)) << uci;
      ++checked;
    }
    if (m.wdl == Wdl::Win) {
      EXPECT_GT(m.dtz, 0) << uci;
    }
    if (m.wdl == Wdl::Draw) {
      EXPECT_EQ(m.dtz, 0) << uci;
    }
  }
  EXPECT_EQ(checked, 2);  // e2e3 and e2e4
  // Nothing in the tables for a position with castling rights or too many pieces.
  EXPECT_FALSE(tb.probe_root(from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")).has_value());
  EXPECT_FALSE(tb.probe_root(from_fen(kCapturesIntoTables)).has_value());
}

// ----- The search

class TablebaseConversion : public ::testing::TestWithParam<const char*> {};

// Against its own best defence (black searches with the tables too, so it resists longest),
// a won KQvK or KRvK must end in mate well within the fifty-move rule.
TEST_P(TablebaseConversion, WonEndingIsMatedWithinFortyMoves) {
  REQUIRE_SYZYGY();
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_syzygy_path(kTables), "");
  Tablebases referee;
  ASSERT_EQ(referee.load(kTables), "");
  // Depth 2: far too shallow for the search alone to find these mates.
  const Position end = play_out(engine, rec, GetParam(), 2, 80, &referee);
  EXPECT_TRUE(is_checkmate(end)) << "final position " << end.fen();
  EXPECT_EQ(end.side_to_move(), BLACK);
  EXPECT_LE(end.game_ply(), 79);
  EXPECT_GT(rec.infos.back().tbhits, 0u);  // the root probe counts
}

// Without tables the same endings are left to the search alone, which may or may not find the
// mate in time (a repetition ends the game early): it must at least keep its piece and report
// a winning score at every move.
TEST_P(TablebaseConversion, WithoutTablesTheSearchKeepsItsWinningMaterial) {
  Recorder rec;
  Engine engine(rec.callbacks());
  const Position end = play_out(engine, rec, GetParam(), 6, 80);
  EXPECT_TRUE(is_checkmate(end) || popcount(end.pieces()) == 3) << end.fen();
  ASSERT_FALSE(rec.infos.empty());
  for (const SearchInfo& info : rec.infos) {
    EXPECT_EQ(info.tbhits, 0u);
    // Scores are from the side to move: white's are positive, black's negative.
    EXPECT_GT(std::abs(info.score), 300);
  }
}

INSTANTIATE_TEST_SUITE_P(Endings, TablebaseConversion, ::testing::Values(kQueenWins, kRookWins));

TEST(Tablebase, DrawnPawnEndingScoresExactlyZeroAndHoldsTheDraw) {
  REQUIRE_SYZYGY();
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_syzygy_path(kTables), "");
  ASSERT_EQ(engine.set_position(kPawnDraws, {}), "");
  engine.search_sync(depth_limit(10), search::Reports::All);
  ASSERT_FALSE(rec.infos.empty());
  for (const SearchInfo& info : rec.infos) {
    EXPECT_FALSE(info.is_mate);
    EXPECT_EQ(info.score, 0);
    EXPECT_EQ(info.bound, Bound::Exact);
  }

  // Black to move with a choice: the king must stay in front of the pawn. Whatever it plays,
  // the position after it must still be a draw.
  Tablebases tb;
  ASSERT_EQ(tb.load(kTables), "");
  const std::string black_fen = "8/8/4k3/8/8/4K3/4P3/8 b - - 0 1";
  const Position black = from_fen(black_fen);
  const auto ranked = tb.probe_root(black);
  ASSERT_TRUE(ranked.has_value());
  const auto losing = std::count_if(ranked->begin(), ranked->end(),
                                    [](const auto& m) { return m.wdl == Wdl::Loss; });
  const auto drawing = std::count_if(ranked->begin(), ranked->end(),
                                     [](const auto& m) { return m.wdl == Wdl::Draw; });
  ASSERT_GT(losing, 0) << "the test position must offer black a losing move";
  ASSERT_GT(drawing, 0);
  ASSERT_EQ(engine.set_position(black_fen, {}), "");
  rec.infos.clear();
  engine.search_sync(depth_limit(10), search::Reports::All);
  const Move best = rec.bestmoves.back().first;
  const auto chosen =
      std::find_if(ranked->begin(), ranked->end(), [&](const auto& m) { return m.move == best; });
  ASSERT_NE(chosen, ranked->end());
  EXPECT_EQ(chosen->wdl, Wdl::Draw) << black.move_to_uci(best);
  EXPECT_EQ(rec.infos.back().score, 0);
}

TEST(Tablebase, WonPawnEndingScoresAsATablebaseWinAndPushesOn) {
  REQUIRE_SYZYGY();
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_syzygy_path(kTables), "");
  ASSERT_EQ(engine.set_position(kPawnWins, {}), "");
  engine.search_sync(depth_limit(10), search::Reports::All);
  ASSERT_FALSE(rec.infos.empty());
  const SearchInfo& last = rec.infos.back();
  EXPECT_TRUE(last.is_mate ? last.mate_moves > 0 : last.score >= search::kTbWinInMaxPly)
      << last.score;

  // The move played keeps the win.
  Tablebases tb;
  ASSERT_EQ(tb.load(kTables), "");
  const auto ranked = tb.probe_root(from_fen(kPawnWins));
  ASSERT_TRUE(ranked.has_value());
  const Move best = rec.bestmoves.back().first;
  const auto chosen =
      std::find_if(ranked->begin(), ranked->end(), [&](const auto& m) { return m.move == best; });
  ASSERT_NE(chosen, ranked->end());
  EXPECT_EQ(chosen->wdl, Wdl::Win);

  // Played out, the pawn promotes and the queen mates.
  rec.infos.clear();
  const Position end = play_out(engine, rec, kPawnWins, 6, 100);
  EXPECT_TRUE(is_checkmate(end)) << end.fen();
}

TEST(Tablebase, SearchCountsTbhitsWhereCapturesEnterTheTables) {
  REQUIRE_SYZYGY();
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_syzygy_path(kTables), "");
  ASSERT_EQ(engine.set_position(kCapturesIntoTables, {}), "");
  engine.search_sync(depth_limit(10), search::Reports::All);
  ASSERT_FALSE(rec.infos.empty());
  std::uint64_t previous = 0;
  for (const SearchInfo& info : rec.infos) {
    EXPECT_GE(info.tbhits, previous);  // a running total
    previous = info.tbhits;
  }
  EXPECT_GT(rec.infos.back().tbhits, 0u);
  EXPECT_LT(rec.infos.back().tbhits, rec.infos.back().nodes);
  // White wins the rook: Qxd2+ is no good (Kxd2), but the search sees the result exactly.
  EXPECT_TRUE(engine.position().is_legal_move(rec.bestmoves.back().first));

  // SyzygyProbeLimit 0 turns probing off.
  engine.set_syzygy_probe_limit(0);
  rec.infos.clear();
  engine.search_sync(depth_limit(10), search::Reports::All);
  EXPECT_EQ(rec.infos.back().tbhits, 0u);
}

// ----- UCI

[[nodiscard]] std::vector<std::string> run_uci(const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out;
  EXPECT_EQ(uci::run(in, out), 0);
  std::vector<std::string> lines;
  std::istringstream text(out.str());
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

[[nodiscard]] bool starts_with(const std::string& line, const std::string& prefix) {
  return line.rfind(prefix, 0) == 0;
}

TEST(Tablebase, UciOptionsLoadReportAndCountTbhits) {
  const std::vector<std::string> lines = run_uci(
      "uci\nsetoption name SyzygyPath value /nonexistent/syzygy\nsetoption name "
      "SyzygyPath value " +
      kTables + "\nposition fen " + kCapturesIntoTables + "\ngo depth 8\n");
  for (const char* option : {"option name SyzygyPath type string default <empty>",
                             "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
                             "option name Syzygy50MoveRule type check default true",
                             "option name SyzygyProbeLimit type spin default 7 min 0 max 7"})
    EXPECT_NE(std::find(lines.begin(), lines.end(), option), lines.end()) << option;

  std::vector<std::string> strings;
  std::vector<std::string> infos;
  for (const std::string& line : lines) {
    if (starts_with(line, "info string"))
      strings.push_back(line);
    else if (starts_with(line, "info "))
      infos.push_back(line);
  }
  if (!Tablebases::supported()) {
    ASSERT_EQ(strings.size(), 2u);
    EXPECT_EQ(strings[0], "info string Syzygy support not built");
    return;
  }
  ASSERT_EQ(strings.size(), 2u);
  EXPECT_TRUE(starts_with(strings[0], "info string error: Syzygy path")) << strings[0];
  EXPECT_EQ(strings[1], "info string Syzygy: found 3 WDL and 3 DTZ tables, up to 3 pieces");

  ASSERT_FALSE(infos.empty());
  long long last = -1;
  for (const std::string& line : infos) {
    const std::size_t at = line.find(" tbhits ");
    ASSERT_NE(at, std::string::npos) << line;
    last = std::stoll(line.substr(at + 8));
  }
  EXPECT_GT(last, 0) << infos.back();
  EXPECT_TRUE(starts_with(lines.back(), "bestmove ")) << lines.back();
}

}  // namespace
}  // namespace tessera
