// The UCI front end: reads commands from `in`, drives a tessera::engine::Engine, writes to `out`.
#pragma once

#include <iosfwd>

namespace tessera::uci {

// Runs the UCI loop until `quit` or end of input; returns the process exit code. The calling
// thread reads `in` while the Engine searches on its own threads, so `isready`, `stop`,
// `ponderhit` and `quit` are answered during a search.
[[nodiscard]] int run(std::istream& in, std::ostream& out);

}  // namespace tessera::uci
