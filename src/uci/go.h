// The text side of `go`: turning its words into SearchLimits (or a perft request).
//
// Parameters come in any order and any subset. A bad parameter (unknown word, missing or
// non-integer number, out-of-range value, `nodes 0`, illegal search move) is reported in
// `errors` and left out, and the rest of the command still runs: a GUI waiting for `bestmove`
// gets one. A `go` with a bad value and no valid limit left (neither a clock, depth, nodes,
// movetime, infinite nor ponder) searches to kFallbackDepth, so that it answers at once rather
// than analysing until `stop`; a plain `go` with no parameters at all stays an analysis.
#pragma once

#include <string>
#include <vector>

#include "core/position.h"
#include "engine/engine.h"
#include "uci/tokens.h"

namespace tessera::uci {

struct GoCommand {
  search::SearchLimits limits;
  bool perft = false;   // `go perft N`: count moves instead of searching
  int perft_depth = 0;  // 0 when N was missing or bad (then nothing runs)
  std::vector<std::string> errors;
};

// `words` is the whole line, words[0] == "go"; `root` resolves `searchmoves`.
[[nodiscard]] GoCommand parse_go(const Words& words, const Position& root);

// True when the search only ends on `stop` / `ponderhit` (or never, without limits): such a
// search is stopped rather than awaited at end of input or before a new command that needs
// the engine idle.
[[nodiscard]] bool is_unbounded(const search::SearchLimits& limits);

inline constexpr int kMaxPerftDepth = 20;
inline constexpr int kFallbackDepth = 1;

}  // namespace tessera::uci
