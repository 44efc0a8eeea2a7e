// Microbenchmarks of the evaluation network's inference: a full accumulator refresh, the fused
// updates of a quiet move and a capture, and the output layer, with the build's kernel and the
// scalar reference, and a make/unmake with the update. The embedded network's values do not matter
// for speed. The BM_NnueBuckets* benchmarks do the same with a random network of the default
// king-bucket layout (architecture.h) at each width the engine evaluates (the argument H): a
// full refresh, a refresh through the accumulator cache, the output layer, and make/unmake where
// some king moves change their view and rebuild a half.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/move_delta.h"
#include "eval/nnue/network.h"
#include "eval/nnue/network_file.h"

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

// A network of the default king-bucket layout with random weights in a trained-like range,
// `hidden` wide.
const Network& bucketed_network(int hidden) {
  static std::map<int, Network> nets;
  if (const auto it = nets.find(hidden); it != nets.end()) return it->second;
  std::mt19937_64 rng(2026);
  const auto uniform = [&](int lo, int hi) {
    return std::int16_t(lo + int(rng() % std::uint64_t(hi - lo + 1)));
  };
  auto p = NetworkParameters::zeros(std::uint32_t(hidden), kOutputBuckets, kDefaultKingBuckets);
  for (auto& v : p.ft_weights) v = uniform(-200, 200);
  for (auto& v : p.ft_bias) v = uniform(-100, 300);
  for (auto& v : p.out_weights) v = uniform(-kMaxOutputWeight, kMaxOutputWeight);
  std::string error;
  auto n = Network::from_parameters(p, error);
  if (!n) throw std::runtime_error(error);
  return nets.emplace(hidden, *n).first->second;
}

// The benchmark's width argument.
[[nodiscard]] int width(const benchmark::State& state) { return int(state.range(0)); }

// Every width the engine evaluates, as the argument H.
void widths(benchmark::internal::Benchmark* b) {
  b->ArgName("H");
  for (const int h : kHiddenSizes) b->Arg(h);
}

Position from_fen(const char* fen) {
  std::string error;
  auto pos = Position::from_fen(fen, false, error);
  if (!pos) throw std::runtime_error(error);
  return *pos;
}

Position middlegame() {
  return from_fen("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10");
}

// An endgame whose kings stand next to the default layout's boundaries: of white's six king
// moves, d2 and d3 cross the mirror line and e2 and d2 change the bucket; e4, f3 and f4 do
// neither.
Position king_walk() { return from_fen("8/2p5/3k4/8/3P4/4K3/5N2/r6R w - - 0 1"); }

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

// Make and unmake every legal move of `pos` with the accumulator update the search does: the
// make-move observer's delta applied from the parent's accumulator into the child's.
void make_unmake_with_update(benchmark::State& state, const Network& net, Position pos) {
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

void BM_NnueMakeUnmakeWithUpdate(benchmark::State& state) {
  make_unmake_with_update(state, network(), middlegame());
}
BENCHMARK(BM_NnueMakeUnmakeWithUpdate);

void BM_NnueBucketsRefresh(benchmark::State& state) {
  const Network& net = bucketed_network(width(state));
  const Position pos = middlegame();
  Accumulator acc;
  for (auto _ : state) {
    refresh(net, pos, acc);
    benchmark::DoNotOptimize(acc);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_NnueBucketsRefresh)->Apply(widths);

// A refresh through the cache, alternating between the middlegame and the position four plies
// later (the kings in the same views): each refresh costs the pieces that differ, in both halves.
void BM_NnueBucketsCachedRefresh(benchmark::State& state) {
  const Network& net = bucketed_network(width(state));
  const Position a = middlegame();
  Position b = a;
  for (const char* uci : {"f3h4", "c6d4", "e2d2", "f6h5"}) {
    const Move m = b.parse_uci_move(uci);
    if (!m) throw std::runtime_error(std::string("bad move ") + uci);
    b.make_move(m);
  }
  Accumulator acc;
  const auto cache = std::make_unique<AccumulatorCache>();
  for (auto _ : state) {
    refresh(net, a, acc, *cache);
    benchmark::DoNotOptimize(acc);
    refresh(net, b, acc, *cache);
    benchmark::DoNotOptimize(acc);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * 2));
}
BENCHMARK(BM_NnueBucketsCachedRefresh)->Apply(widths);

void BM_NnueBucketsEvaluate(benchmark::State& state) {
  const Network& net = bucketed_network(width(state));
  Accumulator acc;
  refresh(net, middlegame(), acc);
  for (auto _ : state) {
    benchmark::DoNotOptimize(acc);
    const int v = evaluate(net, acc, WHITE);
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_NnueBucketsEvaluate)->Apply(widths);

// Make and unmake every legal move with the update, as BM_NnueMakeUnmakeWithUpdate, with the
// bucketed network: in the middlegame (no king move changes its view) and in the king walk
// (three king moves rebuild white's half through the cache).
void BM_NnueBucketsMakeUnmakeWithUpdate(benchmark::State& state, Position (*start)()) {
  make_unmake_with_update(state, bucketed_network(width(state)), start());
}
BENCHMARK_CAPTURE(BM_NnueBucketsMakeUnmakeWithUpdate, middlegame, middlegame)->Apply(widths);
BENCHMARK_CAPTURE(BM_NnueBucketsMakeUnmakeWithUpdate, king_walk, king_walk)->Apply(widths);

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
