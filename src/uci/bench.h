// bench: a fixed-depth search of a fixed position list, the engine's behaviour signature.
//
// The node count is deterministic (one thread, a fresh 16 MB table per position), so commits
// that change search behaviour record it and OpenBench compares it. The last two lines are
// always `Nodes searched: N` and `Nodes/second: M`, since OpenBench scans from the bottom.
#pragma once

#include <iosfwd>

namespace tessera {

inline constexpr int kDefaultBenchDepth = 15;

// Runs the bench at `depth` (<= 0: kDefaultBenchDepth), printing one line per position and
// the summary to `out`. Returns the process exit code.
[[nodiscard]] int run_bench(int depth, std::ostream& out);

}  // namespace tessera
