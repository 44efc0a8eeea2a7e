// Legal move generation from the check mask and the pin rays.
//
// In check, a move must capture the checker or land between it and the king (the check mask);
// in double check only the king moves. A pinned piece moves only along its pin ray, and never
// when in check (no square is both on the pin ray and on the check ray on the piece's side of
// the king). King moves are tested square by square with the king lifted off the board; en
// passant, whose two vanishing pawns can expose the king along a rank, is tested by
// Position::legal.
//
// The generator hands sets of destinations to a sink: MoveWriter writes the moves out,
// MoveCounter only counts them (perft's last ply needs nothing more).
#include "core/movegen.h"

namespace tessera {

namespace {

template <GenType T>
constexpr bool kWantNoisy = T != GenType::Quiet;
template <GenType T>
constexpr bool kWantQuiet = T != GenType::Noisy;
// Promotions per destination: the queen is noisy, the three under-promotions are quiet.
template <GenType T>
constexpr int kPromotionsPerSquare = (kWantNoisy<T> ? 1 : 0) + (kWantQuiet<T> ? 3 : 0);

class MoveWriter {
 public:
  explicit MoveWriter(Move* out) : out_(out) {}
  void add(Move m) { *out_++ = m; }
  void add_from(Square from, Bitboard targets) {
    while (targets) *out_++ = Move(from, pop_lsb(targets));
  }
  // Pawn moves to every square of `targets`, each from `delta` squares behind it.
  void add_shifted(Bitboard targets, int delta) {
    while (targets) {
      const Square to = pop_lsb(targets);
      *out_++ = Move(to.offset(-delta), to);
    }
  }
  template <GenType T>
  void add_promotions(Bitboard targets, int delta) {
    while (targets) {
      const Square to = pop_lsb(targets);
      const Square from = to.offset(-delta);
      if constexpr (kWantNoisy<T>) *out_++ = Move(from, to, MoveKind::Promotion, QUEEN);
      if constexpr (kWantQuiet<T>) {
        *out_++ = Move(from, to, MoveKind::Promotion, ROOK);
        *out_++ = Move(from, to, MoveKind::Promotion, BISHOP);
        *out_++ = Move(from, to, MoveKind::Promotion, KNIGHT);
      }
    }
  }
  [[nodiscard]] Move* end() const { return out_; }

 private:
  Move* out_;
};

class MoveCounter {
 public:
  void add(Move) { ++count_; }
  void add_from(Square, Bitboard targets) { count_ += std::size_t(popcount(targets)); }
  void add_shifted(Bitboard targets, int) { count_ += std::size_t(popcount(targets)); }
  template <GenType T>
  void add_promotions(Bitboard targets, int) {
    count_ += std::size_t(popcount(targets) * kPromotionsPerSquare<T>);
  }
  [[nodiscard]] std::size_t count() const { return count_; }

 private:
  std::size_t count_ = 0;
};

template <GenType T, Color Us, class Sink>
void pawn_moves(const Position& pos, Sink& sink, Bitboard check_mask, Bitboard pinned) {
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
    const Bitboard single = shift<Up>(movers) & empty;
    sink.add_shifted(shift<Up>(single & kThird) & empty & check_mask, 2 * Up);
    sink.add_shifted(single & check_mask, Up);
  }
  if constexpr (kWantNoisy<T>) {
    sink.add_shifted(shift<UpEast>(movers) & enemies & check_mask, UpEast);
    sink.add_shifted(shift<UpWest>(movers) & enemies & check_mask, UpWest);
  }
  if (promoters) {
    sink.template add_promotions<T>(shift<Up>(promoters) & empty & check_mask, Up);
    sink.template add_promotions<T>(shift<UpEast>(promoters) & enemies & check_mask, UpEast);
    sink.template add_promotions<T>(shift<UpWest>(promoters) & enemies & check_mask, UpWest);
  }

  // Pinned pawns one by one, along the pin ray only (never in check).
  if (!pos.checkers()) {
    for (Bitboard b = pawns & pinned; b;) {
      const Square from = pop_lsb(b);
      const Bitboard ray = line_bb(ksq, from);
      const Bitboard captures = pawn_attacks(Us, from) & enemies & ray;
      const Bitboard one = shift<Up>(from.bb()) & empty & ray;
      if (from.bb() & kSeventh) {
        sink.template add_promotions<T>(one, Up);
        sink.template add_promotions<T>(captures & shift<UpEast>(from.bb()), UpEast);
        sink.template add_promotions<T>(captures & shift<UpWest>(from.bb()), UpWest);
        continue;
      }
      if constexpr (kWantNoisy<T>) sink.add_from(from, captures);
      if constexpr (kWantQuiet<T>) sink.add_from(from, one | (shift<Up>(one & kThird) & empty));
    }
  }

