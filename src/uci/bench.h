// bench: a fixed-depth search of a fixed position list, the engine's behaviour signature.
//
// The node count is deterministic (one thread, a fresh 16 MB table per position), so commits
// that change search behaviour record it and OpenBench compares it. The last two lines are
// always `Nodes searched: N` and `Nodes/second: M`, since OpenBench scans from the bottom.
#pragma once

#include <iosfwd>
#include <string>

#include "engine/engine.h"

namespace tessera::uci {

inline constexpr int kDefaultBenchDepth = 15;

// The evaluation a bench uses: the default one (as `tessera bench`, whose node count is the
// signature), or in UCI mode the session's `Use NNUE` and `EvalFile`.
struct BenchEvaluation {
  bool use_network = engine::kNetworkByDefault;
  std::string eval_file;  // "" or "<default>": the embedded network
};

// Runs the bench at `depth` (<= 0: kDefaultBenchDepth), printing one line per position and
// the summary to `out`. Returns the process exit code.
[[nodiscard]] int run_bench(int depth, std::ostream& out, const BenchEvaluation& evaluation = {});

}  // namespace tessera::uci
