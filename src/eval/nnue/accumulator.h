// Accumulator: the first layer's output for one position, in both perspectives, and the
// functions that build it, update it move by move, and evaluate it.
//
// values[WHITE] is the white-perspective half, values[BLACK] the black one; evaluate() orders
// them by the side to move. An accumulator is a pure function of the pieces on the board: a
// full refresh() and any chain of incremental updates that reaches the same board give the
// same values (lanes wrap modulo 2^16, so even overflow cannot make them differ).
//
// The incremental functions copy the parent ply's accumulator into the child's and apply the
// move's feature changes in one pass (`parent` and `child` may be the same object):
//   quiet move or promotion          add_sub         (piece on its new square; piece off)
//   capture, en passant, capture-promotion  add_sub_sub  (... and the captured piece off)
//   castling                         add_add_sub_sub (king and rook on; king and rook off)
// MoveDelta (move_delta.h) picks the right one from the make-move observer's piece events.
// Each keeps the piece count as well, so an accumulator knows its output bucket.
//
// Each function exists twice: in this namespace with the kernel the build selected, and in
// namespace `scalar` with the portable reference, which must give identical results.
#pragma once

#include <array>
#include <cstdint>

#include "core/position.h"
#include "core/types.h"
#include "eval/nnue/architecture.h"
#include "eval/nnue/network.h"

namespace tessera::eval::nnue {

struct alignas(64) Accumulator {
  alignas(64) std::array<std::array<std::int16_t, kHidden>, kColorCount> values{};
  int pieces = 0;  // on the board, kings included: it picks the output bucket
  bool operator==(const Accumulator&) const = default;
};

// One piece on one square: a feature in each perspective.
struct PieceSquare {
  Piece piece;
  Square square;
};

// Evaluations stay within +-kMaxEvalCp, like the hand-crafted evaluation's.
inline constexpr int kMaxEvalCp = 19999;

// The accumulator of `pos` from scratch: the biases plus the rows of every piece.
void refresh(const Network& net, const Position& pos, Accumulator& acc);

// In place: one piece put on or taken off the board.
void add_piece(const Network& net, Accumulator& acc, PieceSquare add);
void remove_piece(const Network& net, Accumulator& acc, PieceSquare sub);

// child = parent with the pieces `add*` put on and `sub*` taken off.
void add_sub(const Network& net, const Accumulator& parent, Accumulator& child, PieceSquare add,
             PieceSquare sub);
void add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child, PieceSquare add,
                 PieceSquare sub1, PieceSquare sub2);
void add_add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child,
                     PieceSquare add1, PieceSquare add2, PieceSquare sub1, PieceSquare sub2);

// The network's value of the accumulator's position in centipawns from `side_to_move`'s point
// of view, clamped to +-kMaxEvalCp.
[[nodiscard]] int evaluate(const Network& net, const Accumulator& acc, Color side_to_move);

// The portable reference implementation of the same functions, for comparison in tests.
namespace scalar {
void refresh(const Network& net, const Position& pos, Accumulator& acc);
void add_piece(const Network& net, Accumulator& acc, PieceSquare add);
void remove_piece(const Network& net, Accumulator& acc, PieceSquare sub);
void add_sub(const Network& net, const Accumulator& parent, Accumulator& child, PieceSquare add,
             PieceSquare sub);
void add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child, PieceSquare add,
                 PieceSquare sub1, PieceSquare sub2);
void add_add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child,
                     PieceSquare add1, PieceSquare add2, PieceSquare sub1, PieceSquare sub2);
[[nodiscard]] int evaluate(const Network& net, const Accumulator& acc, Color side_to_move);
}  // namespace scalar

}  // namespace tessera::eval::nnue
