// The staged move picker against the move generator, over positions from the perft suites and
// random games: the main search emits every legal move exactly once whatever table, killer and
// counter moves it is handed (legal, illegal, foreign, repeated or none), the table move first
// when it is legal and never when it is not; with quiets skipped no quiet move but the table
// move and the quiet checks appears and no capture is lost; quiescence emits exactly the noisy
// moves (every evasion in check); ProbCut emits only noisy moves that reach its threshold.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "search/movepick.h"
#include "search/tunables.h"
#include "test_core_support.h"

namespace tessera::search {
namespace {

// Positions of every kind: the suites' start positions and a few random plies from each.
std::vector<Position> sample_positions() {
  std::vector<Position> out;
  std::mt19937 rng(20261201);
  const auto add_walks = [&](const std::vector<test::EpdEntry>& entries, bool chess960) {
    for (const auto& e : entries) {
      Position pos = test::parse(e.fen, chess960);
      out.push_back(pos);
      for (int ply = 0; ply < 12; ++ply) {
        const MoveList<GenType::All> moves(pos);
        if (moves.size() == 0) break;
        pos.make_move(moves.begin()[rng() % moves.size()]);
        if (ply % 3 == 2) out.push_back(pos);
      }
    }
  };
  add_walks(test::load_perft_epd("perft/standard.epd"), false);
  add_walks(test::every_nth(test::load_perft_epd("perft/fischer.epd"), 8), true);
  return out;
}

const std::vector<Position>& positions() {
  static const std::vector<Position> all = sample_positions();
  return all;
}

// Any 16-bit value can come out of a colliding table entry.
Move random_move(std::mt19937& rng) { return Move(std::uint16_t(rng())); }

struct Fixture {
  std::unique_ptr<Histories> histories = std::make_unique<Histories>();
  OrderingContext ctx;
  Fixture() {
    histories->clear();
    ctx.histories = histories.get();
    ctx.continuation = {&histories->sentinel, &histories->sentinel, &histories->sentinel};
  }
};

std::map<std::uint16_t, int> drain(MovePicker& picker, bool skip_quiets,
                                   std::vector<Move>* order = nullptr) {
  std::map<std::uint16_t, int> seen;
  while (const Move m = picker.next(skip_quiets)) {
    ++seen[m.raw()];
    if (order) order->push_back(m);
  }
  return seen;
}

template <GenType T>
std::map<std::uint16_t, int> generated(const Position& pos) {
  std::map<std::uint16_t, int> out;
  for (const Move m : MoveList<T>(pos)) ++out[m.raw()];
  return out;
}

TEST(MovePicker, MainSearchEmitsEveryLegalMoveOnceWhateverItIsHanded) {
  Fixture f;
  std::mt19937 rng(7);
  int legal_table_moves = 0, illegal_table_moves = 0, legal_refutations = 0;
  for (const Position& pos : positions()) {
    const MoveList<GenType::All> legal(pos);
    const auto expected = generated<GenType::All>(pos);
    for (int trial = 0; trial < 6; ++trial) {
      Move table = Move::none();
      if (trial % 3 == 0 && legal.size()) table = legal.begin()[rng() % legal.size()];
      if (trial % 3 == 1) table = random_move(rng);
      std::array<Move, 2> killers{random_move(rng), random_move(rng)};
      Move counter = random_move(rng);
      if (trial >= 3 && legal.size()) {  // real quiet-or-not moves of this position, repeated
        killers = {legal.begin()[rng() % legal.size()], legal.begin()[rng() % legal.size()]};
        counter = killers[trial % 2];
        legal_refutations += pos.is_legal_move(killers[0]);
      }
      const bool table_legal = table && pos.is_legal_move(table);
      legal_table_moves += table_legal;
      illegal_table_moves += table && !table_legal;

      MovePicker picker =
          MovePicker::main_search(pos, CheckedMove::verify(pos, table), f.ctx, killers, counter);
      std::vector<Move> order;
      EXPECT_EQ(drain(picker, false, &order), expected) << pos.fen();
      if (table_legal) {
        ASSERT_FALSE(order.empty());
        EXPECT_EQ(order.front(), table) << pos.fen();
      }
    }
  }
  EXPECT_GT(legal_table_moves, 100);
  EXPECT_GT(illegal_table_moves, 100);
  EXPECT_GT(legal_refutations, 100);
}

// Whether the picker tests for check itself or with the check squares the search hands it.
TEST(MovePicker, SkippingQuietsKeepsCapturesChecksAndTheTableMoveOnly) {
  for (const bool handed : {false, true}) {
    Fixture f;
    std::mt19937 rng(11);
    for (const Position& pos : positions()) {
      const MoveList<GenType::All> legal(pos);
      const Move table = legal.size() ? legal.begin()[rng() % legal.size()] : Move::none();
      const std::array<Move, 2> killers{Move::none(), Move::none()};
      const CheckInfo check_info = pos.check_info();
      f.ctx.check_info = handed ? &check_info : nullptr;
      MovePicker picker = MovePicker::main_search(pos, CheckedMove::verify(pos, table), f.ctx,
                                                  killers, Move::none());
      const auto seen = drain(picker, true);
      // Late-move pruning spares checks, so the quiet moves that give check still come.
      auto expected = generated<GenType::Noisy>(pos);
      for (const Move m : MoveList<GenType::Quiet>(pos))
        if (pos.gives_check(m)) expected[m.raw()] = 1;
      if (table) expected[table.raw()] = 1;
      EXPECT_EQ(seen, expected) << pos.fen() << " handed " << handed;
    }
  }
}

TEST(MovePicker, QuiescenceEmitsNoisyMovesOrEveryEvasion) {
  Fixture f;
  std::mt19937 rng(13);
  int in_check = 0;
  for (const Position& pos : positions()) {
    const Move table = random_move(rng);
    MovePicker picker = MovePicker::quiescence(pos, CheckedMove::verify(pos, table), f.ctx);
    const auto seen = drain(picker, false);
    if (pos.in_check()) {
      ++in_check;
      EXPECT_EQ(seen, generated<GenType::All>(pos)) << pos.fen();
    } else {
      EXPECT_EQ(seen, generated<GenType::Noisy>(pos)) << pos.fen();
    }
  }
  EXPECT_GT(in_check, 10);
}

TEST(MovePicker, ProbCutEmitsOnlyNoisyMovesThatReachTheThreshold) {
  Fixture f;
  for (const Position& pos : positions()) {
    for (const int threshold : {-200, 0, 150, 400}) {
      MovePicker picker = MovePicker::probcut(pos, CheckedMove::none(), f.ctx, threshold);
      const auto seen = drain(picker, false);
      std::map<std::uint16_t, int> expected;
      for (const Move m : MoveList<GenType::Noisy>(pos))
        if (pos.see_ge(m, threshold)) ++expected[m.raw()];
      EXPECT_EQ(seen, expected) << pos.fen() << " threshold " << threshold;
    }
  }
}

// A quiet move is ordered by the butterfly table of where it stands: e3-e4 walks into the d5
// pawn's attack, so only what it learnt as such a move counts, whether the search hands the
// node's threats to the picker or the picker finds them itself.
TEST(MovePicker, QuietMovesReadTheButterflyTableOfTheirThreats) {
  const Position pos = test::parse("4k3/8/8/3p4/8/4P3/8/4K3 w - - 0 1");
  const Move push(Square(4, 2), Square(4, 3));
  const Move king(Square(4, 0), Square(3, 0));
  const QuietThreats threats(pos);
  ASSERT_TRUE(threats.by_any & Square(4, 3).bb());
  for (const bool handed : {false, true}) {
    for (const bool learnt_as_attacked : {true, false}) {
      Fixture f;
      if (handed) f.ctx.threats = &threats;
      f.histories->quiet(WHITE, push, learnt_as_attacked ? threats.by_any : 0).update(5000);
      f.histories->quiet(WHITE, king, threats.by_any).update(3000);
      MovePicker picker =
          MovePicker::main_search(pos, CheckedMove::none(), f.ctx, {}, Move::none());
      EXPECT_EQ(picker.next(false), learnt_as_attacked ? push : king)
          << "handed " << handed << ", learnt as attacked " << learnt_as_attacked;
    }
  }
}

// The quiet moves come best first by their ordering score, and moves of equal score in the
// order they were generated (as a stable sort leaves them): with histories drawn from a few
// values, most lists have ties of every size.
TEST(MovePicker, QuietMovesComeBestFirstAndTiesInGenerationOrder) {
  std::mt19937 rng(20261206);
  int lists = 0;
  for (const Position& pos : positions()) {
    Fixture f;
    const QuietThreats threats(pos);
    const Color us = pos.side_to_move();
    std::vector<std::pair<int, Move>> expected;  // (score, move) in generation order
    for (const Move m : MoveList<GenType::Quiet>(pos)) {
      HistoryCell<kHistoryLimit>& cell = f.histories->quiet(us, m, threats.by_any);
      if (rng() % 2) cell.value = std::int16_t(int(rng() % 5) * 1000 - 2000);
      expected.emplace_back(0, m);
    }
    for (auto& [score, m] : expected)
      score = f.histories->quiet(us, m, threats.by_any) * tune::OrderButterflyPct / 100 +
              threats.score(pos.moved_piece(m).type(), m.from(), m.to());
    std::stable_sort(expected.begin(), expected.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    MovePicker picker = MovePicker::main_search(pos, CheckedMove::none(), f.ctx, {}, Move::none());
    std::vector<Move> order;
    drain(picker, false, &order);
    std::vector<Move> quiets;
    for (const Move m : order)
      if (!pos.is_noisy(m)) quiets.push_back(m);
    ASSERT_EQ(quiets.size(), expected.size()) << pos.fen();
    for (std::size_t i = 0; i < quiets.size(); ++i)
      ASSERT_EQ(quiets[i], expected[i].second) << pos.fen() << " place " << i;
    lists += quiets.size() > 1;
  }
  EXPECT_GT(lists, 100);
}

}  // namespace
}  // namespace tessera::search
