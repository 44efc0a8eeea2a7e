// Perft from the command line: a divide of one position, and a regression run over an EPD suite.
#pragma once

#include <iosfwd>
#include <string>

namespace tessera::cli {

// Divide lines `e2e4: N`, a blank line, `Nodes searched: N`, then time and speed.
// Returns a non-zero exit code (with a message on `err`) for a bad FEN.
[[nodiscard]] int run_perft(int depth, const std::string& fen, bool chess960, std::ostream& out,
                            std::ostream& err);

// Checks every position of an EPD suite (`FEN ;D1 n ;D2 n ...`) at `depth` (or the deepest
// count it lists below that). Prints one line per mismatch and a summary; non-zero on failure.
[[nodiscard]] int run_perft_suite(const std::string& path, int depth, bool chess960,
                                  std::ostream& out, std::ostream& err);

}  // namespace tessera::cli
