#include "core/polyglot_key.h"

#include "core/polyglot_random64.h"

namespace tessera {

Key polyglot_key(const Position& pos) {
  using polyglot::kRandom64;
  Key key = 0;
  for (Bitboard b = pos.pieces(); b;) {
    const Square s = pop_lsb(b);
    const Piece p = pos.piece_on(s);
    // Polyglot orders kinds black pawn, white pawn, black knight, ...
    const int kind = 2 * p.type() + (p.color() == WHITE ? 1 : 0);
    key ^= kRandom64[64 * kind + 8 * s.rank() + s.file()];
  }
  constexpr CastlingRight kRights[4] = {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO};
  for (int i = 0; i < 4; ++i)
    if (pos.can_castle(kRights[i])) key ^= kRandom64[768 + i];
  // The position's en-passant square is already kept only when a pawn of the side to move can
  // capture there, which is exactly Polyglot's rule.
  if (!pos.ep_square().is_none()) key ^= kRandom64[772 + pos.ep_square().file()];
  if (pos.side_to_move() == WHITE) key ^= kRandom64[780];
  return key;
}

}  // namespace tessera
