#include "eval/nnue/trace.h"

#include "eval/nnue/accumulator.h"

namespace tessera::eval::nnue {

NetworkTrace trace(const Network& net, const Position& pos) {
  Accumulator full;
  refresh(net, pos, full);
  const Color us = pos.side_to_move();
  const auto white_view = [&](const Accumulator& acc) {
    const int v = evaluate(net, acc, us);
    return us == WHITE ? v : -v;
  };
  NetworkTrace t;
  t.score = evaluate(net, full, us);
  const int with_all = white_view(full);
  for (int s = 0; s < 64; ++s) {
    const Piece p = pos.piece_on(Square(s));
    if (p.is_none() || p.type() == KING) continue;
    Accumulator without = full;
    remove_piece(net, without, {p, Square(s)});
    t.piece_value[s] = with_all - white_view(without);
  }
  return t;
}

}  // namespace tessera::eval::nnue
