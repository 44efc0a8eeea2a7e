#include "uci/bench.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

#include "engine/engine.h"
#include "eval/eval_cache.h"
#include "uci/bench_positions.h"

namespace tessera::uci {

namespace {

using Clock = std::chrono::steady_clock;

[[nodiscard]] search::EngineCallbacks bench_callbacks(std::ostream& out) {
  // search_sync reports nothing, but the callbacks stay callable in case an engine does.
  return search::EngineCallbacks{
      [](const search::SearchInfo&) {},
      [](Move, Move) {},
      [&out](const std::string& message) { out << "info string " << message << '\n'; },
  };
}

// Bench uses the options a fresh engine advertises, so anyone reproduces the signature.
void configure(engine::Engine& engine, std::ostream& out) {
  for (const std::string& error : {engine.set_threads(1), engine.set_hash_mb(16)})
    if (!error.empty()) out << "info string error: " << error << '\n';
  engine.set_multipv(1);
  engine.set_chess960(false);
}

}  // namespace

int run_bench(int depth, std::ostream& out, const BenchEvaluation& evaluation) {
  if (depth <= 0) depth = kDefaultBenchDepth;
  engine::Engine engine(bench_callbacks(out));
  configure(engine, out);
  if (const std::string error = engine.set_eval_file(evaluation.eval_file); !error.empty()) {
    out << "info string error: " << error << '\n';
    return 2;
  }
  engine.set_use_network(evaluation.use_network);

  search::SearchLimits limits;
  limits.depth = depth;
  std::uint64_t total_nodes = 0;
  Clock::duration elapsed{};
  int failures = 0;
  for (std::size_t i = 0; i < kBenchPositions.size(); ++i) {
    const std::string fen(kBenchPositions[i]);
    engine.new_game();  // a cleared table per position keeps each count independent
    if (const std::string error = engine.set_position(fen, {}); !error.empty()) {
      out << fmt::format("info string error: bench position {}: {}\n", i + 1, error);
      ++failures;
      continue;
    }
    const Clock::time_point start = Clock::now();
    const std::uint64_t nodes = engine.search_sync(limits);
    elapsed += Clock::now() - start;
    total_nodes += nodes;
    // Flushed per position so a long bench shows progress.
    out << fmt::format("Position {}/{}: {} nodes {}\n", i + 1, kBenchPositions.size(), fen, nodes)
        << std::flush;
  }

  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count();
  const auto nps = std::uint64_t(double(total_nodes) * 1e6 / double(us > 0 ? us : 1));
  const eval::CacheStats cache = engine.eval_cache_counts();
  const auto rate = [](std::uint64_t hits, std::uint64_t probes) {
    return probes ? 100.0 * double(hits) / double(probes) : 0.0;
  };
  out << fmt::format("Pawn table hits: {:.1f}% of {} probes\n",
                     rate(cache.pawn_hits, cache.pawn_probes), cache.pawn_probes);
  out << fmt::format("Material table hits: {:.1f}% of {} probes\n",
                     rate(cache.material_hits, cache.material_probes), cache.material_probes);
  out << fmt::format("Total time (ms): {}\n", us / 1000);
  out << fmt::format("Nodes searched: {}\n", total_nodes);
  out << fmt::format("Nodes/second: {}\n", nps);
  out.flush();
  return failures == 0 ? 0 : 1;
}

}  // namespace tessera::uci
