// The float network that the trainer fits: (768 x K -> H) x 2 -> 1, one accumulator per
// perspective, SCReLU, one output layer per bucket, and the gradient of the loss of one
// position.
//
// Policy. All parameters live in one float vector so that the optimiser, the gradient and the
// checkpoint treat them alike: the first layer's weights as K * 768 rows of H (row = input
// feature, king bucket by king bucket: eval/nnue/architecture.h), its H biases, then per output
// bucket its 2H output weights (side to move's accumulator first), then the buckets' output
// biases, and last, in a factorised network, the factoriser: 768 more rows of H that every
// king bucket shares. A position's feature in bucket b adds row b * 768 + f and factoriser row
// f, so the factoriser learns what is common to all buckets from every position, and the
// buckets learn only their differences (a rarely used bucket then starts from the shared
// weights instead of from noise); its gradient is the sum of the gradients of feature f in
// whichever bucket was active. The file has no factoriser: fold() adds it to every bucket's
// block, which is the same function, and quantising folds first. Without a factoriser the
// layout is exactly the one-bucket network's extended by its buckets, and with one bucket
// exactly the network of before king buckets. A position trains the output layer of its
// bucket only: the engine's output_bucket() of its piece count, or 0 with one bucket. The
// network's output `out` is a score in units of `scale` centipawns; the loss of a position is
// (sigmoid(out) - target)^2. Weights are kept inside the ranges that the quantised file can
// represent (clip(); for a bucket row plus its factoriser row, their sum), so that quantising
// never saturates.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "dataset.h"
#include "eval/nnue/architecture.h"

namespace tessera::trainer {

// The quantised range: first layer times kQA in int16 (32 active features and the bias must
// stay below 32767), output weights times kQB within +-127.
inline constexpr int kQA = eval::nnue::kQA;
inline constexpr int kQB = eval::nnue::kQB;
inline constexpr float kMaxWeight1 = 1.98f;
inline constexpr float kMaxWeight2 = float(eval::nnue::kMaxOutputWeight) / float(kQB);

// The output bucket of `s` in a network of `buckets` (1 or eval::nnue::kOutputBuckets) buckets.
[[nodiscard]] inline int output_bucket(int buckets, const Sample& s) {
  return buckets == 1 ? 0 : eval::nnue::output_bucket(s.count);
}

using eval::nnue::KingBuckets;

struct Network {
  int hidden = 128;
  int buckets = 1;  // 1 or eval::nnue::kOutputBuckets
  KingBuckets king_buckets = eval::nnue::kSingleKingBucket;
  bool factoriser = false;
  std::vector<float> params;

  Network() = default;
  explicit Network(int hidden_size, int bucket_count = 1,
                   const KingBuckets& layout = eval::nnue::kSingleKingBucket,
                   bool factorised = false)
      : hidden(hidden_size),
        buckets(bucket_count),
        king_buckets(layout),
        factoriser(factorised),
        params(parameter_count(hidden_size, bucket_count, layout.count, factorised), 0.0f) {}

  [[nodiscard]] static std::size_t parameter_count(int h, int buckets = 1, int king_buckets = 1,
                                                   bool factoriser = false) {
    return (std::size_t(kInputs) * std::size_t(king_buckets + (factoriser ? 1 : 0)) + 1) *
               std::size_t(h) +
           std::size_t(buckets) * (2 * std::size_t(h) + 1);
  }
  // The first layer's rows without the factoriser: K * 768.
  [[nodiscard]] int input_rows() const { return king_buckets.count * kInputs; }
  [[nodiscard]] std::size_t bias1_offset() const { return std::size_t(input_rows()) * hidden; }
  [[nodiscard]] std::size_t weight2_offset() const { return bias1_offset() + hidden; }
  // The first output bias; every output weight lies between weight2_offset() and here.
  [[nodiscard]] std::size_t bias2_offset() const {
    return weight2_offset() + std::size_t(buckets) * 2 * hidden;
  }
  // The factoriser's first row (the end of the parameters without one).
  [[nodiscard]] std::size_t factoriser_offset() const {
    return bias2_offset() + std::size_t(buckets);
  }
  // The output bucket of `s`.
  [[nodiscard]] int bucket(const Sample& s) const { return output_bucket(buckets, s); }
  // Same shape: hidden size, output buckets, king buckets and factoriser.
  [[nodiscard]] bool same_shape(const Network& other) const {
    return hidden == other.hidden && buckets == other.buckets &&
           king_buckets == other.king_buckets && factoriser == other.factoriser;
  }

