// Legal move generation from the check mask and the pin rays.
//
// In check, a move must capture the checker or land between it and the king (the check mask);
// in double check only the king moves. A pinned piece moves only along its pin ray, and never
// when in check (no square is both on the pin ray and on the check ray). King moves are tested
// square by square with the king lifted off the board; en passant, whose two vanishing pawns can
// expose the king along a rank, is tested by Position::legal.
#include "core/movegen.h"

namespace tessera {

namespace {

template <GenType T>
constexpr bool kWantNoisy = T != GenType::Quiet;
template <GenType T>
constexpr bool kWantQuiet = T != GenType::Noisy;

// Promotions from `from` to `to`: the queen is noisy, the under-promotions are quiet.
template <GenType T>
Move* add_promotions(Move* out, Square from, Square to) {
  if constexpr (kWantNoisy<T>) *out++ = Move(from, to, MoveKind::Promotion, QUEEN);
  if constexpr (kWantQuiet<T>) {
    *out++ = Move(from, to, MoveKind::Promotion, ROOK);
    *out++ = Move(from, to, MoveKind::Promotion, BISHOP);
    *out++ = Move(from, to, MoveKind::Promotion, KNIGHT);
  }
  return out;
}

template <GenType T, Color Us>
Move* pawn_moves(const Position& pos, Move* out, Bitboard check_mask, Bitboard pinned) {
  constexpr Color Them = Us == WHITE ? BLACK : WHITE;
  constexpr int Up = Us == WHITE ? NORTH : SOUTH;
  constexpr int UpEast = Up + EAST, UpWest = Up + WEST;
  constexpr Bitboard kSeventh = Us == WHITE ? rank_bb(6) : rank_bb(1);
  constexpr Bitboard kThird = Us == WHITE ? rank_bb(2) : rank_bb(5);

  const Square ksq = pos.king_square(Us);
  const Bitboard empty = ~pos.pieces();
  const Bitboard enemies = pos.pieces(Them);
  const Bitboard pawns = pos.pieces(Us, PAWN);

  // Unpinned pawns in bulk, by shifting whole sets.
  const Bitboard free_pawns = pawns & ~pinned;
  const Bitboard movers = free_pawns & ~kSeventh;
  const Bitboard promoters = free_pawns & kSeventh;

  if constexpr (kWantQuiet<T>) {
    Bitboard single = shift<Up>(movers) & empty;
    Bitboard dbl = shift<Up>(single & kThird) & empty & check_mask;
    single &= check_mask;
    while (single) {
      const Square to = pop_lsb(single);
      *out++ = Move(to.offset(-Up), to);
    }
    while (dbl) {
      const Square to = pop_lsb(dbl);
      *out++ = Move(to.offset(-2 * Up), to);
    }
  }
  if constexpr (kWantNoisy<T>) {
    Bitboard east = shift<UpEast>(movers) & enemies & check_mask;
    Bitboard west = shift<UpWest>(movers) & enemies & check_mask;
    while (east) {
      const Square to = pop_lsb(east);
      *out++ = Move(to.offset(-UpEast), to);
    }
    while (west) {
      const Square to = pop_lsb(west);
      *out++ = Move(to.offset(-UpWest), to);
    }
  }
  if (promoters) {
    Bitboard push = shift<Up>(promoters) & empty & check_mask;
    Bitboard east = shift<UpEast>(promoters) & enemies & check_mask;
    Bitboard west = shift<UpWest>(promoters) & enemies & check_mask;
    while (push) {
      const Square to = pop_lsb(push);
      out = add_promotions<T>(out, to.offset(-Up), to);
    }
    while (east) {
      const Square to = pop_lsb(east);
      out = add_promotions<T>(out, to.offset(-UpEast), to);
    }
    while (west) {
      const Square to = pop_lsb(west);
      out = add_promotions<T>(out, to.offset(-UpWest), to);
    }
  }

  // Pinned pawns one by one, along the pin ray only (never in check).
  if (!pos.checkers()) {
    for (Bitboard b = pawns & pinned; b;) {
      const Square from = pop_lsb(b);
      const Bitboard ray = line_bb(ksq, from);
      const Bitboard captures = pawn_attacks(Us, from) & enemies & ray;
      const Bitboard one = shift<Up>(from.bb()) & empty & ray;
      const Bitboard pushes = one | (shift<Up>(one & kThird) & empty);
      if (from.bb() & kSeventh) {
        for (Bitboard t = captures | one; t;) out = add_promotions<T>(out, from, pop_lsb(t));
        continue;
      }
      Bitboard targets = 0;
      if constexpr (kWantNoisy<T>) targets |= captures;
      if constexpr (kWantQuiet<T>) targets |= pushes;
      while (targets) *out++ = Move(from, pop_lsb(targets));
    }
  }

  // En passant: rare enough to check with the full legality test.
  if constexpr (kWantNoisy<T>) {
    const Square ep = pos.ep_square();
    if (!ep.is_none()) {
      for (Bitboard b = pawn_attacks(Them, ep) & pawns; b;) {
        const Move m(pop_lsb(b), ep, MoveKind::EnPassant);
        if (pos.legal(m)) *out++ = m;
      }
    }
  }
  return out;
}

Move* slider_moves(const Position& pos, Move* out, PieceType type, Bitboard targets,
                  Bitboard pinned) {
  const Color us = pos.side_to_move();
  const Square ksq = pos.king_square(us);
  const Bitboard occupied = pos.pieces();
  for (Bitboard b = pos.pieces(us, type); b;) {
    const Square from = pop_lsb(b);
    Bitboard to_set = piece_attacks(type, from, occupied) & targets;
    if (pinned & from.bb()) to_set &= line_bb(ksq, from);
    while (to_set) *out++ = Move(from, pop_lsb(to_set));
  }
  return out;
}

}  // namespace

template <GenType T>
Move* generate(const Position& pos, Move* out) {
  const Color us = pos.side_to_move(), them = ~us;
  const Square ksq = pos.king_square(us);
  const Bitboard occupied = pos.pieces();
  const Bitboard checkers = pos.checkers();
  const Bitboard kind_mask = T == GenType::Noisy   ? pos.pieces(them)
                             : T == GenType::Quiet ? ~occupied
                                                   : ~pos.pieces(us);

  // King moves, each destination tested with the king lifted off the board.
  const Bitboard without_king = occupied ^ ksq.bb();
  for (Bitboard b = king_attacks(ksq) & kind_mask; b;) {
    const Square to = pop_lsb(b);
    if (!pos.attacked_by(them, to, without_king)) *out++ = Move(ksq, to);
  }
  if (more_than_one(checkers)) return out;

  const Bitboard check_mask = checkers ? between_bb(ksq, lsb(checkers)) : ~Bitboard(0);
  const Bitboard pinned = pos.king_blockers(us) & pos.pieces(us);

  out = us == WHITE ? pawn_moves<T, WHITE>(pos, out, check_mask, pinned)
                    : pawn_moves<T, BLACK>(pos, out, check_mask, pinned);
  // A pinned slider stays on its pin ray; in check that ray never meets the check mask on the
  // slider's side of the king, so no special case is needed. Pinned knights never move.
  const Bitboard targets = kind_mask & check_mask;
  for (Bitboard b = pos.pieces(us, KNIGHT) & ~pinned; b;) {
    const Square from = pop_lsb(b);
    for (Bitboard to_set = knight_attacks(from) & targets; to_set;)
      *out++ = Move(from, pop_lsb(to_set));
  }
  out = slider_moves(pos, out, BISHOP, targets, pinned);
  out = slider_moves(pos, out, ROOK, targets, pinned);
  out = slider_moves(pos, out, QUEEN, targets, pinned);

  if constexpr (T != GenType::Noisy) {
    if (!checkers) {
      const CastlingRight oo = us == WHITE ? WHITE_OO : BLACK_OO;
      const CastlingRight ooo = us == WHITE ? WHITE_OOO : BLACK_OOO;
      for (const CastlingRight r : {oo, ooo})
        if (pos.can_castle_now(r)) *out++ = Move(ksq, pos.castling_rook(r), MoveKind::Castling);
    }
  }
  return out;
}

template Move* generate<GenType::Noisy>(const Position&, Move*);
template Move* generate<GenType::Quiet>(const Position&, Move*);
template Move* generate<GenType::All>(const Position&, Move*);

bool has_legal_move(const Position& pos) { return !MoveList<GenType::All>(pos).empty(); }

}  // namespace tessera
