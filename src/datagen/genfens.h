// `genfens`: opening positions for data generation distributed by OpenBench. A worker runs
// `tessera "genfens N seed S book <None|FILE> [extra]" quit` and plays the printed positions
// out with its match runner; the server gathers the games' PGNs (pgn_import.h turns them into
// game chains).
//
// Policy. Position i of seed S is a function of (S, i) alone: its generator is seeded from both
// (game_rules.h), a start is drawn (the standard position; a line of an EPD book or the last
// position of a game of a PGN book; with `frc` one of the 960 Chess960 starts, the same for
// both sides; with `dfrc` each side's back rank drawn on its own), then 8 or 9 random plies
// (`plies P`: P or P+1, so both sides get to move first), and a short search of a cleared
// single-threaded engine (`nodes N`) must find the position playable: neither side mated or
// stalemated, |score| within the bound (`bound CP`) and no mate found. A rejected draw is
// retried with the generator's next numbers, up to a limit, after which that position is
// skipped with a warning.
//
// Chess960. OpenBench plays a workload as Chess960 when its book's name holds FRC, 960 or
// FISCHER (any case), and so genfens reads such a book in Chess960 terms (Shredder-FEN rook
// files or X-FEN KQkq for the outermost rook) and searches with Chess960 castling. Every
// Chess960 position (such a book's, `frc`'s and `dfrc`'s) is printed in Shredder-FEN, which
// fastchess and cutechess-cli read in Chess960 mode. OpenBench picks the variant from the
// book's name alone, so `frc` and `dfrc` (which take no book) serve runs outside it, or a
// runner told to play Chess960 by hand.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessera::datagen {

// Where a position starts when there is no book.
enum class GenfensStarts {
  Standard,        // the start position
  Chess960,        // `frc`: one of the 960, mirrored
  DoubleChess960,  // `dfrc`: each side's back rank one of the 960, drawn on its own
};

struct GenfensRequest {
  int count = 0;
  std::uint64_t seed = 0;
  std::string book;  // EPD or PGN (".pgn") file; empty for None
  int random_plies = 8;
  int bound = 400;
  std::uint64_t nodes = 5000;
  GenfensStarts starts = GenfensStarts::Standard;
  bool chess960 = false;  // Chess960 castling and Shredder-FEN output: frc, dfrc or the book's name
};

// Parses the words after `genfens`: N seed S book <None|FILE> and then optional `plies P`,
// `bound CP`, `nodes N` and, without a book, `frc` (or `chess960`) or `dfrc`. nullopt and
// `error` for anything else.
[[nodiscard]] std::optional<GenfensRequest> parse_genfens(const std::vector<std::string>& words,
                                                          std::string& error);

// Prints `info string genfens <FEN>` through `line` for each position (after one
// `info string warning: ...` line when games of a PGN book are skipped); false and `error`
// when the book cannot be read or has no usable position (no position is printed then).
[[nodiscard]] bool run_genfens(const GenfensRequest& request,
                               const std::function<void(const std::string&)>& line,
                               std::string& error);

}  // namespace tessera::datagen
