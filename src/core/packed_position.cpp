#include "core/packed_position.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "core/movegen.h"

namespace tessera {
namespace {

constexpr std::uint8_t kEmpty = 0xFF;
using Board = std::array<std::uint8_t, 64>;  // a nibble per square, kEmpty where none

constexpr std::uint8_t kWhiteKing = 5;
constexpr std::uint8_t kBlackKing = 11;

// The record's squares as a board; false (and `error`) when the nibble area is malformed.
bool expand(const PackedPosition& record, Board& board, std::string& error) {
  board.fill(kEmpty);
  Bitboard occupied = 0;
  for (int i = 0; i < 8; ++i) occupied |= Bitboard(record.bytes[i]) << (8 * i);
  const int count = std::popcount(occupied);
  if (count > 32) {
    error = fmt::format("{} occupied squares, at most 32 fit", count);
    return false;
  }
  int nibble = 0;
  for (Bitboard b = occupied; b; b &= b - 1, ++nibble) {
    const std::uint8_t byte = record.bytes[8 + nibble / 2];
    board[std::countr_zero(b)] = std::uint8_t(nibble % 2 ? byte >> 4 : byte & 15);
  }
  for (; nibble < 32; ++nibble) {
    const std::uint8_t byte = record.bytes[8 + nibble / 2];
    if ((nibble % 2 ? byte >> 4 : byte & 15) != 0) {
      error = "a nibble past the last occupied square is not zero";
      return false;
    }
  }
  return true;
}

PackedPosition pack_board(const Board& board) {
  PackedPosition record;
  int nibble = 0;
  for (int s = 0; s < 64; ++s) {
    if (board[s] == kEmpty) continue;
    record.bytes[s >> 3] |= std::uint8_t(1u << (s & 7));  // little-endian occupancy
    record.bytes[8 + nibble / 2] |= std::uint8_t(nibble % 2 ? board[s] << 4 : board[s]);
    ++nibble;
  }
  return record;
}

Board expand_valid(const PackedPosition& record) {
  Board board;
  std::string ignored;
  (void)expand(record, board, ignored);  // a malformed tail is dropped by the transformations
  return board;
}

// The square behind the pawn that just advanced two squares: the en-passant target.
Square en_passant_target(Square pawn) { return pawn.offset(pawn.rank() == 3 ? -8 : 8); }

[[nodiscard]] bool holds(const Board& board, std::uint8_t nibble) {
  return std::find(board.begin(), board.end(), nibble) != board.end();
}

// The pawn standing on a legal en-passant capture's victim square, or none().
Square capturable_pawn(const Position& pos) {
  const Square target = pos.ep_square();
  if (target.is_none()) return Square::none();
  for (const Move m : MoveList<GenType::Noisy>(pos))
    if (m.kind() == MoveKind::EnPassant) return target.offset(pos.side_to_move() == WHITE ? -8 : 8);
  return Square::none();
}

// Checks that only the record's layout cannot: which kings, rooks and pawns may carry flags.
bool check_flags(const Board& board, std::string& error) {
  int white_kings = 0, black_kings = 0, ep_pawns = 0;
  Square king[2];
  const bool black_to_move = holds(board, packed::kBlackKingToMove);
  for (int s = 0; s < 64; ++s) {
    if (board[s] == kWhiteKing) ++white_kings, king[WHITE] = Square(s);
    if (board[s] == kBlackKing || board[s] == packed::kBlackKingToMove)
      ++black_kings, king[BLACK] = Square(s);
  }
  if (white_kings != 1 || black_kings != 1) {
    error = fmt::format("{} white and {} black kings, one each needed", white_kings, black_kings);
    return false;
  }
  std::array<int, 4> rooks_per_side{};  // white king side, white queen side, black ...
  for (int s = 0; s < 64; ++s) {
    const Square sq(s);
    if (board[s] == packed::kEnPassantPawn) {
      ++ep_pawns;
      const bool white_pawn = sq.rank() == 3;
      if (!white_pawn && sq.rank() != 4) {
        error = fmt::format("en-passant pawn on {}, only the fourth or fifth rank can hold one",
                            sq.to_string());
        return false;
      }
      if (white_pawn != black_to_move) {
        error = fmt::format("en-passant pawn on {} but the wrong side is to move", sq.to_string());
        return false;
      }
      const Square target = en_passant_target(sq);
      const Square origin = target.offset(target.index() - sq.index());
      if (board[target.index()] != kEmpty || board[origin.index()] != kEmpty) {
        error = fmt::format("en-passant pawn on {} but the squares behind it are not empty",
                            sq.to_string());
        return false;
      }
    }
    if (board[s] == packed::kWhiteCastlingRook || board[s] == packed::kBlackCastlingRook) {
      const Color c = board[s] == packed::kWhiteCastlingRook ? WHITE : BLACK;
      if (sq.relative_rank(c) != 0 || king[c].relative_rank(c) != 0) {
        error = fmt::format("castling rook on {} but it and its king are not on the first rank",
                            sq.to_string());
        return false;
      }
      if (++rooks_per_side[c * 2 + (sq.file() < king[c].file())] > 1) {
        error = fmt::format("two castling rooks on one side of the king ({})", sq.to_string());
        return false;
      }
    }
  }
  if (ep_pawns > 1) {
    error = "more than one en-passant pawn";
    return false;
  }
  return true;
}

std::string to_fen(const Board& board) {
  constexpr const char* kLetters = "PNBRQKpnbrqk";
  std::string placement, castling, ep = "-";
  bool black_to_move = false;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const Square sq(file, rank);
      const std::uint8_t v = board[sq.index()];
      if (v == kEmpty) {
        ++empty;
        continue;
      }
      if (empty) placement += char('0' + empty), empty = 0;
      char letter = 0;
      if (v < 12) {
        letter = kLetters[v];
      } else if (v == packed::kEnPassantPawn) {
        letter = rank == 3 ? 'P' : 'p';
        ep = en_passant_target(sq).to_string();
      } else if (v == packed::kWhiteCastlingRook) {
        letter = 'R';
      } else if (v == packed::kBlackCastlingRook) {
        letter = 'r';
      } else {
        letter = 'k';
        black_to_move = true;
      }
      placement += letter;
    }
    if (empty) placement += char('0' + empty);
    if (rank) placement += '/';
  }
  for (int s = 0; s < 64; ++s) {
    if (board[s] == packed::kWhiteCastlingRook) castling += char('A' + (s & 7));
    if (board[s] == packed::kBlackCastlingRook) castling += char('a' + (s & 7));
  }
  if (castling.empty()) castling = "-";
  return fmt::format("{} {} {} {} 0 1", placement, black_to_move ? 'b' : 'w', castling, ep);
}

