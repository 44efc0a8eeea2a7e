// PackedPosition: a position in 24 bytes, the record format of self-play data.
//
// Layout: an 8-byte occupancy bitboard (little-endian), then one nibble per occupied square in
// ascending square order, two to a byte, the first square in the low nibble; an odd count leaves
// the last high nibble zero and unused nibbles are zero. A nibble is
//   0-11  a piece: white pawn, knight, bishop, rook, queen, king, then the same for black
//   12    a pawn that has just advanced two squares and can be taken en passant by a legal move
//         (its colour follows from its rank)
//   13/14 a white/black rook that still has its castling right
//   15    the black king when black is to move (so the side to move costs no extra bits).
// A castling rook's side follows from its file relative to its king, so Chess960 positions
// need nothing more. The clocks are not part of the position record.
//
// The codec is a bijection between valid records and positions: decode() rejects, with a
// message, every record that encode() cannot produce (bad counts, stray nibbles, kings, rooks
// or en-passant pawns that cannot be where they are), and encode(decode(r)) == r otherwise.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>

#include "core/position.h"

namespace tessera {

struct PackedPosition {
  static constexpr std::size_t kSize = 24;
  std::array<std::uint8_t, kSize> bytes{};

  constexpr auto operator<=>(const PackedPosition&) const = default;
};
static_assert(sizeof(PackedPosition) == PackedPosition::kSize);

namespace packed {
inline constexpr std::uint8_t kEnPassantPawn = 12;
inline constexpr std::uint8_t kWhiteCastlingRook = 13;
inline constexpr std::uint8_t kBlackCastlingRook = 14;
inline constexpr std::uint8_t kBlackKingToMove = 15;
}  // namespace packed

[[nodiscard]] PackedPosition encode(const Position& pos);

// The position of a record, with both clocks zero; nullopt and a one-line `error` for a record
// that encode() could not have written. Castling is read in Chess960 terms and the position is
// marked Chess960 unless every castling king and rook stands on its standard square.
[[nodiscard]] std::optional<Position> decode(const PackedPosition& record, std::string& error);

// Transformations on the bytes (a record that decodes stays one that decodes):
// the colour flip mirrors the ranks and swaps colours, side to move and castling rights;
// the file mirror reflects a-h, which keeps the game the same only without castling rights.
[[nodiscard]] PackedPosition flip_colors(const PackedPosition& record);
[[nodiscard]] PackedPosition mirror_files(const PackedPosition& record);
[[nodiscard]] bool has_castling_rooks(const PackedPosition& record);

// The smallest, byte-wise, of the record's equivalent forms: itself and its colour flip, and the
// file mirrors of both when no castling right remains. Equal games give equal canonical bytes.
[[nodiscard]] PackedPosition canonical(const PackedPosition& record);

}  // namespace tessera