  // En passant: rare enough to check with the full legality test.
  if constexpr (kWantNoisy<T>) {
    const Square ep = pos.ep_square();
    if (!ep.is_none()) {
      for (Bitboard b = pawn_attacks(Them, ep) & pawns; b;) {
        const Move m(pop_lsb(b), ep, MoveKind::EnPassant);
        if (pos.legal(m)) sink.add(m);
      }
    }
  }
}

template <class Sink>
void piece_moves(const Position& pos, Sink& sink, PieceType type, Bitboard targets,
                 Bitboard pinned) {
  const Color us = pos.side_to_move();
  const Square ksq = pos.king_square(us);
  const Bitboard occupied = pos.pieces();
  for (Bitboard b = pos.pieces(us, type); b;) {
    const Square from = pop_lsb(b);
    Bitboard to_set = piece_attacks(type, from, occupied) & targets;
    if (pinned & from.bb()) to_set &= line_bb(ksq, from);  // a pinned knight gets no square
    sink.add_from(from, to_set);
  }
}

template <GenType T, class Sink>
void generate_into(const Position& pos, Sink& sink) {
  const Color us = pos.side_to_move(), them = ~us;
  const Square ksq = pos.king_square(us);
  const Bitboard occupied = pos.pieces();
  const Bitboard checkers = pos.checkers();
  const Bitboard kind_mask = T == GenType::Noisy   ? pos.pieces(them)
                             : T == GenType::Quiet ? ~occupied
                                                   : ~pos.pieces(us);

  // King moves: leaper attacks are ruled out for the whole set at once, slider attacks square
  // by square with the king lifted off the board (it must not shield its own escape square).
  Bitboard king_targets = king_attacks(ksq) & kind_mask;
  king_targets &=
      ~(pawn_attacks_bb(them, pos.pieces(them, PAWN)) | king_attacks(pos.king_square(them)));
  for (Bitboard knights = pos.pieces(them, KNIGHT); knights && king_targets;)
    king_targets &= ~knight_attacks(pop_lsb(knights));
  const Bitboard without_king = occupied ^ ksq.bb();
  const Bitboard diagonal = pos.pieces(them, BISHOP, QUEEN);
  const Bitboard straight = pos.pieces(them, ROOK, QUEEN);
  for (Bitboard b = king_targets; b;) {
    const Square to = pop_lsb(b);
    if ((bishop_attacks(to, without_king) & diagonal) ||
        (rook_attacks(to, without_king) & straight))
      king_targets ^= to.bb();
  }
  sink.add_from(ksq, king_targets);
  if (more_than_one(checkers)) return;

  const Bitboard check_mask = checkers ? between_bb(ksq, lsb(checkers)) : ~Bitboard(0);
  const Bitboard pinned = pos.king_blockers(us) & pos.pieces(us);

  if (us == WHITE)
    pawn_moves<T, WHITE>(pos, sink, check_mask, pinned);
  else
    pawn_moves<T, BLACK>(pos, sink, check_mask, pinned);
  // A pinned piece stays on its pin ray; in check that ray never meets the check mask on the
  // piece's side of the king, so no special case is needed.
  const Bitboard targets = kind_mask & check_mask;
  for (const PieceType type : {KNIGHT, BISHOP, ROOK, QUEEN})
    piece_moves(pos, sink, type, targets, pinned);

  if constexpr (T != GenType::Noisy) {
    if (!checkers &&
        (pos.castling_rights() & (us == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO))) {
      const CastlingRight oo = us == WHITE ? WHITE_OO : BLACK_OO;
      const CastlingRight ooo = us == WHITE ? WHITE_OOO : BLACK_OOO;
      for (const CastlingRight r : {oo, ooo})
        if (pos.can_castle_now(r)) sink.add(Move(ksq, pos.castling_rook(r), MoveKind::Castling));
    }
  }
}

}  // namespace

template <GenType T>
Move* generate(const Position& pos, Move* out) {
  MoveWriter writer(out);
  generate_into<T>(pos, writer);
  return writer.end();
}

template Move* generate<GenType::Noisy>(const Position&, Move*);
template Move* generate<GenType::Quiet>(const Position&, Move*);
template Move* generate<GenType::All>(const Position&, Move*);

std::size_t count_legal_moves(const Position& pos) {
  MoveCounter counter;
  generate_into<GenType::All>(pos, counter);
  return counter.count();
}

bool has_legal_move(const Position& pos) { return count_legal_moves(pos) != 0; }

}  // namespace tessera
