// The Engine front: positions and moves, options, and the asynchronous go / stop / ponderhit
// protocol (one best move per search, never early under infinite or ponder, always legal).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/engine.h"
#include "engine_recorder.h"

namespace tessera::engine {
namespace {

using testing::Recorder;

TEST(Engine, SetPositionPlaysMovesAndStopsAtTheFirstIllegalOne) {
  Engine engine(EngineCallbacks{});
  EXPECT_EQ(engine.set_position("startpos", {"e2e4", "e7e5", "g1f3"}), "");
  EXPECT_EQ(engine.position().fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  const std::string error = engine.set_position("startpos", {"e2e4", "e7e5", "e1e3", "g1f3"});
  EXPECT_NE(error.find("e1e3"), std::string::npos) << error;
  // The moves before the illegal one were played, those after it were not.
  EXPECT_EQ(engine.position().fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
}

TEST(Engine, BadFenKeepsTheOldPosition) {
  Engine engine(EngineCallbacks{});
  ASSERT_EQ(engine.set_position("startpos", {"d2d4"}), "");
  const std::string before = engine.position().fen();
  EXPECT_NE(engine.set_position("this is not a fen", {}), "");
  EXPECT_EQ(engine.position().fen(), before);
}

TEST(Engine, Chess960CastlingIsKingTakesRook) {
  Engine engine(EngineCallbacks{});
  const std::string fen = "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1";
  // In standard notation the king cannot go to b1.
  EXPECT_NE(engine.set_position(fen, {"e1b1"}), "");
  engine.set_chess960(true);
  ASSERT_EQ(engine.set_position(fen, {"e1b1"}), "") << "O-O-O written as king takes rook";
  EXPECT_EQ(engine.position().piece_on(parse_square("c1")), Piece(WHITE, KING));
  EXPECT_EQ(engine.position().piece_on(parse_square("d1")), Piece(WHITE, ROOK));
  EXPECT_TRUE(engine.position().chess960());
}

TEST(Engine, OptionsAreValidated) {
  Engine engine(EngineCallbacks{});
  EXPECT_NE(engine.set_hash_mb(0), "");
  EXPECT_EQ(engine.set_hash_mb(4), "");
  EXPECT_NE(engine.set_threads(0), "");
  EXPECT_NE(engine.set_threads(100000), "");
  EXPECT_EQ(engine.set_threads(2), "");
  EXPECT_EQ(engine.set_threads(1), "");
}

TEST(Engine, InfiniteSearchReportsOnlyAfterStop) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position("startpos", {}), "");
  SearchLimits limits;
  limits.infinite = true;
  limits.depth = 3;  // finishes at once, but must still wait for stop
  engine.go(limits);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(rec.bestmove_count.load(), 0);
  EXPECT_TRUE(engine.searching());
  engine.stop();
  engine.wait();
  EXPECT_FALSE(engine.searching());
  ASSERT_EQ(rec.bestmove_count.load(), 1);
  EXPECT_TRUE(engine.position().is_legal_move(rec.bestmoves[0].first));
  engine.stop();  // stop while idle: ignored
  engine.wait();
  EXPECT_EQ(rec.bestmove_count.load(), 1);
}

TEST(Engine, InfiniteSearchAfterMateFoundStillWaits) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", {}), "");
  SearchLimits limits;
  limits.infinite = true;
  engine.go(limits);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(rec.bestmove_count.load(), 0);
  engine.stop();
  engine.wait();
  ASSERT_EQ(rec.bestmove_count.load(), 1);
  EXPECT_EQ(engine.position().move_to_uci(rec.bestmoves[0].first), "d1d8");
}

TEST(Engine, PonderWaitsForPonderhitThenPlays) {
  Recorder rec;
  Engine engine(rec.callbacks());
  engine.set_ponder(true);
  ASSERT_EQ(engine.set_position("startpos", {"e2e4"}), "");
  SearchLimits limits;
  limits.ponder = true;
  limits.time[WHITE] = 1000;
  limits.time[BLACK] = 1000;
  limits.depth = 4;
  engine.go(limits);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(rec.bestmove_count.load(), 0);
  engine.ponderhit();
  engine.wait();
  ASSERT_EQ(rec.bestmove_count.load(), 1);
  EXPECT_TRUE(engine.position().is_legal_move(rec.bestmoves[0].first));
}

TEST(Engine, StopDuringPonderGivesOneBestMove) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position("startpos", {}), "");
  SearchLimits limits;
  limits.ponder = true;
  limits.time[WHITE] = 60000;
  limits.time[BLACK] = 60000;
  engine.go(limits);
  engine.stop();
  engine.wait();
  EXPECT_EQ(rec.bestmove_count.load(), 1);
  EXPECT_TRUE(engine.position().is_legal_move(rec.bestmoves[0].first));
}

