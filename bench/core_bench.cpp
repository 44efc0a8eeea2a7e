// Microbenchmarks of the rules core: legal move generation, make/unmake, key maintenance,
// perft and the Polyglot key. Run: ./build/release/bench/tessera_microbench
#include <benchmark/benchmark.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/polyglot_key.h"
#include "core/position.h"

namespace tessera {
namespace {

constexpr std::string_view kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr std::string_view kKiwipete =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
// CPW position 6: a quiet, piece-rich middlegame.
constexpr std::string_view kMiddlegame =
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
// An endgame with few pieces: generation overheads dominate.
constexpr std::string_view kEndgame = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

Position load(std::string_view fen) {
  std::string error;
  auto pos = Position::from_fen(fen, false, error);
  if (!pos) throw std::runtime_error("bad benchmark FEN: " + error);
  return *pos;
}

std::string_view fen_of(std::int64_t index) {
  switch (index) {
    case 0:
      return kStart;
    case 1:
      return kKiwipete;
    case 2:
      return kMiddlegame;
    default:
      return kEndgame;
  }
}

const char* name_of(std::int64_t index) {
  switch (index) {
    case 0:
      return "startpos";
    case 1:
      return "kiwipete";
    case 2:
      return "middlegame";
    default:
      return "endgame";
  }
}

void positions(benchmark::internal::Benchmark* b) {
  for (int i = 0; i < 4; ++i) b->Arg(i);
}

// Legal move generation, all moves; items = moves generated.
void BM_GenerateAll(benchmark::State& state) {
  const Position pos = load(fen_of(state.range(0)));
  std::size_t moves = 0;
  for (auto _ : state) {
    const MoveList<GenType::All> list(pos);
    benchmark::DoNotOptimize(list.begin());
    moves += list.size();
  }
  state.SetItemsProcessed(std::int64_t(moves));
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_GenerateAll)->Apply(positions);

// The captures-only generator used by quiescence search.
void BM_GenerateNoisy(benchmark::State& state) {
  const Position pos = load(fen_of(state.range(0)));
  for (auto _ : state) {
    const MoveList<GenType::Noisy> list(pos);
    benchmark::DoNotOptimize(list.begin());
  }
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_GenerateNoisy)->Apply(positions);

// Make and unmake every legal move once; items = make/unmake pairs.
void BM_MakeUnmakeAll(benchmark::State& state) {
  Position pos = load(fen_of(state.range(0)));
  const MoveList<GenType::All> list(pos);
  for (auto _ : state) {
    for (const Move m : list) {
      pos.make_move(m);
      benchmark::DoNotOptimize(pos.key());
      pos.unmake_move(m);
    }
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * list.size()));
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_MakeUnmakeAll)->Apply(positions);

// Make and unmake with an observer that touches every event, as an evaluator's hook would:
// the cost of the observer calls on top of BM_MakeUnmakeAll.
struct CountingObserver : MoveObserver {
  Key key = 0;
  int events = 0;
  void key_known(Key k) { key ^= k; }
  void piece_removed(Piece, Square s) { events += s.index(); }
  void piece_added(Piece, Square s) { events -= s.index(); }
  void piece_moved(Piece, Square from, Square to) { events += from.index() - to.index(); }
};

void BM_MakeUnmakeObservedAll(benchmark::State& state) {
  Position pos = load(fen_of(state.range(0)));
  const MoveList<GenType::All> list(pos);
  CountingObserver observer;
  for (auto _ : state) {
    for (const Move m : list) {
      pos.make_move(m, observer);
      pos.unmake_move(m);
    }
  }
  benchmark::DoNotOptimize(observer.key);
  benchmark::DoNotOptimize(observer.events);
  state.SetItemsProcessed(std::int64_t(state.iterations() * list.size()));
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_MakeUnmakeObservedAll)->Apply(positions);

// The from-scratch key computation that the incremental update replaces.
void BM_ComputeKeyFromScratch(benchmark::State& state) {
  const Position pos = load(fen_of(state.range(0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(pos.compute_key());
    benchmark::DoNotOptimize(pos.compute_pawn_key());
    benchmark::DoNotOptimize(pos.compute_material_key());
  }
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_ComputeKeyFromScratch)->Apply(positions);

// gives_check and SEE for every legal move: the per-move costs of move ordering and pruning.
void BM_GivesCheckAll(benchmark::State& state) {
  const Position pos = load(fen_of(state.range(0)));
  const MoveList<GenType::All> list(pos);
  for (auto _ : state) {
    int checks = 0;
    for (const Move m : list) checks += pos.gives_check(m);
    benchmark::DoNotOptimize(checks);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * list.size()));
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_GivesCheckAll)->Apply(positions);

void BM_SeeAll(benchmark::State& state) {
  const Position pos = load(fen_of(state.range(0)));
  const MoveList<GenType::All> list(pos);
  for (auto _ : state) {
    int good = 0;
    for (const Move m : list) good += pos.see_ge(m, 0);
    benchmark::DoNotOptimize(good);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * list.size()));
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_SeeAll)->Apply(positions);

// Validating a raw 16-bit move (hash and killer moves) for every legal move.
void BM_PseudoLegalAll(benchmark::State& state) {
  const Position pos = load(fen_of(state.range(0)));
  const MoveList<GenType::All> list(pos);
  for (auto _ : state) {
    int ok = 0;
    for (const Move m : list) ok += pos.pseudo_legal(m) && pos.legal(m);
    benchmark::DoNotOptimize(ok);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * list.size()));
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_PseudoLegalAll)->Apply(positions);

// perft(4): items = leaf nodes, so items/s is the usual perft speed figure.
void BM_Perft4(benchmark::State& state) {
  Position pos = load(fen_of(state.range(0)));
  std::uint64_t nodes = 0;
  for (auto _ : state) nodes += perft(pos, 4);
  state.SetItemsProcessed(std::int64_t(nodes));
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_Perft4)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_PolyglotKey(benchmark::State& state) {
  const Position pos = load(fen_of(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(polyglot_key(pos));
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_PolyglotKey)->Apply(positions);

void BM_ParseFen(benchmark::State& state) {
  const std::string_view fen = fen_of(state.range(0));
  std::string error;
  for (auto _ : state) {
    auto pos = Position::from_fen(fen, false, error);
    benchmark::DoNotOptimize(pos);
  }
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_ParseFen)->Arg(1);

}  // namespace
}  // namespace tessera