// True when every castling right belongs to a king on e1/e8 and a rook in a corner.
bool standard_castling(const Position& pos) {
  for (const CastlingRight r : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO}) {
    if (!pos.can_castle(r)) continue;
    const Color c = (r & (WHITE_OO | WHITE_OOO)) ? WHITE : BLACK;
    const int rook_file = pos.castling_rook(r).file();
    if (pos.king_square(c).file() != 4 || (rook_file != 0 && rook_file != 7)) return false;
  }
  return true;
}

}  // namespace

PackedPosition encode(const Position& pos) {
  Board board;
  board.fill(kEmpty);
  for (int s = 0; s < 64; ++s)
    if (const Piece p = pos.piece_on(Square(s)); !p.is_none()) board[s] = std::uint8_t(p.index());
  if (const Square pawn = capturable_pawn(pos); !pawn.is_none())
    board[pawn.index()] = packed::kEnPassantPawn;
  for (const CastlingRight r : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO})
    if (pos.can_castle(r))
      board[pos.castling_rook(r).index()] =
          (r & (WHITE_OO | WHITE_OOO)) ? packed::kWhiteCastlingRook : packed::kBlackCastlingRook;
  if (pos.side_to_move() == BLACK) board[pos.king_square(BLACK).index()] = packed::kBlackKingToMove;
  return pack_board(board);
}

std::optional<Position> decode(const PackedPosition& record, std::string& error) {
  Board board;
  if (!expand(record, board, error) || !check_flags(board, error)) return std::nullopt;
  std::string fen_error;
  auto pos = Position::from_fen(to_fen(board), true, fen_error);
  if (!pos) {
    error = "not a legal position: " + fen_error;
    return std::nullopt;
  }
  const bool has_ep_pawn = holds(board, packed::kEnPassantPawn);
  if (has_ep_pawn && capturable_pawn(*pos).is_none()) {
    error = "en-passant pawn that no legal move can capture";
    return std::nullopt;
  }
  pos->set_chess960(!standard_castling(*pos));
  return pos;
}

PackedPosition flip_colors(const PackedPosition& record) {
  const Board board = expand_valid(record);
  const bool black_to_move = holds(board, packed::kBlackKingToMove);
  Board flipped;
  flipped.fill(kEmpty);
  for (int s = 0; s < 64; ++s) {
    const std::uint8_t v = board[s];
    std::uint8_t w = v;
    if (v == kWhiteKing)
      w = black_to_move ? kBlackKing : packed::kBlackKingToMove;
    else if (v == kBlackKing || v == packed::kBlackKingToMove)
      w = kWhiteKing;
    else if (v < 12)
      w = std::uint8_t(v < 6 ? v + 6 : v - 6);
    else if (v == packed::kWhiteCastlingRook)
      w = packed::kBlackCastlingRook;
    else if (v == packed::kBlackCastlingRook)
      w = packed::kWhiteCastlingRook;
    flipped[s ^ 56] = w;
  }
  return pack_board(flipped);
}

PackedPosition mirror_files(const PackedPosition& record) {
  const Board board = expand_valid(record);
  Board mirrored;
  for (int s = 0; s < 64; ++s) mirrored[s ^ 7] = board[s];
  return pack_board(mirrored);
}

bool has_castling_rooks(const PackedPosition& record) {
  const Board board = expand_valid(record);
  return std::any_of(board.begin(), board.end(), [](std::uint8_t v) {
    return v == packed::kWhiteCastlingRook || v == packed::kBlackCastlingRook;
  });
}

PackedPosition canonical(const PackedPosition& record) {
  PackedPosition best = std::min(record, flip_colors(record));
  if (!has_castling_rooks(record)) {
    const PackedPosition mirrored = mirror_files(record);
    best = std::min({best, mirrored, flip_colors(mirrored)});
  }
  return best;
}

}  // namespace tessera
