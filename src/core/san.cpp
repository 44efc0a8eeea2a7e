#include "core/san.h"

#include <optional>

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

Move move_from_san(const Position& pos, std::string_view san) {
  std::string t;
  for (const char c : san)
    if (std::string_view("+#!?=x-").find(c) == std::string_view::npos) t += c;
  const MoveList<> legal(pos);
  if (t == "OO" || t == "00" || t == "OOO" || t == "000") {
    const bool king_side = t.size() == 2;
    for (const Move m : legal)
      if (m.kind() == MoveKind::Castling && (m.to().file() > m.from().file()) == king_side)
        return m;
    return Move::none();
  }
  PieceType piece = PAWN;
  if (!t.empty() && std::string_view("KQRBN").find(t.front()) != std::string_view::npos) {
    piece = PieceType(std::string_view("PNBRQK").find(t.front()));
    t.erase(0, 1);
  }
  std::optional<PieceType> promotion;
  if (piece == PAWN && !t.empty() &&
      std::string_view("QRBN").find(t.back()) != std::string_view::npos) {
    promotion = PieceType(std::string_view("PNBRQK").find(t.back()));
    t.pop_back();
  }
  if (t.size() < 2 || t.size() > 4) return Move::none();
  const char file = t[t.size() - 2], rank = t[t.size() - 1];
  if (file < 'a' || file > 'h' || rank < '1' || rank > '8') return Move::none();
  const Square to(file - 'a', rank - '1');
  const std::string_view hints(t.data(), t.size() - 2);
  Move found = Move::none();
  for (const Move m : legal) {
    if (m.kind() == MoveKind::Castling || m.to() != to || pos.moved_piece(m).type() != piece)
      continue;
    if ((m.kind() == MoveKind::Promotion) != promotion.has_value()) continue;
    if (promotion && m.promotion() != *promotion) continue;
    bool fits = true;
    for (const char h : hints) {
      if (h >= 'a' && h <= 'h')
        fits = fits && m.from().file() == h - 'a';
      else if (h >= '1' && h <= '8')
        fits = fits && m.from().rank() == h - '1';
      else
        fits = false;
    }
    if (!fits) continue;
    if (!found.is_none()) return Move::none();  // ambiguous
    found = m;
  }
  return found;
}

}  // namespace tessera
