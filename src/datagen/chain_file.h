// Chain files: GameChains (chain.h) compressed with zstd, one frame a game.
//
// A chain file starts with a 24-byte skippable zstd frame (magic 0x184D2A5A, length 16, then
// the text "TESSERA-CHAIN-1\n") that marks the format; `zstd -d` skips it and yields the games'
// bytes back to back. Then each game is one zstd frame. Appending to a chain file adds frames;
// appending to an empty or new file writes the mark first. A record file (record_file.h) never
// starts with a skippable frame, so the first 24 bytes tell the two formats apart.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "datagen/chain.h"
#include "datagen/zstd_stream.h"

namespace tessera::datagen {

inline constexpr std::array<std::uint8_t, ZstdReader::kPrefixSize> kChainFileMark = {
    0x5A, 0x2A, 0x4D, 0x18, 16,  0,   0,   0,   'T', 'E', 'S', 'S',
    'E',  'R',  'A',  '-',  'C', 'H', 'A', 'I', 'N', '-', '1', '\n'};

[[nodiscard]] bool is_chain_file_mark(std::span<const std::uint8_t> prefix);

// Writes games, each as one flushed frame: a process killed later leaves every game before.
class ChainWriter {
 public:
  // Creates (or truncates) `path`, or with `append` adds to its end; appending to a file that
  // is neither empty nor a chain file is refused with `error` set.
  [[nodiscard]] bool open(const std::string& path, bool append, std::string& error);
  // Refuses (false, error() set) a game to_records() would refuse.
  bool write(const GameChain& game);
  bool close() { return zstd_.close() && error_.empty(); }
  [[nodiscard]] const std::string& error() const { return error_.empty() ? zstd_.error() : error_; }
  [[nodiscard]] std::uint64_t games() const { return games_; }
  [[nodiscard]] std::uint64_t positions() const { return positions_; }

 private:
  ZstdWriter zstd_;
  std::vector<std::uint8_t> bytes_;
  std::uint64_t games_ = 0;
  std::uint64_t positions_ = 0;
  std::string error_;
};

// Reads the games of a chain file in order. next() returns false at the end; error() then
// tells how it ended: empty for a clean end; with truncated() true when the file stops inside
// a frame (a writer killed mid-game: every game before it was returned; a warning); otherwise
// the data is unusable from that point (corrupt zstd data, or a game that to_records() refuses,
// named by its 0-based index).
class ChainReader {
 public:
  // False and `error` set when the file cannot be read or is not a chain file.
  [[nodiscard]] bool open(const std::string& path, std::string& error);
  [[nodiscard]] bool next(GameChain& game) { return next(game, scratch_); }
  // As next(), and the game's records (replayed and checked).
  [[nodiscard]] bool next(GameChain& game, std::vector<TrainingRecord>& records);
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] bool truncated() const { return truncated_; }
  [[nodiscard]] std::uint64_t games() const { return games_; }

 private:
  bool fail_at_end(std::size_t partial);
  bool fail(std::string message);

  ZstdReader zstd_;
  std::vector<TrainingRecord> scratch_;
  std::uint64_t games_ = 0;
  bool truncated_ = false;
  std::string error_;
};

}  // namespace tessera::datagen
