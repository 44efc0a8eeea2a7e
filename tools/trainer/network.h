// The float network that the trainer fits: (768 -> H) x 2 -> 1, one accumulator per
// perspective, SCReLU, one output layer per bucket, and the gradient of the loss of one
// position.
//
// Policy. All parameters live in one float vector so that the optimiser, the gradient and the
// checkpoint treat them alike: the first layer's weights as 768 rows of H (row = input
// feature), its H biases, then per output bucket its 2H output weights (side to move's
// accumulator first), then the buckets' output biases. A position trains the output layer of
// its bucket only: the engine's output_bucket() of its piece count, or 0 with one bucket. The
// network's output `out` is a score in units of `scale` centipawns; the loss of a position is
// (sigmoid(out) - target)^2. Weights are kept inside the ranges that the quantised file can
// represent (clip()), so that quantising never saturates.
#pragma once

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

struct Network {
  int hidden = 128;
  int buckets = 1;  // 1 or eval::nnue::kOutputBuckets
  std::vector<float> params;

  Network() = default;
  explicit Network(int hidden_size, int bucket_count = 1)
      : hidden(hidden_size),
        buckets(bucket_count),
        params(parameter_count(hidden_size, bucket_count), 0.0f) {}

  [[nodiscard]] static std::size_t parameter_count(int h, int buckets = 1) {
    return std::size_t(kInputs + 1) * std::size_t(h) +
           std::size_t(buckets) * (2 * std::size_t(h) + 1);
  }
  [[nodiscard]] std::size_t bias1_offset() const { return std::size_t(kInputs) * hidden; }
  [[nodiscard]] std::size_t weight2_offset() const { return bias1_offset() + hidden; }
  // The first output bias; every output weight lies between weight2_offset() and here.
  [[nodiscard]] std::size_t bias2_offset() const {
    return weight2_offset() + std::size_t(buckets) * 2 * hidden;
  }
  // The output bucket of `s`.
  [[nodiscard]] int bucket(const Sample& s) const { return output_bucket(buckets, s); }

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

// Small random weights (uniform, scaled by the fan-in), the same for the same seed.
[[nodiscard]] Network random_network(int hidden, std::uint64_t seed, int buckets = 1);

// Clamps every weight into the range its quantised form can hold.
void clip(Network& net);

// Rounds the output weights to the nearest value that quantises exactly (a multiple of 1/QB).
void round_output_weights(Network& net);

// Per-thread buffers for evaluate() and add_gradient().
struct Scratch {
  std::vector<float> acc_white, acc_black, grad_white, grad_black;
  explicit Scratch(int hidden)
      : acc_white(std::size_t(hidden)),
        acc_black(std::size_t(hidden)),
        grad_white(std::size_t(hidden)),
        grad_black(std::size_t(hidden)) {}
};

// The network's output for `s`, in units of the scale, from the side to move's view.
[[nodiscard]] float evaluate(const Network& net, const Sample& s, Scratch& scratch);

// A gradient in the network's layout. The first layer's rows are sparse: only the rows of
// features that occurred are nonzero, listed in `rows`, which clear() zeroes again.
struct Gradient {
  std::vector<float> values;
  std::vector<std::uint8_t> touched;  // per input feature
  std::vector<std::uint16_t> rows;

  explicit Gradient(int hidden, int buckets = 1)
      : values(Network::parameter_count(hidden, buckets), 0.0f), touched(std::size_t(kInputs), 0) {}
  void clear(int hidden);
  // Adds `other` to this (the sum of two threads' gradients).
  void add(const Gradient& other, int hidden);
};

// The blended target: lambda * result + (1 - lambda) * sigmoid(score / scale), side to move.
[[nodiscard]] float target(const Sample& s, float lambda, float scale);

// Adds `weight` times the gradient of (sigmoid(out) - target)^2 for `s`; returns that loss.
double add_gradient(const Network& net, const Sample& s, float target_value, float weight,
                    Gradient& grad, Scratch& scratch);

[[nodiscard]] inline float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

}  // namespace tessera::trainer
