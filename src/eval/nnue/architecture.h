// The shape of Tessera's evaluation network and the arithmetic contract it is trained to.
//
// Architecture (768 -> kHidden) x 2 -> 1: a perspective network. Each side's view of the board
// is 768 binary inputs (two colours relative to the viewer, six piece types, 64 squares seen
// from the viewer's side, so black's view is the board with its ranks mirrored). Both views go
// through the same first layer into kHidden values each; SCReLU (clamp to [0, 1], then square)
// follows; the output layer weighs the side to move's half and the other half separately.
// The output layer exists kOutputBuckets times, one per band of material (output_bucket(): the
// number of pieces on the board, kings included, in bands of four), so that the same hidden
// features may weigh differently in an opening and in an endgame. A file with one bucket uses
// its single output layer for every band.
//
// Quantisation: first-layer weights and biases are round(w * kQA) in int16, output weights
// round(w * kQB) in int16 and kept within +-kMaxOutputWeight (so that a clamped activation times
// a weight fits an int16, which the SIMD kernels rely on), the output bias round(b * kQA * kQB)
// in int32. The output is in units of `scale` centipawns (stored with the network).
#pragma once

#include <cstdint>

#include "core/types.h"

namespace tessera::eval::nnue {

inline constexpr int kInputs = 768;
inline constexpr int kHidden = 128;  // the one first-layer width this build evaluates
inline constexpr int kOutputBuckets = 8;
inline constexpr int kQA = 255;
inline constexpr int kQB = 64;
inline constexpr int kMaxOutputWeight = 127;
inline constexpr int kDefaultScale = 400;

static_assert(kQA * kMaxOutputWeight <= 32767, "activation * output weight must fit an int16");
// Each half's output sum, kHidden terms of at most kQA^2 * kMaxOutputWeight, must fit an int32
// in any order of summation, which keeps every kernel's sum exact and identical; the two halves
// are then added in int64 (so H = 256 fits as well as 128).
static_assert(std::int64_t(kHidden) * kQA * kQA * kMaxOutputWeight <= 2147483647LL,
              "one half's output sum must fit an int32");

// The output bucket of a position with `pieces` pieces on the board (2..32, kings included):
// 0 for 2-5 pieces up to 7 for 30-32.
[[nodiscard]] constexpr int output_bucket(int pieces) {
  const int bucket = (pieces - 2) / 4;
  return bucket < 0 ? 0 : bucket >= kOutputBuckets ? kOutputBuckets - 1 : bucket;
}
static_assert(output_bucket(2) == 0 && output_bucket(32) == kOutputBuckets - 1);

// The input index of `piece` on `square` in the view of `perspective`.
[[nodiscard]] constexpr int feature_index(Color perspective, Piece piece, Square square) {
  return (piece.color() == perspective ? 0 : 384) + piece.type() * 64 +
         (perspective == WHITE ? square.index() : square.index() ^ 56);
}

}  // namespace tessera::eval::nnue
