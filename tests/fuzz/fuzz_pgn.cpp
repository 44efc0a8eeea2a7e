// libFuzzer target: PGN import (datagen-convert's reader of match-runner games).
//
// The input is PGN text. Every game read is either converted or skipped with a reason, and a
// converted game must be a chain that replays: legal moves all through, one record per scored
// ply, scores within the limit.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "datagen/pgn_import.h"

namespace {

void require(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  tessera::datagen::PgnImportStats stats;
  std::uint64_t converted = 0, skipped = 0;
  tessera::datagen::import_pgn_text(
      text, "input",
      [&](const tessera::datagen::GameChain& chain) {
        ++converted;
        std::string error;
        const auto records = chain.to_records(error);
        require(records.has_value());
        require(records->size() == chain.plies.size());
      },
      [&](const std::string& why) {
        ++skipped;
        require(!why.empty());
      },
      stats);
  require(stats.converted == converted && stats.skipped == skipped);
  require(stats.games == converted + skipped);
  return 0;
}
