// Making and unmaking moves, with the three keys updated in the same pass.
#include "core/position.h"

#include "core/zobrist.h"

namespace tessera {

Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
  return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) |
         (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) | (knight_attacks(s) & pieces(KNIGHT)) |
         (king_attacks(s) & pieces(KING)) | (bishop_attacks(s, occupied) & pieces(BISHOP, QUEEN)) |
         (rook_attacks(s, occupied) & pieces(ROOK, QUEEN));
}

bool Position::attacked_by(Color attacker, Square s, Bitboard occupied) const {
  const Bitboard them = pieces(attacker);
  return (pawn_attacks(~attacker, s) & pieces(attacker, PAWN)) ||
         (knight_attacks(s) & them & pieces(KNIGHT)) || (king_attacks(s) & them & pieces(KING)) ||
         (bishop_attacks(s, occupied) & them & pieces(BISHOP, QUEEN)) ||
         (rook_attacks(s, occupied) & them & pieces(ROOK, QUEEN));
}

Bitboard Position::king_blockers(Color c) const {
  const Square ksq = king_square(c);
  Bitboard snipers = ((rook_attacks(ksq, 0) & pieces(ROOK, QUEEN)) |
                      (bishop_attacks(ksq, 0) & pieces(BISHOP, QUEEN))) &
                     pieces(~c);
  // Every piece counts as a blocker, enemy sliders included: a checking slider in front of
  // another one on the same line must not make the piece behind it look pinned.
  Bitboard blockers = 0;
  while (snipers) {
    const Square s = pop_lsb(snipers);
    const Bitboard between = between_bb(ksq, s) & pieces() & ~s.bb();
    if (between && !more_than_one(between)) blockers |= between;
  }
  return blockers;
}

void Position::compute_child_state(Move m, StateInfo& st) const {
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  const Piece moved = piece_on(from);
  const auto& z = kZobrist;

  Key key = st.key ^ z.side;
  Key pawn_key = st.pawn_key;
  Key material_key = st.material_key;
  st.move = m;
  st.captured = Piece::none();
  ++st.rule50;
  ++st.plies_from_null;
  if (!st.ep_square.is_none()) key ^= z.ep_file[st.ep_square.file()];
  st.ep_square = Square::none();

  if (m.kind() == MoveKind::Castling) {
    const Piece rook = piece_on(to);
    const auto [king_to, rook_to] = castling_squares(from, to);
    key ^= z.piece[moved.index()][from.index()] ^ z.piece[moved.index()][king_to.index()] ^
           z.piece[rook.index()][to.index()] ^ z.piece[rook.index()][rook_to.index()];
    pawn_key ^= z.piece[moved.index()][from.index()] ^ z.piece[moved.index()][king_to.index()];
  } else {
    const Square captured_square =
        m.kind() == MoveKind::EnPassant ? Square(to.file(), from.rank()) : to;
    const Piece captured = piece_on(captured_square);
    if (!captured.is_none()) {
      key ^= z.piece[captured.index()][captured_square.index()];
      if (captured.type() == PAWN) pawn_key ^= z.piece[captured.index()][captured_square.index()];
      // The material keys toggle material[p][n] as the count of p crosses n <-> n + 1.
      material_key ^= z.material[captured.index()][count(captured) - 1];
      st.captured = captured;
      st.rule50 = 0;
    }
    const bool promotion = m.kind() == MoveKind::Promotion;
    const Piece arriving = promotion ? Piece(us, m.promotion()) : moved;
    key ^= z.piece[moved.index()][from.index()] ^ z.piece[arriving.index()][to.index()];
    if (moved.type() == PAWN || moved.type() == KING) {
      pawn_key ^= z.piece[moved.index()][from.index()];
      if (!promotion) pawn_key ^= z.piece[moved.index()][to.index()];
    }
    if (moved.type() == PAWN) {
      st.rule50 = 0;
      if ((from.index() ^ to.index()) == 16) {
        // A double push captures nothing, so the enemy pawns are already where they will be.
        const Square ep = Square((from.index() + to.index()) / 2);
        if (pawn_attacks(us, ep) & pieces(them, PAWN)) {
          st.ep_square = ep;
          key ^= z.ep_file[ep.file()];
        }
      } else if (promotion) {
        material_key ^= z.material[moved.index()][count(moved) - 1] ^
                        z.material[arriving.index()][count(arriving)];
      }
    }
  }

  if (st.castling) {
    const int lost = st.castling & (castle_mask_[from.index()] | castle_mask_[to.index()]);
    if (lost) {
      key ^= z.castle[lost];
      st.castling = std::uint8_t(st.castling & ~lost);
    }
  }
  st.key = key;
  st.pawn_key = pawn_key;
  st.material_key = material_key;
}

void Position::unmake_move(Move m) {
  side_ = ~side_;
  --game_ply_;
  const Color us = side_;
  const Square from = m.from(), to = m.to();
  const StateInfo& st = states_.back();

  if (m.kind() == MoveKind::Castling) {
    const auto [king_to, rook_to] = castling_squares(from, to);
    remove_piece(king_to);
    remove_piece(rook_to);
    put_piece(Piece(us, KING), from);
    put_piece(Piece(us, ROOK), to);
  } else {
    if (m.kind() == MoveKind::Promotion) {
      remove_piece(to);
      put_piece(Piece(us, PAWN), to);
    }
    move_piece(to, from);
    if (!st.captured.is_none()) {
      const Square captured_square =
          m.kind() == MoveKind::EnPassant ? Square(to.file(), from.rank()) : to;
      put_piece(st.captured, captured_square);
    }
  }
  states_.pop_back();
}

void Position::make_null_move() {
  states_.push_back(states_.back());
  StateInfo& st = states_.back();
  st.key ^= kZobrist.side;
  if (!st.ep_square.is_none()) st.key ^= kZobrist.ep_file[st.ep_square.file()];
  st.ep_square = Square::none();
  st.move = Move::null();
  st.captured = Piece::none();
  ++st.rule50;
  st.plies_from_null = 0;
  side_ = ~side_;
  ++game_ply_;
  st.checkers = 0;  // a null move is never made in check, so the opponent is not in check
}

void Position::unmake_null_move() {
  states_.pop_back();
  side_ = ~side_;
  --game_ply_;
}

}  // namespace tessera
