// GameChain: one game of training data as its first position and then a move and a score per
// ply, the compact format of self-play data (about 4 bytes a position before compression, where
// a TrainingRecord takes 32). Replaying the moves gives back every position, and each position's
// flags follow from it and its move, so a chain holds the same data as the game's records.
//
// Layout of a game (all multi-byte fields little-endian):
//   bytes  0..23  the first searched position, a PackedPosition (core/packed_position.h)
//   bytes 24..25  its game ply (uint16)
//   byte  26      its fifty-move counter (uint8, saturating)
//   byte  27      zero (reserved)
//   then, for each searched position in order, 4 bytes: the move (a core Move, 16 bits), then
//     the search score in centipawns from white's point of view (int16, mates +-kScoreLimit).
//     The move is the one played; after the last position, which ends the game, it is the
//     search's best move, or the null move (Move::null()) when that is not known
//   then the end mark, 4 bytes: a zero move (Move::none()) and the result for white (uint16:
//     0 loss, 1 draw, 2 win).
// chain_file.h puts games into zstd frames, one frame a game.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/packed_position.h"
#include "core/types.h"
#include "datagen/record.h"

namespace tessera::datagen {

struct ChainPly {
  Move move;
  std::int16_t score_white = 0;

  constexpr bool operator==(const ChainPly&) const = default;
};

struct GameChain {
  static constexpr std::size_t kHeaderSize = 28;
  static constexpr std::size_t kEntrySize = 4;
  // More would be a game of over 5,000 moves: refused as corrupt data.
  static constexpr std::size_t kMaxPlies = 10000;

  PackedPosition start;
  std::uint16_t ply = 0;
  std::uint8_t rule50 = 0;
  std::vector<ChainPly> plies;
  GameResult result = GameResult::Draw;

  [[nodiscard]] std::size_t byte_size() const {
    return kHeaderSize + kEntrySize * (plies.size() + 1);
  }
  void append_bytes(std::vector<std::uint8_t>& out) const;

  // The game's records, one per ply, replayed from the start; nullopt and a one-line `error`
  // when the chain is not a game (a bad start position, an empty game, an illegal move, a score
  // beyond the limit). Only the last ply's move may be the null move.
  [[nodiscard]] std::optional<std::vector<TrainingRecord>> to_records(std::string& error) const;
};

// The header's fields, checked (position, reserved byte); nullopt and `error` otherwise.
[[nodiscard]] std::optional<GameChain> chain_header_from_bytes(
    std::span<const std::uint8_t, GameChain::kHeaderSize> bytes, std::string& error);

// The legal move of `from` that leads to the position `to` (packed), or Move::none().
[[nodiscard]] Move connecting_move(const Position& from, const PackedPosition& to);

// The record of `pos` with its search score (white's view, clamped), the move chosen there
// (null when not known), the game ply and fifty-move counter; the result is left a draw.
[[nodiscard]] TrainingRecord record_of(const Position& pos, int score_white, Move move, int ply,
                                       int rule50);

}  // namespace tessera::datagen
