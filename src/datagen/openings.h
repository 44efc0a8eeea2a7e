// Start positions for data generation: an EPD or FEN file, one position a line.
#pragma once

#include <string>
#include <vector>

namespace tessera::datagen {

// The first four fields of an EPD line (plus the two counters when a FEN has them).
[[nodiscard]] std::string epd_position(const std::string& line);

// Whether OpenBench plays the book as Chess960: its file name (not the folders above it) holds
// FRC, 960 or FISCHER in any case.
[[nodiscard]] bool is_chess960_book(const std::string& path);

// The start positions of an openings file, each checked, castling read in Chess960 terms
// (Shredder-FEN files or X-FEN KQkq for the outermost rook) when `chess960`; empty lines and
// '#' comments skipped. False and `error` (naming the file and line) when the file cannot be
// read, has no position or a line is not one.
[[nodiscard]] bool load_openings(const std::string& path, bool chess960,
                                 std::vector<std::string>& fens, std::string& error);

}  // namespace tessera::datagen
