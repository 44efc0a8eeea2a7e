#include "network.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

namespace tessera::trainer {

namespace {

// The general kernels: plain loops over any hidden size (the tests' tiny networks).

void accumulate_any(const Network& net, const Sample& s, float* white, float* black) {
  const int h = net.hidden;
  const float* bias = net.bias1();
  for (int i = 0; i < h; ++i) white[i] = black[i] = bias[i];
  for (int k = 0; k < s.count; ++k) {
    const int f = s.features[std::size_t(k)];
    const float* rw = net.row(f);
    const float* rb = net.row(black_feature(f));
    for (int i = 0; i < h; ++i) {
      white[i] += rw[i];
      black[i] += rb[i];
    }
  }
}

float output_half_any(int h, const float* acc, const float* w) {
  float sum = 0.0f;
  for (int i = 0; i < h; ++i) {
    const float c = std::clamp(acc[i], 0.0f, 1.0f);
    sum += c * c * w[i];
  }
  return sum;
}

// Given dL/d(out) = g: adds the output layer's gradient and writes dL/d(acc) to `d_acc`.
void backward_half_any(int h, float g, const float* acc, const float* w, float* grad_w,
                       float* d_acc) {
  for (int i = 0; i < h; ++i) {
    const float a = acc[i];
    const float c = std::clamp(a, 0.0f, 1.0f);
    grad_w[i] += g * c * c;
    d_acc[i] = a > 0.0f && a < 1.0f ? 2.0f * g * w[i] * a : 0.0f;
  }
}

void add_row_any(int h, float* row, const float* d) {
  for (int i = 0; i < h; ++i) row[i] += d[i];
}

// The kernels of the width the engine reads, in blocks of eight floats (GCC's and Clang's
// vector extension: AVX registers where the target has them): an accumulator of kBlocks
// blocks stays in registers while the feature rows are added to it.
using V8 = float __attribute__((vector_size(32)));
constexpr int kBlocks = 16;
constexpr int kWide = 8 * kBlocks;

V8 load8(const float* p) {
  V8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
void store8(float* p, V8 v) { std::memcpy(p, &v, sizeof v); }

// One perspective's accumulator; `black` turns white's feature indices into black's.
void accumulate_wide(const Network& net, const Sample& s, bool black, float* out) {
  V8 acc[kBlocks];
  const float* bias = net.bias1();
  for (int j = 0; j < kBlocks; ++j) acc[j] = load8(bias + 8 * j);
  for (int k = 0; k < s.count; ++k) {
    const int f = s.features[std::size_t(k)];
    const float* row = net.params.data() + std::size_t(black ? black_feature(f) : f) * kWide;
    for (int j = 0; j < kBlocks; ++j) acc[j] += load8(row + 8 * j);
  }
  for (int j = 0; j < kBlocks; ++j) store8(out + 8 * j, acc[j]);
}

V8 clamp01(V8 a) {
  const V8 zero = {}, one = zero + 1.0f;
  a = a > zero ? a : zero;
  return a < one ? a : one;
}

float output_half_wide(const float* acc, const float* w) {
  V8 sum = {};
  for (int j = 0; j < kBlocks; ++j) {
    const V8 c = clamp01(load8(acc + 8 * j));
    sum += c * c * load8(w + 8 * j);
  }
  float total = 0.0f;
  for (int i = 0; i < 8; ++i) total += sum[i];
  return total;
}

void backward_half_wide(float g, const float* acc, const float* w, float* grad_w, float* d_acc) {
  const V8 zero = {}, one = zero + 1.0f;
  for (int j = 0; j < kBlocks; ++j) {
    const V8 a = load8(acc + 8 * j);
    const V8 c = clamp01(a);
    store8(grad_w + 8 * j, load8(grad_w + 8 * j) + g * c * c);
    const V8 d = 2.0f * g * load8(w + 8 * j) * a;
    store8(d_acc + 8 * j, a > zero && a < one ? d : zero);
  }
}

// Adds `d` to the gradient rows of the sample's features in one perspective.
void add_rows_wide(const Sample& s, bool black, const float* d_acc, float* grad) {
  V8 d[kBlocks];
  for (int j = 0; j < kBlocks; ++j) d[j] = load8(d_acc + 8 * j);
  for (int k = 0; k < s.count; ++k) {
    const int f = s.features[std::size_t(k)];
    float* row = grad + std::size_t(black ? black_feature(f) : f) * kWide;
    for (int j = 0; j < kBlocks; ++j) store8(row + 8 * j, load8(row + 8 * j) + d[j]);
  }
}

float forward(const Network& net, const Sample& s, Scratch& scratch) {
  const int h = net.hidden;
  float* white = scratch.acc_white.data();
  float* black = scratch.acc_black.data();
  const int bucket = net.bucket(s);
  const float* w2 = net.weight2(bucket);
  const float* us = s.side_to_move == WHITE ? white : black;
  const float* them = s.side_to_move == WHITE ? black : white;
  if (h == kWide) {
    accumulate_wide(net, s, false, white);
    accumulate_wide(net, s, true, black);
    return output_half_wide(us, w2) + output_half_wide(them, w2 + h) + net.bias2(bucket);
  }
  accumulate_any(net, s, white, black);
  return output_half_any(h, us, w2) + output_half_any(h, them, w2 + h) + net.bias2(bucket);
}

void touch(Gradient& grad, int feature) {
  if (grad.touched[std::size_t(feature)]) return;
  grad.touched[std::size_t(feature)] = 1;
  grad.rows.push_back(std::uint16_t(feature));
}

}  // namespace

Network random_network(int hidden, std::uint64_t seed, int buckets) {
  Network net(hidden, buckets);
  std::mt19937_64 rng(seed);
  // About 30 active inputs: accumulators start near 0.5 with a spread of about 0.1.
  std::uniform_real_distribution<float> first(-0.03f, 0.03f);
  std::uniform_real_distribution<float> second(-1.0f / std::sqrt(float(2 * hidden)),
                                               1.0f / std::sqrt(float(2 * hidden)));
  for (std::size_t i = 0; i < net.bias1_offset(); ++i) net.params[i] = first(rng);
  for (std::size_t i = net.bias1_offset(); i < net.weight2_offset(); ++i) net.params[i] = 0.5f;
  // Every bucket starts from the same output layer: buckets differ only where the data does.
  const auto h2 = std::size_t(2 * hidden);
  for (std::size_t i = 0; i < h2; ++i) net.params[net.weight2_offset() + i] = second(rng);
  for (std::size_t b = 1; b < std::size_t(buckets); ++b)
    std::copy_n(net.params.begin() + std::ptrdiff_t(net.weight2_offset()), h2,
                net.params.begin() + std::ptrdiff_t(net.weight2_offset() + b * h2));
  std::fill(net.params.begin() + std::ptrdiff_t(net.bias2_offset()), net.params.end(), 0.0f);
  return net;
}

void clip(Network& net) {
  for (std::size_t i = 0; i < net.weight2_offset(); ++i)
    net.params[i] = std::clamp(net.params[i], -kMaxWeight1, kMaxWeight1);
  for (std::size_t i = net.weight2_offset(); i < net.bias2_offset(); ++i)
    net.params[i] = std::clamp(net.params[i], -kMaxWeight2, kMaxWeight2);
}

void round_output_weights(Network& net) {
  for (std::size_t i = net.weight2_offset(); i < net.bias2_offset(); ++i)
    net.params[i] = std::round(net.params[i] * float(kQB)) / float(kQB);
}

float evaluate(const Network& net, const Sample& s, Scratch& scratch) {
  return forward(net, s, scratch);
}

void Gradient::clear(int hidden) {
  for (const std::uint16_t r : rows) {
    std::fill_n(values.begin() + std::ptrdiff_t(r) * hidden, hidden, 0.0f);
    touched[r] = 0;
  }
  rows.clear();
  std::fill(values.begin() + std::ptrdiff_t(kInputs) * hidden, values.end(), 0.0f);
}

void Gradient::add(const Gradient& other, int hidden) {
  const auto h = std::size_t(hidden);
  for (const std::uint16_t r : other.rows) {
    if (!touched[r]) {
      touched[r] = 1;
      rows.push_back(r);
    }
    float* __restrict dst = values.data() + r * h;
    const float* __restrict src = other.values.data() + r * h;
    for (std::size_t i = 0; i < h; ++i) dst[i] += src[i];
  }
  for (std::size_t i = std::size_t(kInputs) * h; i < values.size(); ++i)
    values[i] += other.values[i];
}

float target(const Sample& s, float lambda, float scale) {
  return lambda * float(s.result) * 0.5f + (1.0f - lambda) * sigmoid(float(s.score) / scale);
}

double add_gradient(const Network& net, const Sample& s, float target_value, float weight,
                    Gradient& grad, Scratch& scratch) {
  const int h = net.hidden;
  const float out = forward(net, s, scratch);
  const float p = sigmoid(out);
  const float err = p - target_value;
  const float g = weight * 2.0f * err * p * (1.0f - p);

  // The side to move's accumulator meets the first half of its bucket's output weights.
  const int bucket = net.bucket(s);
  const std::size_t white_half = s.side_to_move == WHITE ? 0 : std::size_t(h);
  const std::size_t black_half = std::size_t(h) - white_half;
  const float* w2 = net.weight2(bucket);
  float* gw2 = grad.values.data() + net.weight2_offset() + std::size_t(bucket) * 2 * h;
  const float* white = scratch.acc_white.data();
  const float* black = scratch.acc_black.data();
  float* d_white = scratch.grad_white.data();
  float* d_black = scratch.grad_black.data();
  if (h == kWide) {
    backward_half_wide(g, white, w2 + white_half, gw2 + white_half, d_white);
    backward_half_wide(g, black, w2 + black_half, gw2 + black_half, d_black);
  } else {
    backward_half_any(h, g, white, w2 + white_half, gw2 + white_half, d_white);
    backward_half_any(h, g, black, w2 + black_half, gw2 + black_half, d_black);
  }
  grad.values[net.bias2_offset() + std::size_t(bucket)] += g;
  float* gb1 = grad.values.data() + net.bias1_offset();
  for (int i = 0; i < h; ++i) gb1[i] += d_white[i] + d_black[i];

  for (int k = 0; k < s.count; ++k) {
    const int f = s.features[std::size_t(k)];
    touch(grad, f);
    touch(grad, black_feature(f));
  }
  if (h == kWide) {
    add_rows_wide(s, false, d_white, grad.values.data());
    add_rows_wide(s, true, d_black, grad.values.data());
  } else {
    for (int k = 0; k < s.count; ++k) {
      const int f = s.features[std::size_t(k)];
      add_row_any(h, grad.values.data() + std::size_t(f) * h, d_white);
      add_row_any(h, grad.values.data() + std::size_t(black_feature(f)) * h, d_black);
    }
  }
  return double(err) * double(err);
}

}  // namespace tessera::trainer
