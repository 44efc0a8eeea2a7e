// Small value types shared by every subsystem: colours, piece types, pieces, squares and moves.
//
// Colour and piece type are plain enums because they index tables everywhere; Square, Piece and
// Move are classes so that a square is never mistaken for a count or a move for a key.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tessera {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

enum Color : std::uint8_t { WHITE = 0, BLACK = 1 };
inline constexpr int kColorCount = 2;
[[nodiscard]] constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t { PAWN = 0, KNIGHT, BISHOP, ROOK, QUEEN, KING, NO_PIECE_TYPE };
inline constexpr int kPieceTypeCount = 6;

// A coloured piece: index = colour * 6 + type, so white pieces are 0-5 and black 6-11.
class Piece {
 public:
  constexpr Piece() = default;
  constexpr Piece(Color c, PieceType t) : v_(std::uint8_t(c * 6 + t)) {}
  [[nodiscard]] static constexpr Piece none() { return Piece(); }
  [[nodiscard]] static constexpr Piece from_index(int i) {
    Piece p;
    p.v_ = std::uint8_t(i);
    return p;
  }
  [[nodiscard]] constexpr int index() const { return v_; }
  [[nodiscard]] constexpr bool is_none() const { return v_ >= 12; }
  [[nodiscard]] constexpr Color color() const { return Color(v_ >= 6); }
  [[nodiscard]] constexpr PieceType type() const {
    return is_none() ? NO_PIECE_TYPE : PieceType(v_ % 6);
  }
  [[nodiscard]] constexpr char to_char() const {
    if (is_none()) return '.';
    constexpr const char* kLetters = "PNBRQKpnbrqk";
    return kLetters[v_];
  }
  constexpr bool operator==(const Piece&) const = default;

 private:
  std::uint8_t v_ = 12;
};
inline constexpr int kPieceCount = 12;

// A board square 0..63 (a1 = 0, h8 = 63), or none() (64).
class Square {
 public:
  constexpr Square() = default;
  constexpr explicit Square(int index) : v_(std::uint8_t(index)) {}
  constexpr Square(int file, int rank) : v_(std::uint8_t(rank * 8 + file)) {}
  [[nodiscard]] static constexpr Square none() { return Square(); }
  [[nodiscard]] constexpr int index() const { return v_; }
  [[nodiscard]] constexpr int file() const { return v_ & 7; }
  [[nodiscard]] constexpr int rank() const { return v_ >> 3; }
  [[nodiscard]] constexpr bool is_none() const { return v_ >= 64; }
  [[nodiscard]] constexpr Bitboard bb() const { return Bitboard(1) << v_; }
  // The same square seen from `c`'s side of the board (rank mirrored for black).
  [[nodiscard]] constexpr Square relative(Color c) const {
    return Square(v_ ^ (c == BLACK ? 56 : 0));
  }
  // Rank index counted from `c`'s first rank.
  [[nodiscard]] constexpr int relative_rank(Color c) const {
    return c == WHITE ? rank() : 7 - rank();
  }
  [[nodiscard]] constexpr Square offset(int delta) const { return Square(v_ + delta); }
  [[nodiscard]] std::string to_string() const;
  constexpr bool operator==(const Square&) const = default;

 private:
  std::uint8_t v_ = 64;
};

// King moves from `a` to `b` on an empty board (Chebyshev distance).
[[nodiscard]] constexpr int distance(Square a, Square b) {
  const int files = a.file() > b.file() ? a.file() - b.file() : b.file() - a.file();
  const int ranks = a.rank() > b.rank() ? a.rank() - b.rank() : b.rank() - a.rank();
  return files > ranks ? files : ranks;
}

// Parses "e4"; returns none() on anything else.
[[nodiscard]] Square parse_square(std::string_view text);

// Castling rights, one bit each: white king side, white queen side, black king side, black queen
// side. Chess960 uses the same four rights; the rook squares live in the Position.
enum CastlingRight : std::uint8_t {
  NO_CASTLING = 0,
  WHITE_OO = 1,
  WHITE_OOO = 2,
  BLACK_OO = 4,
  BLACK_OOO = 8,
  ALL_CASTLING = 15,
};
[[nodiscard]] constexpr int castling_index(CastlingRight r) {
  return r == WHITE_OO ? 0 : r == WHITE_OOO ? 1 : r == BLACK_OO ? 2 : 3;
}

enum class MoveKind : std::uint8_t { Normal = 0, Promotion = 1, EnPassant = 2, Castling = 3 };

// A move packed in 16 bits: from (bits 0-5), to (6-11), promotion piece (12-13: knight, bishop,
// rook, queen), kind (14-15). Castling is stored as king-takes-own-rook, so standard chess and
// Chess960 share one representation. Every 16-bit value is a Move; only some are legal.
class Move {
 public:
  constexpr Move() = default;
  constexpr explicit Move(std::uint16_t raw) : v_(raw) {}
  constexpr Move(Square from, Square to, MoveKind kind = MoveKind::Normal, PieceType promo = KNIGHT)
      : v_(std::uint16_t(from.index() | (to.index() << 6) | ((promo - KNIGHT) << 12) |
                         (int(kind) << 14))) {}
  [[nodiscard]] static constexpr Move none() { return Move(); }
  // The null move (a1 to a1 is otherwise meaningless; b1b1 keeps it distinct from none()).
  [[nodiscard]] static constexpr Move null() { return Move(std::uint16_t(65)); }

  [[nodiscard]] constexpr Square from() const { return Square(v_ & 63); }
  [[nodiscard]] constexpr Square to() const { return Square((v_ >> 6) & 63); }
  [[nodiscard]] constexpr MoveKind kind() const { return MoveKind(v_ >> 14); }
  [[nodiscard]] constexpr PieceType promotion() const {
    return PieceType(((v_ >> 12) & 3) + KNIGHT);
  }
  [[nodiscard]] constexpr std::uint16_t raw() const { return v_; }
  [[nodiscard]] constexpr bool is_none() const { return v_ == 0; }
  [[nodiscard]] constexpr bool is_ok() const { return from() != to(); }
  constexpr explicit operator bool() const { return v_ != 0; }
  constexpr bool operator==(const Move&) const = default;

 private:
  std::uint16_t v_ = 0;
};

inline constexpr int kMaxMoves = 256;  // more than the 218 of the richest known position
inline constexpr int kMaxPly = 246;    // deepest search ply

}  // namespace tessera
