// MoveDelta: a make-move observer (core/position.h) that gathers the pieces a move takes off
// and puts on, and applies them to an accumulator with the fused update that fits.
//
// Policy. A move changes at most two pieces each way: a quiet move, a promotion or a plain
// capture puts one piece on and takes one or two off; castling puts king and rook on and takes
// both off. The delta is gathered while Position::make_move runs and applied afterwards from
// the parent ply's accumulator into the child's, so the board and the accumulator are updated
// from the same events and cannot disagree. A king move that changes its side's king view
// (architecture.h) rebuilds that side's half through the thread's AccumulatorCache.
#pragma once

#include <array>
#include <span>

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

  // child = parent with this delta applied, by the build's kernels; `pos` is the position
  // after the move.
  void apply(const Network& net, const Position& pos, const Accumulator& parent, Accumulator& child,
             AccumulatorCache& cache) const {
    nnue::apply_move(net, pos, parent, child, std::span(added).first(std::size_t(adds)),
                     std::span(removed).first(std::size_t(removes)), cache);
  }
  // The same by the scalar reference, for tests.
  void apply_reference(const Network& net, const Position& pos, const Accumulator& parent,
                       Accumulator& child, AccumulatorCache& cache) const {
    scalar::apply_move(net, pos, parent, child, std::span(added).first(std::size_t(adds)),
                       std::span(removed).first(std::size_t(removes)), cache);
  }
};

}  // namespace tessera::eval::nnue
