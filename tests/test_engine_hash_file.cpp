// The hash file through the Engine: a table saved after analysing a few positions makes the
// same analyses in a fresh Engine much cheaper, Never Clear Hash keeps the table over new_game, a
// search in progress refuses saving and loading, and a refused load changes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/engine.h"
#include "engine_recorder.h"
#include "eval/evaluate.h"
#include "eval/nnue/network.h"
#include "search/tt.h"
#include "search/tt_file.h"
#include "temp_dir.h"

namespace tessera::engine {
namespace {

using test::TempDir;
using testing::Recorder;

// The Ruy Lopez after 3...a6, an opening analysed for more than a century.
constexpr const char* kRuyLopez =
    "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4";
// A middlegame with many plausible moves.
constexpr const char* kMiddlegame =
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8";
// The depth of the analyses. One depth's saving is still partly a property of the trees' shapes:
// at depths 12-16 the ratio of nodes after loading to nodes fresh swung between 0.39 and 0.79 as
// the search changed; at 16 the median over the five positions was 0.45 when the positions were
// last chosen (one of them 1.96), and 0.84 at bench 4513616 (two of them 2.31 and 1.43) where
// depths 15 and 17 gave 0.47 and 0.48. So the main test judges three depths together.
constexpr int kDepth = 16;
constexpr std::array<int, 3> kDepthsJudgedTogether = {kDepth - 1, kDepth, kDepth + 1};

struct Analysis {
  std::uint64_t nodes = 0;
  int depth = 0;  // of the last report
  Move best = Move::none();
};

// A one-thread search to `depth` of `fen` in `engine`, which reports to `rec`.
Analysis analyse(Engine& engine, Recorder& rec, const char* fen = kRuyLopez, int depth = kDepth) {
  EXPECT_EQ(engine.set_position(fen, {}), "");
  SearchLimits limits;
  limits.depth = depth;
  Analysis a;
  a.nodes = engine.search_sync(limits, search::Reports::All);
  std::lock_guard lock(rec.mutex);
  EXPECT_FALSE(rec.infos.empty());
  EXPECT_FALSE(rec.bestmoves.empty());
  if (!rec.infos.empty()) a.depth = rec.infos.back().depth;
  if (!rec.bestmoves.empty()) a.best = rec.bestmoves.back().first;
  return a;
}

// Positions analysed one after another into one table. One search's node count swings with
// where it changes its mind (a table that knows more can move a balanced choice to the other
// side at the last depth and pay for the new move's proof), so the cost is judged over several.
constexpr std::array<const char*, 5> kAnalysedPositions = {
    kRuyLopez, kMiddlegame, "8/pp3k2/2p1rp2/4p3/1PP1P3/P2R1P2/5K2/8 w - - 0 35",
    "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 0 8",
    "2r3k1/5pp1/p3p2p/1p1r4/3P4/P3RP2/1P3KPP/2R5 w - - 0 30"};

// Analyses every position of kAnalysedPositions in `engine`; the nodes of each, each reaching
// `depth`.
std::vector<std::uint64_t> analyse_each(Engine& engine, Recorder& rec, int depth = kDepth) {
  std::vector<std::uint64_t> nodes;
  for (const char* fen : kAnalysedPositions) {
    const Analysis a = analyse(engine, rec, fen, depth);
    EXPECT_EQ(a.depth, depth) << fen;
    EXPECT_TRUE(a.best) << fen;
    nodes.push_back(a.nodes);
  }
  return nodes;
}

std::uint64_t analyse_all(Engine& engine, Recorder& rec) {
  const std::vector<std::uint64_t> nodes = analyse_each(engine, rec);
  return std::accumulate(nodes.begin(), nodes.end(), std::uint64_t{0});
}

// The ratios of nodes `after` / nodes `before`, position by position, each pair printed after
// `label` and the depth.
std::vector<double> node_ratios(const std::vector<std::uint64_t>& after,
                                const std::vector<std::uint64_t>& before, const std::string& label,
                                int depth) {
  std::vector<double> ratios;
  std::cout << "[ measured ] depth " << depth << ", " << label << ':';
  for (std::size_t i = 0; i < after.size(); ++i) {
    ratios.push_back(double(after[i]) / double(before[i]));
    std::cout << ' ' << after[i] << '/' << before[i];
  }
  std::cout << '\n';
  return ratios;
}

// The median of `ratios`, printed. One position's ratio can stray (see kAnalysedPositions); the
// median of five cannot by itself.
double median_of(std::vector<double> ratios) {
  std::sort(ratios.begin(), ratios.end());
  const double median = ratios[ratios.size() / 2];
  std::cout << "[ measured ] median ratio " << median << " over " << ratios.size() << '\n';
  return median;
}

double median_ratio(const std::vector<std::uint64_t>& after,
                    const std::vector<std::uint64_t>& before, const std::string& label) {
  return median_of(node_ratios(after, before, label, kDepth));
}

// The positions analysed to `depth` in a fresh engine, its table saved, then analysed again in
// another fresh engine that loaded it: the ratios of the second analysis's nodes to the first's.
std::vector<double> ratios_after_reloading(int depth, const TempDir& dir) {
  std::vector<std::uint64_t> first;
  const std::string file = dir.file("analysis-" + std::to_string(depth) + ".hash");
  {
    Recorder rec;
    Engine engine(rec.callbacks());
    EXPECT_EQ(engine.set_hash_mb(16), "");
    first = analyse_each(engine, rec, depth);
    engine.set_hash_file(file);
    const HashFileResult saved = engine.save_hash_file();
    EXPECT_EQ(saved.error, "");
    EXPECT_GT(saved.entries, 1000u);
  }
  Recorder rec;
  Engine engine(rec.callbacks());  // a fresh engine, as after a restart
  EXPECT_EQ(engine.set_hash_mb(16), "");
  engine.set_hash_file(file);
  const HashFileResult loaded = engine.load_hash_file();
  EXPECT_EQ(loaded.error, "");
  EXPECT_FALSE(loaded.rehashed);
  const std::vector<std::uint64_t> second = analyse_each(engine, rec, depth);
  return node_ratios(second, first, "after loading the saved table / fresh", depth);
}

TEST(EngineHashFile, ALoadedTableMakesTheSameAnalysisMuchCheaper) {
  TempDir dir;
  std::vector<double> ratios;
  for (int depth : kDepthsJudgedTogether) {
    const std::vector<double> at_depth = ratios_after_reloading(depth, dir);
    ratios.insert(ratios.end(), at_depth.begin(), at_depth.end());
  }
  EXPECT_LT(median_of(ratios), 0.75);  // at least a quarter fewer in most analyses
}

TEST(EngineHashFile, ATableOfAnotherSizeIsRehashedAndStillHelps) {
  TempDir dir;
  std::uint64_t first = 0;
  {
    Recorder rec;
    Engine engine(rec.callbacks());
    ASSERT_EQ(engine.set_hash_mb(16), "");
    first = analyse_all(engine, rec);
    engine.set_hash_file(dir.file("analysis.hash"));
    ASSERT_EQ(engine.save_hash_file().error, "");
  }
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_hash_mb(8), "");
  engine.set_hash_file(dir.file("analysis.hash"));
  const HashFileResult loaded = engine.load_hash_file();
  ASSERT_EQ(loaded.error, "");
  EXPECT_TRUE(loaded.rehashed);
  EXPECT_EQ(loaded.file_mb, 16u);
  const std::vector<std::uint64_t> second = analyse_each(engine, rec);
  // The yardstick is a fresh analysis in a table of the loaded size: what the half-size
  // table gives up by itself is not the rehash's doing.
  Recorder fresh_rec;
  Engine fresh(fresh_rec.callbacks());
  ASSERT_EQ(fresh.set_hash_mb(8), "");
  const std::vector<std::uint64_t> fresh_small = analyse_each(fresh, fresh_rec);
  // Half the saved entries find no room, so the saving is smaller than at the same size, and
  // one position's cost can even grow where the loaded knowledge moves a balanced choice (at
  // depths 14-18 single ratios reached 2.4 while the median stayed at 0.84 or below). The
  // median ratio is judged: a rehash that put the entries where no probe finds them leaves every
  // ratio near 1.
  const double median = median_ratio(second, fresh_small,
                                     std::to_string(first) +
                                         " nodes fresh (16 MB); after loading into 8 MB / "
                                         "fresh in 8 MB");
  EXPECT_LT(median, 0.9);  // at least a tenth fewer in most positions
}

TEST(EngineHashFile, NeverClearHashKeepsTheTableOverANewGame) {
  TempDir dir;
  Recorder rec;
  Engine engine(rec.callbacks());
  engine.set_hash_file(dir.file("t.hash"));
  (void)analyse(engine, rec);
  engine.set_never_clear_hash(true);
  engine.new_game();
  const HashFileResult kept = engine.save_hash_file();
  ASSERT_EQ(kept.error, "");
  EXPECT_GT(kept.entries, 1000u);

  engine.set_never_clear_hash(false);
  engine.new_game();
  const HashFileResult cleared = engine.save_hash_file();
  ASSERT_EQ(cleared.error, "");
  EXPECT_EQ(cleared.entries, 0u);
}

TEST(EngineHashFile, SavingAndLoadingAreRefusedWhileASearchRuns) {
  TempDir dir;
  Recorder rec;
  Engine engine(rec.callbacks());
  engine.set_hash_file(dir.file("t.hash"));
  ASSERT_EQ(engine.set_position(kMiddlegame, {}), "");
  SearchLimits limits;
  limits.infinite = true;
  engine.go(limits);
  EXPECT_NE(engine.save_hash_file().error.find("while a search runs"), std::string::npos);
  EXPECT_NE(engine.load_hash_file().error.find("while a search runs"), std::string::npos);
  EXPECT_TRUE(engine.searching());  // refused, not waited for
  EXPECT_FALSE(std::filesystem::exists(dir.file("t.hash")));
  engine.stop();
  engine.wait();
  EXPECT_EQ(rec.bestmove_count.load(), 1);
  // Once the search has reported, both work.
  EXPECT_EQ(engine.save_hash_file().error, "");
  EXPECT_EQ(engine.load_hash_file().error, "");
}

TEST(EngineHashFile, ARefusedLoadKeepsTheTableAndHashStillResizes) {
  TempDir dir;
  Recorder rec;
  Engine engine(rec.callbacks());
  EXPECT_NE(engine.save_hash_file().error.find("HashFile"), std::string::npos);  // no name yet
  (void)analyse(engine, rec);
  engine.set_hash_file(dir.file("before.hash"));
  const HashFileResult before = engine.save_hash_file();
  ASSERT_EQ(before.error, "");

  { std::ofstream(dir.file("bad.hash")) << "not a table"; }
  engine.set_hash_file(dir.file("bad.hash"));
  EXPECT_NE(engine.load_hash_file().error.find("not a Tessera hash file"), std::string::npos);
  engine.set_hash_file(dir.file("missing.hash"));
  EXPECT_NE(engine.load_hash_file().error, "");
  engine.set_hash_file(dir.file("after.hash"));
  const HashFileResult after = engine.save_hash_file();
  ASSERT_EQ(after.error, "");
  EXPECT_EQ(after.entries, before.entries);

  EXPECT_EQ(engine.set_hash_mb(4), "");
  EXPECT_EQ(engine.save_hash_file().entries, 0u);  // a resize empties the table
  engine.set_hash_file(dir.file("before.hash"));
  const HashFileResult reloaded = engine.load_hash_file();
  ASSERT_EQ(reloaded.error, "");
  EXPECT_TRUE(reloaded.rehashed);
  EXPECT_EQ(reloaded.entries, before.entries);
}

// The table keeps the evaluator's own verdict on each position it evaluated (before fifty-move
// scaling and corrections), so that a later visit need not evaluate again, and it names the
// evaluator, so that another one does not take these verdicts for its own.
TEST(EngineHashFile, TheTableKeepsTheEvaluatorsVerdictAndNamesTheEvaluator) {
  TempDir dir;
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_hash_mb(1), "");
  engine.set_use_network(false);
  ASSERT_EQ(engine.set_position("startpos", {}), "");
  SearchLimits limits;
  limits.depth = 7;
  (void)engine.search_sync(limits, search::Reports::All);
  engine.set_hash_file(dir.file("hce.hash"));
  ASSERT_EQ(engine.save_hash_file().error, "");

