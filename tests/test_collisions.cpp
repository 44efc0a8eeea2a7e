// Forced hash collisions: with the table's keys folded onto a few bits, nearly every probe
// finds another position's entry. Searches over the bench positions, with one and with several
// threads, must still report only legal best moves, ponder moves and principal variations.
#include <gtest/gtest.h>

#include <string>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/engine.h"
#include "engine_recorder.h"
#include "uci/bench_positions.h"

namespace tessera {
namespace {

using engine::Engine;
using search::SearchInfo;
using search::SearchLimits;
using testing::Recorder;
using uci::kBenchPositions;

// The first illegal move of `pv` played from `root`, described, or "".
std::string illegal_in_line(const Position& root, const std::vector<Move>& pv) {
  Position pos = root;
  for (const Move m : pv) {
    if (!pos.is_legal_move(m)) return "illegal PV move " + std::to_string(m.raw());
    pos.make_move(m);
  }
  return {};
}

struct Tally {
  int searches = 0, infos = 0, pv_moves = 0, failures = 0;
};

void search_all(int key_bits, int threads, std::uint64_t nodes, Tally& tally) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_hash_mb(1), "");
  ASSERT_EQ(engine.set_threads(threads), "");
  ASSERT_EQ(engine.set_hash_key_bits(key_bits), "");
  for (const std::string_view fen : kBenchPositions) {
    ASSERT_EQ(engine.set_position(std::string(fen), {}), "") << fen;
    const Position root = engine.position();
    {
      std::lock_guard lock(rec.mutex);
      rec.infos.clear();
      rec.bestmoves.clear();
    }
    SearchLimits limits;
    limits.nodes = nodes;
    engine.go(limits);
    engine.wait();
    std::lock_guard lock(rec.mutex);
    ++tally.searches;
    ASSERT_EQ(rec.bestmoves.size(), 1u) << fen;
    const auto [best, ponder] = rec.bestmoves[0];
    std::string problem;
    if (MoveList<GenType::All>(root).empty()) {  // mated or stalemated: `bestmove 0000`
      if (!best.is_none()) problem = "a best move in a position without moves";
    } else {
      std::vector<Move> line{best};
      if (!ponder.is_none()) line.push_back(ponder);
      problem = illegal_in_line(root, line);
    }
    for (const SearchInfo& info : rec.infos) {
      ++tally.infos;
      tally.pv_moves += int(info.pv.size());
      if (problem.empty()) problem = illegal_in_line(root, info.pv);
    }
    if (!problem.empty() && ++tally.failures <= 5)
      ADD_FAILURE() << problem << " with " << key_bits << "-bit keys, " << threads
                    << " threads, in " << fen;
  }
}

TEST(Collisions, FoldedKeysNeverYieldIllegalMovesSingleThread) {
  Tally tally;
  search_all(8, 1, 20000, tally);
  search_all(3, 1, 20000, tally);
  EXPECT_EQ(tally.failures, 0);
  EXPECT_EQ(tally.searches, 100);
  EXPECT_GT(tally.pv_moves, 1000);  // the lines really were checked
}

TEST(Collisions, FoldedKeysNeverYieldIllegalMovesWithThreads) {
  Tally tally;
  search_all(6, 3, 30000, tally);
  EXPECT_EQ(tally.failures, 0);
  EXPECT_EQ(tally.searches, 50);
  EXPECT_GT(tally.pv_moves, 500);
}

TEST(Collisions, KeyBitsOutsideTheRangeAreRefused) {
  Recorder rec;
  Engine engine(rec.callbacks());
  EXPECT_NE(engine.set_hash_key_bits(-1), "");
  EXPECT_NE(engine.set_hash_key_bits(17), "");
  EXPECT_EQ(engine.set_hash_key_bits(0), "");
}

}  // namespace
}  // namespace tessera
