#include "core/san.h"

#include "core/movegen.h"

namespace tessera {

namespace {

constexpr char kPieceLetters[] = "PNBRQK";

[[nodiscard]] std::string square_name(Square s) {
  return {char('a' + s.file()), char('1' + s.rank())};
}

// The file, rank or square of `from` that tells `m` apart from the other moves of the same
// kind of piece to the same square.
[[nodiscard]] std::string disambiguation(const Position& pos, Move m) {
  const Square from = m.from();
  bool other = false, same_file = false, same_rank = false;
  for (const Move n : MoveList<GenType::All>(pos)) {
    if (n.to() != m.to() || n.from() == from || pos.moved_piece(n) != pos.moved_piece(m) ||
        n.kind() == MoveKind::Castling)
      continue;
    other = true;
    same_file |= n.from().file() == from.file();
    same_rank |= n.from().rank() == from.rank();
  }
  if (!other) return "";
  if (!same_file) return {char('a' + from.file())};
  if (!same_rank) return {char('1' + from.rank())};
  return square_name(from);
}

}  // namespace

std::string move_to_san(const Position& pos, Move m) {
  std::string san;
  const PieceType type = pos.moved_piece(m).type();
  if (m.kind() == MoveKind::Castling) {
    san = m.to().file() > m.from().file() ? "O-O" : "O-O-O";
  } else {
    const bool capture = pos.is_capture(m);
    if (type == PAWN) {
      if (capture) san += char('a' + m.from().file());
    } else {
      san += kPieceLetters[type];
      san += disambiguation(pos, m);
    }
    if (capture) san += 'x';
    san += square_name(m.to());
    if (m.kind() == MoveKind::Promotion) {
      san += '=';
      san += kPieceLetters[m.promotion()];
    }
  }
  Position after = pos;
  after.make_move(m);
  if (after.in_check()) san += has_legal_move(after) ? '+' : '#';
  return san;
}

}  // namespace tessera