  search::TranspositionTable tt;
  ASSERT_EQ(tt.resize(1), "");
  ASSERT_EQ(search::load_tt_file(tt, dir.file("hce.hash")).error, "");
  EXPECT_EQ(tt.evaluator(), eval::nnue::kHandCraftedFingerprint);
  const Position start = Position::startpos();
  int evaluated = 0;
  for (const Move m : MoveList(start)) {
    Position child = start;
    child.make_move(m);
    const search::TTProbe p = tt.probe(child.key());
    if (!p.hit || p.data.eval == search::kNone) continue;
    ++evaluated;
    EXPECT_EQ(p.data.eval, eval::evaluate(child)) << child.fen();
  }
  EXPECT_GE(evaluated, 15);  // nearly every reply to the first move was evaluated

  // The network names itself by its fingerprint.
  engine.set_use_network(true);
  if (!engine.network_in_use()) GTEST_SKIP() << "this build has no usable network";
  (void)engine.search_sync(limits, search::Reports::All);
  ASSERT_EQ(engine.save_hash_file().error, "");
  ASSERT_EQ(search::load_tt_file(tt, dir.file("hce.hash")).error, "");
  EXPECT_NE(tt.evaluator(), eval::nnue::kHandCraftedFingerprint);
  EXPECT_NE(tt.evaluator(), 0u);
}

}  // namespace
}  // namespace tessera::engine
