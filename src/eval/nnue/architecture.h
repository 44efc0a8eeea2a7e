// The shape of Tessera's evaluation network and the arithmetic contract it is trained to.
//
// Architecture (768 x K -> H) x 2 -> 1: a perspective network. Each side's view of the
// board is 768 binary inputs (two colours relative to the viewer, six piece types, 64 squares
// seen from the viewer's side, so black's view is the board with its ranks mirrored), repeated
// for each of K king buckets (KingBuckets below: the viewer's own king square picks the copy of
// the first layer, and may mirror the board's files). Both views go through the same first
// layer into H values each; SCReLU (clamp to [0, 1], then square)
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
//
// Widths. The first-layer width H is the network file's (network_file.h), chosen at load time
// among kHiddenSizes. The storage types (Accumulator, the accumulator cache, the bias and output
// weights) hold kMaxHidden lanes, of which the first H are live; the first-layer rows are dense
// at the live width. The kernels are compiled once per width, so that the hot loops keep
// compile-time trip counts, and each call picks its width once (accumulator.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/types.h"

namespace tessera::eval::nnue {

inline constexpr int kInputs = 768;
// The first-layer widths the engine evaluates, and the capacity of the storage types.
inline constexpr std::array<int, 4> kHiddenSizes = {128, 256, 384, 512};
inline constexpr int kMaxHidden = 512;
// The width of the embedded network and of the tests' and tools' default parameters.
inline constexpr int kHidden = 128;
inline constexpr int kOutputBuckets = 8;
inline constexpr int kQA = 255;
inline constexpr int kQB = 64;
inline constexpr int kMaxOutputWeight = 127;
inline constexpr int kDefaultScale = 400;

static_assert(kQA * kMaxOutputWeight <= 32767, "activation * output weight must fit an int16");
// The output sum is taken in blocks of kOutputSumBlock lanes: a block's kOutputSumBlock terms of
// at most kQA^2 * kMaxOutputWeight fit an int32 in any order of summation, so every kernel's
// int32 block sum is exact and identical; the blocks and the two halves are then added in int64.
// A whole half does not fit an int32 beyond 256 lanes (512 * 255^2 * 127 is about 4.2e9).
inline constexpr int kOutputSumBlock = 256;
static_assert(std::int64_t(kOutputSumBlock) * kQA * kQA * kMaxOutputWeight <= 2147483647LL,
              "one block's output sum must fit an int32");
// True for the widths the engine evaluates.
[[nodiscard]] constexpr bool supported_hidden(int hidden) {
  for (const int h : kHiddenSizes)
    if (h == hidden) return true;
  return false;
}
// Each width is a whole number of 32 lanes, so that every row is whole 64-byte lines and every
// kernel's registers divide it.
static_assert([] {
  for (const int h : kHiddenSizes)
    if (h % 32 != 0 || h > kMaxHidden) return false;
  return supported_hidden(kHidden);
}());

// The output bucket of a position with `pieces` pieces on the board (2..32, kings included):
// 0 for 2-5 pieces up to 7 for 30-32.
[[nodiscard]] constexpr int output_bucket(int pieces) {
  const int bucket = (pieces - 2) / 4;
  return bucket < 0 ? 0 : bucket >= kOutputBuckets ? kOutputBuckets - 1 : bucket;
}
static_assert(output_bucket(2) == 0 && output_bucket(32) == kOutputBuckets - 1);

// The input index of `piece` on `square` in the view of `perspective`, within one king bucket.
[[nodiscard]] constexpr int feature_index(Color perspective, Piece piece, Square square) {
  return (piece.color() == perspective ? 0 : 384) + piece.type() * 64 +
         (perspective == WHITE ? square.index() : square.index() ^ 56);
}

// King buckets: the first layer exists `count` times, and each perspective uses the copy that
// its own king's square selects, so that a piece's value may depend on where the king it
// defends or attacks stands. With `mirrored`, a perspective whose own king stands on files a-d
// sees the board with its files swapped (a <-> h), so its king is always on files e-h: the
// two wings share their weights, which halves the positions each bucket must learn from.
//
// `map` picks the bucket from the king's square seen from the perspective (ranks flipped for
// black) and folded onto files e-h (a king on files a-d counts as on the mirrored square, also
// without `mirrored`): entry rank * 4 + (file - 4), so entry 0 is e1 and entry 31 is h8.
// A perspective changes its bucket or mirror half only by a move of its own king; the
// accumulator is then rebuilt for that perspective (accumulator.h).
inline constexpr int kMaxKingBuckets = 32;
inline constexpr int kKingMapSize = 32;

struct KingBuckets {
  int count = 1;
  bool mirrored = false;
  std::array<std::uint8_t, kKingMapSize> map{};
  bool operator==(const KingBuckets&) const = default;
};

// One bucket, no mirroring: exactly the 768-input network of format version 1.
inline constexpr KingBuckets kSingleKingBucket{};

// The default layout: 4 buckets by the king's rank, mirrored. Rank 1 (the king at home or
// castled), rank 2 (a king that has stepped up, often behind moved pawns), ranks 3-4 (an active
// king, mostly in endgames) and ranks 5-8 (an advanced king: rare, so pooled). The rank tells
// the shelter and the danger around the king; the wing is what mirroring folds away, since a
// king on g1 and one on b1 defend with the same pattern reflected.
inline constexpr KingBuckets kDefaultKingBuckets{
    4, true, {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2,
              3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}};

// The first layer's inputs in words, for messages: "768", or "768 x 4 king buckets, mirrored".
[[nodiscard]] inline std::string describe_inputs(const KingBuckets& layout) {
  if (layout.count == 1) return "768";
  return "768 x " + std::to_string(layout.count) + " king buckets" +
         (layout.mirrored ? ", mirrored" : "");
}

// The map entry of a king on `king` in the view of `perspective`.
[[nodiscard]] constexpr int king_map_index(Color perspective, Square king) {
  const int rank = (perspective == WHITE ? king.index() : king.index() ^ 56) >> 3;
  const int file = king.index() & 7;
  return rank * 4 + (file >= 4 ? file - 4 : 3 - file);
}

// Which copy of the first layer a perspective uses, and whether it sees the files swapped.
struct KingView {
  int bucket = 0;
  bool mirrored = false;
  bool operator==(const KingView&) const = default;
};

[[nodiscard]] constexpr KingView king_view(const KingBuckets& layout, Color perspective,
                                           Square king) {
  return {layout.map[std::size_t(king_map_index(perspective, king))],
          layout.mirrored && (king.index() & 7) < 4};
}

// The input index of `piece` on `square` for `perspective` in king view `view`: the bucket's
// block of 768, then the index of the (possibly mirrored) square.
[[nodiscard]] constexpr int feature_index(Color perspective, KingView view, Piece piece,
                                          Square square) {
  return view.bucket * kInputs +
         feature_index(perspective, piece, Square(square.index() ^ (view.mirrored ? 7 : 0)));
}

static_assert(king_map_index(WHITE, Square(4)) == 0 && king_map_index(WHITE, Square(3)) == 0);
static_assert(king_map_index(BLACK, Square(63)) == 3 && king_map_index(WHITE, Square(56)) == 31);
static_assert(king_view(kDefaultKingBuckets, WHITE, Square(2)) == KingView{0, true});
static_assert(king_view(kDefaultKingBuckets, BLACK, Square(62)) == KingView{0, false});
static_assert(king_view(kDefaultKingBuckets, BLACK, Square(12)) == KingView{3, false});

}  // namespace tessera::eval::nnue
