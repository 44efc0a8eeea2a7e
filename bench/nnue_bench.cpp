// Microbenchmarks of the evaluation network's inference: a full accumulator refresh, the fused
// updates of a quiet move and a capture, and the output layer, with the build's kernel and the
// scalar reference, and a make/unmake with the update. The embedded network's values do not matter
// for speed.
#include <benchmark/benchmark.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "core/movegen.h"
#include "core/position.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/move_delta.h"
#include "eval/nnue/network.h"

namespace tessera::eval::nnue {
namespace {

const Network& network() {
  static const Network net = [] {
    std::string error;
    auto n = Network::embedded(error);
    if (!n) throw std::runtime_error(error);
    return *n;
  }();
  return net;
}

Position middlegame() {
  std::string error;
  auto pos = Position::from_fen(
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", false, error);
  if (!pos) throw std::runtime_error(error);
  return *pos;
}

template <bool Reference>
void BM_NnueRefresh(benchmark::State& state) {
  const Network& net = network();
  const Position pos = middlegame();
  Accumulator acc;
  for (auto _ : state) {
    Reference ? scalar::refresh(net, pos, acc) : refresh(net, pos, acc);
    benchmark::DoNotOptimize(acc);
    benchmark::ClobberMemory();
  }
}

template <bool Reference>
void BM_NnueAddSub(benchmark::State& state) {
  const Network& net = network();
  Accumulator parent, child;
  refresh(net, middlegame(), parent);
  const PieceSquare add{Piece(WHITE, KNIGHT), Square(28)};  // Nf3-e5
  const PieceSquare sub{Piece(WHITE, KNIGHT), Square(21)};
  for (auto _ : state) {
    Reference ? scalar::add_sub(net, parent, child, add, sub)
              : add_sub(net, parent, child, add, sub);
    benchmark::DoNotOptimize(child);
    benchmark::ClobberMemory();
  }
}

template <bool Reference>
void BM_NnueAddSubSub(benchmark::State& state) {
  const Network& net = network();
  Accumulator parent, child;
  refresh(net, middlegame(), parent);
  const PieceSquare add{Piece(WHITE, BISHOP), Square(45)};  // Bg5xf6
  const PieceSquare sub{Piece(WHITE, BISHOP), Square(38)};
  const PieceSquare captured{Piece(BLACK, KNIGHT), Square(45)};
  for (auto _ : state) {
    Reference ? scalar::add_sub_sub(net, parent, child, add, sub, captured)
              : add_sub_sub(net, parent, child, add, sub, captured);
    benchmark::DoNotOptimize(child);
    benchmark::ClobberMemory();
  }
}

template <bool Reference>
void BM_NnueEvaluate(benchmark::State& state) {
  const Network& net = network();
  Accumulator acc;
  refresh(net, middlegame(), acc);
  for (auto _ : state) {
    benchmark::DoNotOptimize(acc);
    const int v = Reference ? scalar::evaluate(net, acc, WHITE) : evaluate(net, acc, WHITE);
    benchmark::DoNotOptimize(v);
  }
}

// Make and unmake every legal move of the middlegame with the accumulator update the search
// does: the make-move observer's delta applied from the parent's accumulator into the child's.
void BM_NnueMakeUnmakeWithUpdate(benchmark::State& state) {
  const Network& net = network();
  Position pos = middlegame();
  const MoveList<GenType::All> moves(pos);
  Accumulator parent, child;
  const auto cache = std::make_unique<AccumulatorCache>();
  refresh(net, pos, parent);
  for (auto _ : state) {
    for (const Move m : moves) {
      MoveDelta delta;
      pos.make_move(m, delta);
      delta.apply(net, pos, parent, child, *cache);
      benchmark::DoNotOptimize(child);
      pos.unmake_move(m);
    }
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * moves.size()));
}
BENCHMARK(BM_NnueMakeUnmakeWithUpdate);

BENCHMARK(BM_NnueRefresh<false>)->Name("BM_NnueRefresh/selected");
BENCHMARK(BM_NnueRefresh<true>)->Name("BM_NnueRefresh/scalar");
BENCHMARK(BM_NnueAddSub<false>)->Name("BM_NnueAddSub/selected");
BENCHMARK(BM_NnueAddSub<true>)->Name("BM_NnueAddSub/scalar");
BENCHMARK(BM_NnueAddSubSub<false>)->Name("BM_NnueAddSubSub/selected");
BENCHMARK(BM_NnueAddSubSub<true>)->Name("BM_NnueAddSubSub/scalar");
BENCHMARK(BM_NnueEvaluate<false>)->Name("BM_NnueEvaluate/selected");
BENCHMARK(BM_NnueEvaluate<true>)->Name("BM_NnueEvaluate/scalar");

}  // namespace
}  // namespace tessera::eval::nnue
