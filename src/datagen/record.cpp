#include "datagen/record.h"

#include <fmt/format.h>

#include <cstdlib>

namespace tessera::datagen {

namespace {

constexpr std::size_t kScoreByte = PackedPosition::kSize;  // 24
constexpr std::size_t kResultByte = kScoreByte + 2;        // 26
constexpr std::size_t kFlagsByte = kResultByte + 1;        // 27
constexpr std::size_t kPlyByte = kFlagsByte + 1;           // 28
constexpr std::size_t kRule50Byte = kPlyByte + 2;          // 30
constexpr std::size_t kReservedByte = kRule50Byte + 1;     // 31
static_assert(kReservedByte + 1 == TrainingRecord::kSize);

constexpr std::uint8_t kKnownFlags = TrainingRecord::kQuiet | TrainingRecord::kInCheck;

}  // namespace

std::array<std::uint8_t, TrainingRecord::kSize> TrainingRecord::to_bytes() const {
  std::array<std::uint8_t, kSize> bytes{};
  for (std::size_t i = 0; i < PackedPosition::kSize; ++i) bytes[i] = position.bytes[i];
  const auto score = std::uint16_t(score_white);
  bytes[kScoreByte] = std::uint8_t(score & 0xFF);
  bytes[kScoreByte + 1] = std::uint8_t(score >> 8);
  bytes[kResultByte] = std::uint8_t(result);
  bytes[kFlagsByte] = flags;
  bytes[kPlyByte] = std::uint8_t(ply & 0xFF);
  bytes[kPlyByte + 1] = std::uint8_t(ply >> 8);
  bytes[kRule50Byte] = rule50;
  bytes[kReservedByte] = 0;
  return bytes;
}

std::optional<TrainingRecord> TrainingRecord::from_bytes(
    const std::array<std::uint8_t, kSize>& bytes, std::string& error) {
  TrainingRecord r;
  for (std::size_t i = 0; i < PackedPosition::kSize; ++i) r.position.bytes[i] = bytes[i];
  r.score_white = std::int16_t(std::uint16_t(bytes[kScoreByte] | (bytes[kScoreByte + 1] << 8)));
  r.flags = bytes[kFlagsByte];
  r.ply = std::uint16_t(bytes[kPlyByte] | (bytes[kPlyByte + 1] << 8));
  r.rule50 = bytes[kRule50Byte];

  std::string position_error;
  const std::optional<Position> pos = decode(r.position, position_error);
  if (!pos) {
    error = "bad position: " + position_error;
    return std::nullopt;
  }
  if (std::abs(int(r.score_white)) > kScoreLimit) {
    error = fmt::format("score {} beyond +-{}", r.score_white, kScoreLimit);
    return std::nullopt;
  }
  if (bytes[kResultByte] > std::uint8_t(GameResult::WhiteWins)) {
    error = fmt::format("result {} (0, 1 or 2 expected)", bytes[kResultByte]);
    return std::nullopt;
  }
  r.result = GameResult(bytes[kResultByte]);
  if ((r.flags & ~kKnownFlags) != 0) {
    error = fmt::format("unknown flag bits {:#04x}", r.flags & ~kKnownFlags);
    return std::nullopt;
  }
  if (r.in_check() != pos->in_check()) {
    error = fmt::format("the in-check flag is {} but the side to move is {}in check",
                        r.in_check() ? "set" : "clear", pos->in_check() ? "" : "not ");
    return std::nullopt;
  }
  if (r.quiet() && r.in_check()) {
    error = "flagged both quiet and in check";
    return std::nullopt;
  }
  if (bytes[kReservedByte] != 0) {
    error = fmt::format("reserved byte {:#04x} (zero expected)", bytes[kReservedByte]);
    return std::nullopt;
  }
  return r;
}

}  // namespace tessera::datagen