// Tiny, zero and negative clocks: the search must still come back with a legal move.
TEST(Engine, TinyClocksStillGiveALegalMove) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", {}),
            "");
  const std::int64_t clocks[] = {100, 1, 0, -50};
  for (const std::int64_t t : clocks) {
    SearchLimits limits;
    limits.time[WHITE] = t;  // as in `go wtime t` with no btime
    engine.go(limits);
    engine.wait();
  }
  SearchLimits movetime;
  movetime.movetime = 1;
  engine.go(movetime);
  engine.wait();
  ASSERT_EQ(rec.bestmove_count.load(), 5);
  for (const auto& [best, ponder] : rec.bestmoves)
    EXPECT_TRUE(engine.position().is_legal_move(best));
}

TEST(Engine, EveryInfoPvIsLegalAndStartsWithTheReportedMove) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position("startpos", {"d2d4", "g8f6", "c2c4"}), "");
  SearchLimits limits;
  limits.depth = 7;
  engine.go(limits);
  engine.wait();
  ASSERT_EQ(rec.bestmove_count.load(), 1);
  ASSERT_FALSE(rec.infos.empty());
  EXPECT_EQ(rec.infos.back().pv.front(), rec.bestmoves[0].first);
  for (const SearchInfo& info : rec.infos) {
    EXPECT_GE(info.depth, 1);
    EXPECT_GE(info.seldepth, info.depth);
    EXPECT_GE(info.hashfull, 0);
    EXPECT_LE(info.hashfull, 1000);
    Position pos = engine.position();
    for (const Move m : info.pv) {
      ASSERT_TRUE(pos.is_legal_move(m));
      pos.make_move(m);
    }
  }
}

TEST(Engine, SeveralThreadsSearchAndAgreeOnALegalMove) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_threads(4), "");
  ASSERT_EQ(engine.set_position(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", {}),
            "");
  SearchLimits limits;
  limits.depth = 8;
  engine.go(limits);
  engine.wait();
  ASSERT_EQ(rec.bestmove_count.load(), 1);
  EXPECT_TRUE(engine.position().is_legal_move(rec.bestmoves[0].first));
  // A second search reuses the threads and the table.
  engine.go(limits);
  engine.stop();
  engine.wait();
  EXPECT_EQ(rec.bestmove_count.load(), 2);
}

// The ThreadSanitizer run's main course: four threads on one shared table for a few seconds,
// across a hash resize and a new game, each search ending in one legal best move.
TEST(Engine, FourThreadsShareTheTableForSeconds) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_threads(4), "");
  ASSERT_EQ(engine.set_hash_mb(4), "");
  const char* fens[] = {"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"};
  int searches = 0;
  for (const char* fen : fens) {
    ASSERT_EQ(engine.set_position(fen, {}), "");
    SearchLimits limits;
    limits.movetime = 1500;
    engine.go(limits);
    engine.wait();
    ++searches;
    ASSERT_EQ(rec.bestmove_count.load(), searches);
    EXPECT_TRUE(engine.position().is_legal_move(rec.bestmoves.back().first)) << fen;
    ASSERT_EQ(engine.set_hash_mb(8), "");
    engine.new_game();
  }
  std::lock_guard lock(rec.mutex);
  ASSERT_FALSE(rec.infos.empty());
  EXPECT_GT(rec.infos.back().nodes, 1000u);
}

TEST(Engine, NewGameAndSearchSyncAreQuiet) {
  Recorder rec;
  Engine engine(rec.callbacks());
  engine.new_game();
  ASSERT_EQ(engine.set_position("startpos", {}), "");
  SearchLimits limits;
  limits.depth = 5;
  EXPECT_GT(engine.search_sync(limits), 0u);
  EXPECT_EQ(rec.bestmove_count.load(), 0);
  EXPECT_TRUE(rec.infos.empty());
}

}  // namespace
}  // namespace tessera::engine
