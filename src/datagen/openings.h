// Start positions for data generation: an EPD or FEN file, one position a line.
#pragma once

#include <string>
#include <vector>

namespace tessera::datagen {

// The first four fields of an EPD line (plus the two counters when a FEN has them).
[[nodiscard]] std::string epd_position(const std::string& line);

// The start positions of an openings file, each checked; empty lines and '#' comments skipped.
// False and `error` (naming the file and line) when the file cannot be read, has no position
// or a line is not one.
[[nodiscard]] bool load_openings(const std::string& path, bool chess960,
                                 std::vector<std::string>& fens, std::string& error);

}  // namespace tessera::datagen
