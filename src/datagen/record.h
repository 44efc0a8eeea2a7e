// TrainingRecord: one position of self-play data, 32 bytes on disk.
//
// Layout (all multi-byte fields little-endian):
//   bytes  0..23  the position, as a PackedPosition (core/packed_position.h)
//   bytes 24..25  the search score in centipawns from white's point of view (int16; mates and
//                 tablebase wins are clamped to +-kScoreLimit)
//   byte  26      the game result from white's point of view: 0 loss, 1 draw, 2 win
//   byte  27      flags: bit 0 quiet (not in check, best move neither a capture nor a
//                 promotion), bit 1 side to move in check; other bits zero
//   bytes 28..29  the ply of the game at this position (uint16)
//   byte  30      the fifty-move counter (uint8, saturating)
//   byte  31      zero (reserved)
// A stream of records is a data file; record_file.h adds the zstd compression.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "core/packed_position.h"

namespace tessera::datagen {

inline constexpr int kScoreLimit = 32000;

enum class GameResult : std::uint8_t { BlackWins = 0, Draw = 1, WhiteWins = 2 };

struct TrainingRecord {
  static constexpr std::size_t kSize = 32;
  static constexpr std::uint8_t kQuiet = 1;
  static constexpr std::uint8_t kInCheck = 2;

  PackedPosition position;
  std::int16_t score_white = 0;
  GameResult result = GameResult::Draw;
  std::uint8_t flags = 0;
  std::uint16_t ply = 0;
  std::uint8_t rule50 = 0;

  [[nodiscard]] bool quiet() const { return (flags & kQuiet) != 0; }
  [[nodiscard]] bool in_check() const { return (flags & kInCheck) != 0; }
  // The result as a score for white: 0, 0.5 or 1.
  [[nodiscard]] double result_white() const { return double(result) / 2.0; }

  [[nodiscard]] std::array<std::uint8_t, kSize> to_bytes() const;
  // nullopt with `error` set when the bytes are not a record to_bytes() could write (bad
  // position, result, flags or reserved byte).
  [[nodiscard]] static std::optional<TrainingRecord> from_bytes(
      const std::array<std::uint8_t, kSize>& bytes, std::string& error);
};

}  // namespace tessera::datagen
