// MoveDelta: a make-move observer (core/position.h) that gathers the pieces a move takes off
// and puts on, and applies them to an accumulator with the fused update that fits.
//
// Policy. A move changes at most two pieces each way: a quiet move, a promotion or a plain
// capture puts one piece on and takes one or two off; castling puts king and rook on and takes
// both off. The delta is gathered while Position::make_move runs and applied afterwards from
// the parent ply's accumulator into the child's, so the board and the accumulator are updated
// from the same events and cannot disagree.
#pragma once

#include <array>

#include "core/position.h"
#include "eval/nnue/accumulator.h"

namespace tessera::eval::nnue {

struct MoveDelta : MoveObserver {
  std::array<PieceSquare, 2> added{};
  std::array<PieceSquare, 2> removed{};
  int adds = 0;
  int removes = 0;

  void piece_removed(Piece p, Square s) { removed[removes++] = {p, s}; }
  void piece_added(Piece p, Square s) { added[adds++] = {p, s}; }
  void piece_moved(Piece p, Square from, Square to) {
    removed[removes++] = {p, from};
    added[adds++] = {p, to};
  }

  // child = parent with this delta applied, by the build's kernels.
  void apply(const Network& net, const Accumulator& parent, Accumulator& child) const {
    if (adds == 2)
      add_add_sub_sub(net, parent, child, added[0], added[1], removed[0], removed[1]);
    else if (removes == 2)
      add_sub_sub(net, parent, child, added[0], removed[0], removed[1]);
    else
      add_sub(net, parent, child, added[0], removed[0]);
  }
  // The same by the scalar reference, for tests.
  void apply_reference(const Network& net, const Accumulator& parent, Accumulator& child) const {
    if (adds == 2)
      scalar::add_add_sub_sub(net, parent, child, added[0], added[1], removed[0], removed[1]);
    else if (removes == 2)
      scalar::add_sub_sub(net, parent, child, added[0], removed[0], removed[1]);
    else
      scalar::add_sub(net, parent, child, added[0], removed[0]);
  }
};

}  // namespace tessera::eval::nnue