  [[nodiscard]] const float* row(int feature) const {
    return params.data() + std::size_t(feature) * hidden;
  }
  [[nodiscard]] const float* bias1() const { return params.data() + bias1_offset(); }
  [[nodiscard]] const float* weight2(int bucket = 0) const {
    return params.data() + weight2_offset() + std::size_t(bucket) * 2 * hidden;
  }
  [[nodiscard]] float bias2(int bucket = 0) const {
    return params[bias2_offset() + std::size_t(bucket)];
  }
};

// Small random weights (uniform, scaled by the fan-in), the same for the same seed. Every king
// bucket starts from the same first layer (the factoriser holds it, the buckets' own rows are
// zero; without a factoriser each bucket has a copy), so a bucketed network starts as the
// one-bucket network of its seed (seen through the mirror by a king on files a-d), and buckets
// differ only where the data does.
[[nodiscard]] Network random_network(int hidden, std::uint64_t seed, int buckets = 1,
                                     const KingBuckets& layout = eval::nnue::kSingleKingBucket,
                                     bool factoriser = false);

// Clamps every weight into the range its quantised form can hold; a factoriser row within
// +-kMaxWeight1, and each bucket row so that its sum with its factoriser row is.
void clip(Network& net);

// The network without a factoriser that computes the same function: each bucket's first-layer
// rows plus the factoriser's. A network without a factoriser folds to itself. The folded
// parameters are a prefix of the factorised ones' layout, so a gradient of the folded network
// has the factorised network's offsets.
[[nodiscard]] Network fold(const Network& net);
// The same into `out` (reusing its memory).
void fold(const Network& net, Network& out);
// The network with or without a factoriser as `factorised` says, computing the same function:
// folded, or with a zero factoriser added.
[[nodiscard]] Network with_factoriser(const Network& net, bool factorised);

// The one-bucket network `one` spread over the king buckets of `layout`: in the factoriser
// (the buckets' own rows zero) or copied into every bucket, the rest unchanged. It computes
// `one`'s function wherever neither king is mirrored, and `one` seen through the mirror
// otherwise; so a bucketed run can start from a trained one-bucket network (--init).
[[nodiscard]] Network spread_over_king_buckets(const Network& one, const KingBuckets& layout,
                                               bool factorised);

// `narrow` with its first layer widened to `hidden` lanes (at least narrow's): the old lanes
// as they were, each new lane with small random input weights (the same for the same seed), the
// bias random_network() gives and zero output weights. It computes `narrow`'s function, and
// the new lanes learn from the first batch on (their output weights' gradient is their
// activation), so a wider run can start from a trained narrower network (--init). Folded: the
// result has no factoriser.
[[nodiscard]] Network widen(const Network& narrow, int hidden, std::uint64_t seed);

// Rounds the output weights to the nearest value that quantises exactly (a multiple of 1/QB).
void round_output_weights(Network& net);

// Per-thread buffers for evaluate() and add_gradient().
struct Scratch {
  std::vector<float> acc_white, acc_black, grad_white, grad_black;
  // The active first-layer rows of each perspective: the sample's bucket rows, then (in a
  // factorised network) their factoriser rows; offsets into the parameters.
  std::array<std::uint32_t, 2 * kMaxFeatures> white_rows{}, black_rows{};
  explicit Scratch(int hidden)
      : acc_white(std::size_t(hidden)),
        acc_black(std::size_t(hidden)),
        grad_white(std::size_t(hidden)),
        grad_black(std::size_t(hidden)) {}
};

// The network's output for `s`, in units of the scale, from the side to move's view.
[[nodiscard]] float evaluate(const Network& net, const Sample& s, Scratch& scratch);

// A gradient in the network's layout. The first layer's bucket rows are sparse: only the rows
// of features that occurred are nonzero, listed in `rows`, which clear() zeroes again; the
// rest (biases, output layers, the factoriser) is dense.
struct Gradient {
  int hidden = 0;
  std::vector<float> values;
  std::vector<std::uint8_t> touched;  // per bucket row
  std::vector<std::uint16_t> rows;

  explicit Gradient(const Network& shape)
      : hidden(shape.hidden),
        values(shape.params.size(), 0.0f),
        touched(std::size_t(shape.input_rows()), 0) {}
  void clear();
  // Adds `other` to this (the sum of two threads' gradients).
  void add(const Gradient& other);
};

// The blended target: lambda * result + (1 - lambda) * sigmoid(score / scale), side to move.
[[nodiscard]] float target(const Sample& s, float lambda, float scale);

// Adds `weight` times the gradient of (sigmoid(out) - target)^2 for `s`; returns that loss.
// For a factorised network the factoriser rows are written per position; the trainer instead
// runs the folded network (half the rows to add) and then add_factoriser_gradient().
double add_gradient(const Network& net, const Sample& s, float target_value, float weight,
                    Gradient& grad, Scratch& scratch);

// Given in `grad` the gradient of fold(net), adds the gradient of net's factoriser: each
// factoriser row the sum of its feature's rows over the buckets. Nothing without a factoriser.
void add_factoriser_gradient(const Network& net, Gradient& grad);

[[nodiscard]] inline float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

}  // namespace tessera::trainer
