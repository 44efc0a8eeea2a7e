// The make-move observer against the position itself: at every node of perft trees over the
// standard and Chess960 suites, the key the observer is told equals the child's key and comes
// before any piece event, and the piece events replayed on a copy of the parent's board give
// the child's board. Castling (both kinds), en passant, promotions and captures of every kind
// all occur in these trees; the counters below make sure they did.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "core/movegen.h"
#include "core/position.h"
#include "test_core_support.h"

namespace tessera {
namespace {

using Board = std::array<Piece, 64>;

Board board_of(const Position& pos) {
  Board b{};
  for (int s = 0; s < 64; ++s) b[s] = pos.piece_on(Square(s));
  return b;
}

// Replays the events on its own board, checking that each one is possible there (a piece is
// removed from where it stands, added to an empty square).
struct ReplayObserver : MoveObserver {
  Board board{};
  Key key = 0;
  int keys_told = 0;
  int events = 0;
  int events_before_key = 0;
  int impossible_events = 0;

  void key_known(Key k) {
    key = k;
    ++keys_told;
  }
  void note_event() {
    ++events;
    events_before_key += keys_told == 0;
  }
  void piece_removed(Piece p, Square s) {
    note_event();
    if (board[s.index()] != p) ++impossible_events;
    board[s.index()] = Piece::none();
  }
  void piece_added(Piece p, Square s) {
    note_event();
    if (!board[s.index()].is_none()) ++impossible_events;
    board[s.index()] = p;
  }
  void piece_moved(Piece p, Square from, Square to) {
    note_event();
    if (board[from.index()] != p || !board[to.index()].is_none()) ++impossible_events;
    board[from.index()] = Piece::none();
    board[to.index()] = p;
  }
};

struct WalkStats {
  std::uint64_t moves = 0;
  std::uint64_t castles = 0;
  std::uint64_t en_passants = 0;
  std::uint64_t promotions = 0;
  std::uint64_t captures = 0;
  int failures = 0;
};

void walk(Position& pos, int depth, WalkStats& stats) {
  if (depth == 0) return;
  for (const Move m : MoveList<GenType::All>(pos)) {
    ++stats.moves;
    stats.castles += m.kind() == MoveKind::Castling;
    stats.en_passants += m.kind() == MoveKind::EnPassant;
    stats.promotions += m.kind() == MoveKind::Promotion;
    stats.captures += pos.is_capture(m);
    const std::string parent = stats.failures < 5 ? pos.fen() : std::string();
    ReplayObserver observer;
    observer.board = board_of(pos);
    pos.make_move(m, observer);
    const bool ok = observer.keys_told == 1 && observer.key == pos.key() &&
                    observer.events_before_key == 0 && observer.impossible_events == 0 &&
                    observer.events > 0 && observer.board == board_of(pos);
    if (!ok && ++stats.failures <= 5) {
      pos.unmake_move(m);
      ADD_FAILURE() << "observer disagrees with the position after " << pos.move_to_uci(m) << " in "
                    << parent << ": keys told " << observer.keys_told << ", key "
                    << (observer.key == pos.key() ? "right" : "wrong") << ", events "
                    << observer.events << " (" << observer.impossible_events << " impossible, "
                    << observer.events_before_key << " before the key)";
      pos.make_move(m);
    }
    walk(pos, depth - 1, stats);
    pos.unmake_move(m);
  }
}

WalkStats walk_suite(const std::vector<test::EpdEntry>& entries, bool chess960, int depth) {
  WalkStats stats;
  for (const auto& e : entries) {
    Position pos = test::parse(e.fen, chess960);
    walk(pos, depth, stats);
  }
  return stats;
}

TEST(CoreMoveObserver, StandardSuiteTrees) {
  const std::size_t stride = test::suite_stride();
  const auto all = test::load_perft_epd("perft/standard.epd");
  WalkStats stats = walk_suite(test::stride_sample(all), false, 3);
  const WalkStats deeper = walk_suite(test::every_nth(all, 16 * stride), false, 4);
  stats.failures += deeper.failures;
  stats.moves += deeper.moves;
  EXPECT_EQ(stats.failures, 0);
  EXPECT_GT(stats.moves, 1'000'000u / stride);
  EXPECT_GT(stats.castles, 0u);
  EXPECT_GT(stats.en_passants, 0u);
  EXPECT_GT(stats.promotions, 0u);
  EXPECT_GT(stats.captures, 0u);
}

TEST(CoreMoveObserver, Chess960SuiteTrees) {
  const std::size_t stride = test::suite_stride();
  const auto all = test::load_perft_epd("perft/fischer.epd");
  WalkStats stats = walk_suite(test::stride_sample(all), true, 2);
  const WalkStats deeper = walk_suite(test::every_nth(all, 16 * stride), true, 3);
  stats.failures += deeper.failures;
  EXPECT_EQ(stats.failures, 0);
  EXPECT_GT(stats.moves + deeper.moves, 1'000'000u / stride);
  EXPECT_GT(stats.castles + deeper.castles, 0u);
  EXPECT_GT(stats.captures + deeper.captures, 0u);
}

// The event sequence for each kind of move, spelled out: what an evaluator will rely on.
TEST(CoreMoveObserver, EventsOfEachMoveKind) {
  struct Case {
    const char* fen;
    bool chess960;
    const char* move;
    int events;
  };
  const Case cases[] = {
      {"4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", false, "g1f3", 1},    // quiet: one move
      {"4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", false, "c3d5", 2},  // capture: remove, move
      {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false, "e5d6", 2},  // en passant
      {"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", false, "a7b8q", 3},  // capture-promotion
      {"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", false, "a7a8n", 2},    // promotion
      {"4k3/8/8/8/8/8/8/4K2R w K - 0 1", false, "e1g1", 4},     // castling
      {"4k3/8/8/8/8/8/8/5KR1 w G - 0 1", true, "f1g1", 4},      // 960: king onto rook
  };
  for (const Case& c : cases) {
    Position pos = test::parse(c.fen, c.chess960);
    ReplayObserver observer;
    observer.board = board_of(pos);
    pos.make_move(test::uci(pos, c.move), observer);
    EXPECT_EQ(observer.events, c.events) << c.fen << " " << c.move;
    EXPECT_EQ(observer.impossible_events, 0) << c.fen << " " << c.move;
    EXPECT_EQ(observer.board, board_of(pos)) << c.fen << " " << c.move;
    EXPECT_EQ(observer.key, pos.compute_key()) << c.fen << " " << c.move;
  }
}

}  // namespace
}  // namespace tessera
