// Rule predicates on a Position: move validity for arbitrary 16-bit moves, checks, static
// exchange, draws and UCI move notation.
#include <algorithm>

#include "core/cuckoo.h"
#include "core/movegen.h"
#include "core/position.h"

namespace tessera {

bool Position::can_castle_now(CastlingRight r) const {
  if (!can_castle(r) || castling_blocked(r) || in_check()) return false;
  const Color us = side_;
  const Square king = king_square(us);
  const Square rook = castling_rook(r);
  const bool king_side = rook.file() > king.file();
  const Square king_to(king_side ? 6 : 2, king.rank());
  // The rook leaves too: in Chess960 it may have been shielding the king's destination.
  const Bitboard occupied = pieces() ^ king.bb() ^ rook.bb();
  for (Bitboard path = between_bb(king, king_to) | king_to.bb(); path;)
    if (attacked_by(~us, pop_lsb(path), occupied)) return false;
  return true;
}

bool Position::pseudo_legal(Move m) const {
  const Square from = m.from(), to = m.to();
  if (from == to) return false;
  const Piece pc = piece_on(from);
  const Color us = side_;
  if (pc.is_none() || pc.color() != us) return false;

  if (m.kind() == MoveKind::Castling) {
    if (pc.type() != KING || (m.raw() >> 12 & 3) != 0) return false;
    const bool king_side = to.file() > from.file();
    const CastlingRight r =
        us == WHITE ? (king_side ? WHITE_OO : WHITE_OOO) : (king_side ? BLACK_OO : BLACK_OOO);
    return can_castle(r) && castling_rook(r) == to && !castling_blocked(r) && !in_check();
  }
  if (m.kind() != MoveKind::Promotion && (m.raw() >> 12 & 3) != 0) return false;
  if (pieces(us) & to.bb()) return false;

  if (pc.type() != PAWN) {
    return m.kind() == MoveKind::Normal && (piece_attacks(pc.type(), from, pieces()) & to.bb());
  }
  if (m.kind() == MoveKind::EnPassant)
    return to == ep_square() && (pawn_attacks(us, from) & to.bb());
  const bool last_rank = to.relative_rank(us) == 7;
  if (last_rank != (m.kind() == MoveKind::Promotion)) return false;
  const int push = us == WHITE ? 8 : -8;
  const int f = from.index(), t = to.index();
  if (pawn_attacks(us, from) & pieces(~us) & to.bb()) return true;
  if (t == f + push) return empty(to);
  return t == f + 2 * push && from.relative_rank(us) == 1 && empty(Square(f + push)) && empty(to);
}

bool Position::legal(Move m) const {
  const Color us = side_;
  const Square from = m.from(), to = m.to();
  const Square ksq = king_square(us);

  switch (m.kind()) {
    case MoveKind::Castling: {
      const bool king_side = to.file() > from.file();
      return can_castle_now(us == WHITE ? (king_side ? WHITE_OO : WHITE_OOO)
                                        : (king_side ? BLACK_OO : BLACK_OOO));
    }
    case MoveKind::EnPassant: {
      const Square captured(to.file(), from.rank());
      const Bitboard occupied = (pieces() ^ from.bb() ^ captured.bb()) | to.bb();
      return !(attackers_to(ksq, occupied) & pieces(~us) & ~captured.bb());
    }
    default:
      break;
  }
  if (from == ksq) return !(attackers_to(to, pieces() ^ from.bb()) & pieces(~us));
  if (const Bitboard checks = checkers()) {
    if (more_than_one(checks) || !(between_bb(ksq, lsb(checks)) & to.bb())) return false;
  }
  return !(king_blockers(us) & from.bb()) || aligned(from, to, ksq);
}

CheckInfo Position::check_info() const {
  const Color us = side_;
  CheckInfo info;
  info.enemy_king = king_square(~us);
  const Square ksq = info.enemy_king;
  info.squares[PAWN] = pawn_attacks(~us, ksq);
  info.squares[KNIGHT] = knight_attacks(ksq);
  info.squares[BISHOP] = bishop_attacks(ksq, pieces());
  info.squares[ROOK] = rook_attacks(ksq, pieces());
  info.squares[QUEEN] = info.squares[BISHOP] | info.squares[ROOK];
  info.discoverers = king_blockers(~us) & pieces(us);
  return info;
}

bool Position::gives_check(Move m) const {
  const Color us = side_;
  const Square ksq = king_square(~us);
  const Square from = m.from();
  Square to = m.to();
  PieceType type = piece_on(from).type();
  Bitboard occupied = (pieces() ^ from.bb()) | to.bb();
  Bitboard diagonal = pieces(us, BISHOP, QUEEN) & ~from.bb();
  Bitboard straight = pieces(us, ROOK, QUEEN) & ~from.bb();

  switch (m.kind()) {
    case MoveKind::Castling: {
      // The king cannot check; the rook lands next to where the king goes.
      const bool king_side = to.file() > from.file();
      const Square king_to(king_side ? 6 : 2, from.rank());
      const Square rook_to(king_side ? 5 : 3, from.rank());
      occupied = (pieces() ^ from.bb() ^ to.bb()) | king_to.bb() | rook_to.bb();
      straight = (straight & ~to.bb()) | rook_to.bb();
      return (rook_attacks(ksq, occupied) & straight) || (bishop_attacks(ksq, occupied) & diagonal);
    }
    case MoveKind::EnPassant:
      occupied ^= Square(to.file(), from.rank()).bb();
      break;
    case MoveKind::Promotion:
      type = m.promotion();
      break;
    default:
      break;
  }
  if (type == BISHOP || type == QUEEN) diagonal |= to.bb();
  if (type == ROOK || type == QUEEN) straight |= to.bb();
  if (type == PAWN && (pawn_attacks(us, to) & ksq.bb())) return true;
  if (type == KNIGHT && (knight_attacks(to) & ksq.bb())) return true;
  return (bishop_attacks(ksq, occupied) & diagonal) || (rook_attacks(ksq, occupied) & straight);
}

bool Position::see_ge(Move m, int threshold) const {
  // Only plain moves are exchanged; castling, promotions and en passant count as even.
  if (m.kind() != MoveKind::Normal) return 0 >= threshold;
  const Square from = m.from(), to = m.to();
  int balance = kSeeValue[piece_on(to).is_none() ? 6 : piece_on(to).type()] - threshold;
  if (balance < 0) return false;  // even a free capture does not reach the threshold
  balance = kSeeValue[piece_on(from).type()] - balance;
  if (balance <= 0) return true;  // even losing the mover keeps us at the threshold

  Bitboard occupied = pieces() ^ from.bb() ^ to.bb();
  Bitboard attackers = attackers_to(to, occupied);
  Color side = side_;
  bool we_win = true;  // the result if the side to recapture next has nothing left
  while (true) {
    side = ~side;
    attackers &= occupied;
    const Bitboard own = attackers & pieces(side);
    if (!own) break;
    we_win = !we_win;
    PieceType type = PAWN;
    while (!(own & pieces(type))) type = PieceType(type + 1);
    if (type == KING) {
      // The king may only recapture when the other side has nothing left to take back with.
      if (attackers & pieces(~side)) we_win = !we_win;
      break;
    }
    balance = kSeeValue[type] - balance;
    if (balance < int(we_win)) break;
    occupied ^= lsb(own & pieces(type)).bb();
    if (type == PAWN || type == BISHOP || type == QUEEN)
      attackers |= bishop_attacks(to, occupied) & pieces(BISHOP, QUEEN);
    if (type == ROOK || type == QUEEN)
      attackers |= rook_attacks(to, occupied) & pieces(ROOK, QUEEN);
  }
  return we_win;
}

bool Position::is_repetition(int ply) const {
  const StateInfo& st = state();
  const int current = int(states_.size()) - 1;
  const int end = std::min({st.rule50, st.plies_from_null, current});
  int seen = 0;
  for (int back = 4; back <= end; back += 2) {
    if (states_[current - back].key != st.key) continue;
    if (back < ply) return true;   // repeated inside the search tree: two-fold is enough
    if (++seen == 2) return true;  // third occurrence in the game
  }
  return false;
}

bool Position::repeats_earlier_state(int index) const {
  const StateInfo& st = states_[index];
  const int end = std::min({st.rule50, st.plies_from_null, index});
  for (int back = 4; back <= end; back += 2)
    if (states_[index - back].key == st.key) return true;
  return false;
}

// Walking back two plies at a time, `opponent_net` is the XOR of the opponent's moves' key
// differences since that point: zero means its pieces stand where they stood, so the two
// positions differ only by the side to move's moves, and if that difference is one reversible
// move with a clear path, playing it repeats the earlier position.
bool Position::has_upcoming_repetition(int ply) const {
  const int current = int(states_.size()) - 1;
  const StateInfo& st = state();
  const int end = std::min({st.rule50, st.plies_from_null, current});
  if (end < 3) return false;
  const Key original = st.key;
  Key opponent_net = original ^ states_[current - 1].key ^ kZobrist.side;
  for (int back = 3; back <= end; back += 2) {
    opponent_net ^= states_[current - back + 1].key ^ states_[current - back].key ^ kZobrist.side;
    if (opponent_net != 0) continue;
    const Move move = cuckoo_table().find(original ^ states_[current - back].key);
    if (move.is_none()) continue;
    if ((between_bb(move.from(), move.to()) ^ move.to().bb()) & pieces()) continue;
    // Inside the search a two-fold repetition is a draw; before the root it must be the third.
    if (back < ply || repeats_earlier_state(current - back)) return true;
  }
  return false;
}

bool Position::has_insufficient_material() const {
  if (pieces(PAWN) || pieces(ROOK, QUEEN)) return false;
  if (popcount(pieces()) <= 3) return true;  // K v K, or a single minor piece
  const Bitboard bishops = pieces(BISHOP);
  return !pieces(KNIGHT) && ((bishops & kDarkSquares) == 0 || (bishops & ~kDarkSquares) == 0);
}

bool Position::is_draw(int ply) const {
  if (rule50() >= 100 && (!in_check() || has_legal_move(*this))) return true;
  return is_repetition(ply) || has_insufficient_material();
}

std::string Position::move_to_uci(Move m) const {
  if (m.is_none() || m == Move::null()) return "0000";
  Square to = m.to();
  if (m.kind() == MoveKind::Castling && !chess960_)
    to = Square(to.file() > m.from().file() ? 6 : 2, m.from().rank());
  std::string s = m.from().to_string() + to.to_string();
  if (m.kind() == MoveKind::Promotion) s += "nbrq"[m.promotion() - KNIGHT];
  return s;
}

Move Position::parse_uci_move(std::string_view text) const {
  if (text.size() < 4 || text.size() > 5) return Move::none();
  for (const Move m : MoveList<GenType::All>(*this))
    if (move_to_uci(m) == text) return m;
  return Move::none();
}

}  // namespace tessera
