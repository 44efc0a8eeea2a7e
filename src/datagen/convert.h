// `tessera datagen-convert`: record files, chain files and match-runner PGNs (plain, bzip2 or in
// a tar archive) into one data file of either format (data_writer.h).
//
// Policy. A record file's games are found as runs of records one ply and one legal move apart
// with one result (the order datagen writes them in); a record that does not continue the run
// starts the next game. A chain written from records has the null move after its last
// position, whose search move the records do not hold, so that position reads back as quiet
// whenever it is not in check. Chain files are copied game by game; PGNs go through
// pgn_import.h, and a game it skips is named on the error stream. A bzip2-compressed PGN and a
// tar archive (archive.h) are read too, the archive's members ending in .pgn or .pgn.bz2 in its
// order (others are named and passed over), so an OpenBench DATAGEN download converts as it
// comes. Inputs are told apart by their first bytes, not by their names.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "datagen/data_writer.h"

namespace tessera::datagen {

struct ConvertConfig {
  std::vector<std::string> inputs;
  std::string output;
  DataFormat format = DataFormat::Chains;
  bool append = false;
};

// Returns 0 when every input was converted (PGN games skipped for their content included),
// 1 with a message when an input cannot be read or is corrupt (the games before it are
// written) or the output cannot be written.
[[nodiscard]] int run_convert(const ConvertConfig& config, std::ostream& out, std::ostream& err);

}  // namespace tessera::datagen
