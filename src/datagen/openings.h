// Start positions for data generation: an EPD or FEN file, one position a line, or a PGN book
// whose games' last positions are the openings.
#pragma once

#include <string>
#include <vector>

namespace tessera::datagen {

// The first four fields of an EPD line (plus the two counters when a FEN has them).
[[nodiscard]] std::string epd_position(const std::string& line);

// Whether OpenBench plays the book as Chess960: its file name (not the folders above it) holds
// FRC, 960 or FISCHER in any case.
[[nodiscard]] bool is_chess960_book(const std::string& path);

// Whether the file is read as a PGN book: its name ends in ".pgn" in any case.
[[nodiscard]] bool is_pgn_book(const std::string& path);

// The start positions of an openings file, each checked, castling read in Chess960 terms
// (Shredder-FEN files or X-FEN KQkq for the outermost rook) when `chess960`. An EPD or FEN
// file: empty lines and '#' comments skipped; false and `error` (naming the file and line) when
// a line is not a position. A PGN book (is_pgn_book): the position at the end of each game's
// moves (pgn_end_positions); games that do not replay or end the game are skipped, and
// `warning`, when given, says how many and why the first was. False and `error` when the file
// cannot be read or gives no position.
[[nodiscard]] bool load_openings(const std::string& path, bool chess960,
                                 std::vector<std::string>& fens, std::string& error,
                                 std::string* warning = nullptr);

}  // namespace tessera::datagen
