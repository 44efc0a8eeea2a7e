// `genfens`: opening positions for data generation distributed by OpenBench. A worker runs
// `tessera "genfens N seed S book <None|FILE.epd> [extra]" quit` and plays the printed
// positions out with its match runner; the server gathers the games' PGNs (pgn_import.h turns
// them into game chains).
//
// Policy. Position i of seed S is a function of (S, i) alone: its generator is seeded from both
// (game_rules.h), a start is drawn (the standard position, a line of the book, or with `dfrc` a
// random Chess960 start), then 8 or 9 random plies (`plies P`: P or P+1, so both sides get to
// move first), and a short search of a cleared single-threaded engine (`nodes N`) must find
// the position playable: neither side mated or stalemated, |score| within the bound (`bound
// CP`) and no mate found. A rejected draw is retried with the generator's next numbers, up to
// a limit, after which that position is skipped with a warning.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessera::datagen {

struct GenfensRequest {
  int count = 0;
  std::uint64_t seed = 0;
  std::string book;  // EPD file; empty for None (the start position)
  int random_plies = 8;
  int bound = 400;
  std::uint64_t nodes = 5000;
  bool chess960 = false;  // random Chess960 starts (`dfrc`), Shredder-FEN output
};

// Parses the words after `genfens`: N seed S book <None|FILE> and then optional `plies P`,
// `bound CP`, `nodes N`, `dfrc`. nullopt and `error` for anything else.
[[nodiscard]] std::optional<GenfensRequest> parse_genfens(const std::vector<std::string>& words,
                                                          std::string& error);

// Prints `info string genfens <FEN>` through `line` for each position; false and `error` when
// the book cannot be read (no position is printed then).
[[nodiscard]] bool run_genfens(const GenfensRequest& request,
                               const std::function<void(const std::string&)>& line,
                               std::string& error);

}  // namespace tessera::datagen
