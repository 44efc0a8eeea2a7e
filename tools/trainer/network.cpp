#include "network.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

namespace tessera::trainer {

namespace {

// The general kernels: plain loops over any hidden size (the tests' tiny networks). A row list
// holds offsets into the parameters (a row's H values start there).

void accumulate_any(const Network& net, const std::uint32_t* rows, int count, float* out) {
  const int h = net.hidden;
  const float* bias = net.bias1();
  for (int i = 0; i < h; ++i) out[i] = bias[i];
  for (int k = 0; k < count; ++k) {
    const float* row = net.params.data() + rows[k];
    for (int i = 0; i < h; ++i) out[i] += row[i];
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

// Adds each perspective's dL/d(acc) to its active rows, alternating between the perspectives.
void add_rows_any(int h, const Scratch& scratch, int count, float* grad) {
  for (int k = 0; k < count; ++k) {
    for (const Color c : {WHITE, BLACK}) {
      const auto& rows = c == WHITE ? scratch.white_rows : scratch.black_rows;
      const float* d = (c == WHITE ? scratch.grad_white : scratch.grad_black).data();
      float* row = grad + rows[std::size_t(k)];
      for (int i = 0; i < h; ++i) row[i] += d[i];
    }
  }
}

// The kernels of the widths kWide (the engine's 128) and 2 * kWide, in blocks of eight floats
// (GCC's and Clang's vector extension: AVX registers where the target has them): a slice of
// kBlocks blocks of the accumulator stays in registers while the feature rows are added to it,
// slice after slice. The output kernels take the width as a template argument: with a
// constant bound the compiler contracts and orders the arithmetic as it did when 128 was the
// only width, so a one-bucket run at H = 128 ends with the same weights, bit for bit.
using V8 = float __attribute__((vector_size(32)));
constexpr int kBlocks = 16;
constexpr int kWide = 8 * kBlocks;

V8 load8(const float* p) {
  V8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
void store8(float* p, V8 v) { std::memcpy(p, &v, sizeof v); }

void accumulate_wide(const Network& net, const std::uint32_t* rows, int count, float* out) {
  const float* bias = net.bias1();
  const float* params = net.params.data();
  for (int slice = 0; slice < net.hidden; slice += kWide) {
    V8 acc[kBlocks];
    for (int j = 0; j < kBlocks; ++j) acc[j] = load8(bias + slice + 8 * j);
    for (int k = 0; k < count; ++k) {
      const float* row = params + rows[k] + slice;
      for (int j = 0; j < kBlocks; ++j) acc[j] += load8(row + 8 * j);
    }
    for (int j = 0; j < kBlocks; ++j) store8(out + slice + 8 * j, acc[j]);
  }
}

V8 clamp01(V8 a) {
  const V8 zero = {}, one = zero + 1.0f;
  a = a > zero ? a : zero;
  return a < one ? a : one;
}

template <int kWidth>
float output_half_wide(const float* acc, const float* w) {
  V8 sum = {};
  for (int j = 0; j < kWidth / 8; ++j) {
    const V8 c = clamp01(load8(acc + 8 * j));
    sum += c * c * load8(w + 8 * j);
  }
  float total = 0.0f;
  for (int i = 0; i < 8; ++i) total += sum[i];
  return total;
}

template <int kWidth>
void backward_half_wide(float g, const float* acc, const float* w, float* grad_w, float* d_acc) {
  const V8 zero = {}, one = zero + 1.0f;
  for (int j = 0; j < kWidth / 8; ++j) {
    const V8 a = load8(acc + 8 * j);
    const V8 c = clamp01(a);
    store8(grad_w + 8 * j, load8(grad_w + 8 * j) + g * c * c);
    const V8 d = 2.0f * g * load8(w + 8 * j) * a;
    store8(d_acc + 8 * j, a > zero && a < one ? d : zero);
  }
}

// Adds `d_acc` to the gradient rows of one perspective's active features.
void add_rows_wide(int h, const std::uint32_t* rows, int count, const float* d_acc, float* grad) {
  for (int slice = 0; slice < h; slice += kWide) {
    V8 d[kBlocks];
    for (int j = 0; j < kBlocks; ++j) d[j] = load8(d_acc + slice + 8 * j);
    for (int k = 0; k < count; ++k) {
      float* row = grad + rows[k] + slice;
      for (int j = 0; j < kBlocks; ++j) store8(row + 8 * j, load8(row + 8 * j) + d[j]);
    }
  }
}

[[nodiscard]] bool wide(int hidden) { return hidden == kWide || hidden == 2 * kWide; }

// Fills the scratch's row lists with the active rows of both perspectives and returns their
// length: the sample's pieces in their king buckets, then their factoriser rows.
int gather(const Network& net, const Sample& s, Scratch& scratch) {
  std::array<std::uint16_t, kMaxFeatures> features{};
  const auto h = std::uint32_t(net.hidden);
  const auto factoriser = std::uint32_t(net.factoriser_offset());
  const int n = s.count;
  for (const Color c : {WHITE, BLACK}) {
    active_features(s, net.king_buckets, c, features.data());
    std::uint32_t* rows = (c == WHITE ? scratch.white_rows : scratch.black_rows).data();
    for (int k = 0; k < n; ++k) rows[k] = features[std::size_t(k)] * h;
    if (net.factoriser)
      for (int k = 0; k < n; ++k)
        rows[n + k] = factoriser + std::uint32_t(features[std::size_t(k)] % kInputs) * h;
  }
  return net.factoriser ? 2 * n : n;
}

float forward(const Network& net, const Sample& s, Scratch& scratch) {
  const int h = net.hidden;
  float* white = scratch.acc_white.data();
  float* black = scratch.acc_black.data();
  const int count = gather(net, s, scratch);
  const int bucket = net.bucket(s);
  const float* w2 = net.weight2(bucket);
  const float* us = s.side_to_move == WHITE ? white : black;
  const float* them = s.side_to_move == WHITE ? black : white;
  if (wide(h)) {
    accumulate_wide(net, scratch.white_rows.data(), count, white);
    accumulate_wide(net, scratch.black_rows.data(), count, black);
    if (h == kWide)
      return output_half_wide<kWide>(us, w2) + output_half_wide<kWide>(them, w2 + h) +
             net.bias2(bucket);
    return output_half_wide<2 * kWide>(us, w2) + output_half_wide<2 * kWide>(them, w2 + h) +
           net.bias2(bucket);
  }
  accumulate_any(net, scratch.white_rows.data(), count, white);
  accumulate_any(net, scratch.black_rows.data(), count, black);
  return output_half_any(h, us, w2) + output_half_any(h, them, w2 + h) + net.bias2(bucket);
}

void touch(Gradient& grad, std::uint32_t row) {
  if (grad.touched[row]) return;
  grad.touched[row] = 1;
  grad.rows.push_back(std::uint16_t(row));
}

}  // namespace

Network random_network(int hidden, std::uint64_t seed, int buckets, const KingBuckets& layout,
                       bool factoriser) {
  if (layout.count > 1) {
    return spread_over_king_buckets(random_network(hidden, seed, buckets), layout, factoriser);
  }
  Network net(hidden, buckets, layout, factoriser);
  std::mt19937_64 rng(seed);
  // About 30 active inputs: accumulators start near 0.5 with a spread of about 0.1.
  std::uniform_real_distribution<float> first(-0.03f, 0.03f);
  std::uniform_real_distribution<float> second(-1.0f / std::sqrt(float(2 * hidden)),
                                               1.0f / std::sqrt(float(2 * hidden)));
  // One block of 768 rows (in the factoriser, if there is one), then the output layer.
  const std::size_t block = std::size_t(kInputs) * std::size_t(hidden);
  float* shared = factoriser ? net.params.data() + net.factoriser_offset() : net.params.data();
  for (std::size_t i = 0; i < block; ++i) shared[i] = first(rng);
  for (std::size_t i = net.bias1_offset(); i < net.weight2_offset(); ++i) net.params[i] = 0.5f;
  // Every bucket starts from the same output layer: buckets differ only where the data does.
  const auto h2 = std::size_t(2 * hidden);
  for (std::size_t i = 0; i < h2; ++i) net.params[net.weight2_offset() + i] = second(rng);
  for (std::size_t b = 1; b < std::size_t(buckets); ++b)
    std::copy_n(net.params.begin() + std::ptrdiff_t(net.weight2_offset()), h2,
                net.params.begin() + std::ptrdiff_t(net.weight2_offset() + b * h2));
  std::fill(net.params.begin() + std::ptrdiff_t(net.bias2_offset()),
            net.params.begin() + std::ptrdiff_t(net.factoriser_offset()), 0.0f);
  return net;
}

void clip(Network& net) {
  float* p = net.params.data();
  if (net.factoriser) {
    // The factoriser first, then each bucket row within what its factoriser row leaves.
    const std::size_t block = std::size_t(kInputs) * std::size_t(net.hidden);
    float* shared = p + net.factoriser_offset();
    for (std::size_t i = 0; i < block; ++i)
      shared[i] = std::clamp(shared[i], -kMaxWeight1, kMaxWeight1);
    for (std::size_t b = 0; b < std::size_t(net.king_buckets.count); ++b) {
      float* rows = p + b * block;
      for (std::size_t i = 0; i < block; ++i)
        rows[i] = std::clamp(rows[i], -kMaxWeight1 - shared[i], kMaxWeight1 - shared[i]);
    }
  } else {
    for (std::size_t i = 0; i < net.bias1_offset(); ++i)
      p[i] = std::clamp(p[i], -kMaxWeight1, kMaxWeight1);
  }
  for (std::size_t i = net.bias1_offset(); i < net.weight2_offset(); ++i)
    p[i] = std::clamp(p[i], -kMaxWeight1, kMaxWeight1);
  for (std::size_t i = net.weight2_offset(); i < net.bias2_offset(); ++i)
    p[i] = std::clamp(p[i], -kMaxWeight2, kMaxWeight2);
}

void round_output_weights(Network& net) {
  for (std::size_t i = net.weight2_offset(); i < net.bias2_offset(); ++i)
    net.params[i] = std::round(net.params[i] * float(kQB)) / float(kQB);
}

void fold(const Network& net, Network& out) {
  out.hidden = net.hidden;
  out.buckets = net.buckets;
  out.king_buckets = net.king_buckets;
  out.factoriser = false;
  const std::size_t n = net.factoriser_offset();
  out.params.resize(n);
  std::copy_n(net.params.begin(), n, out.params.begin());
  if (!net.factoriser) return;
  const std::size_t block = std::size_t(kInputs) * std::size_t(net.hidden);
  const float* __restrict shared = net.params.data() + net.factoriser_offset();
  for (std::size_t b = 0; b < std::size_t(net.king_buckets.count); ++b) {
    float* __restrict rows = out.params.data() + b * block;
    for (std::size_t i = 0; i < block; ++i) rows[i] += shared[i];
  }
}

Network fold(const Network& net) {
  Network out;
  fold(net, out);
  return out;
}

Network with_factoriser(const Network& net, bool factorised) {
  if (net.factoriser == factorised) return net;
  if (!factorised) return fold(net);
  Network out(net.hidden, net.buckets, net.king_buckets, true);
  std::copy(net.params.begin(), net.params.end(), out.params.begin());
  return out;
}

Network spread_over_king_buckets(const Network& one, const KingBuckets& layout, bool factorised) {
  Network out(one.hidden, one.buckets, layout, factorised);
  const Network plain = fold(one);
  const auto block = std::ptrdiff_t(kInputs) * one.hidden;
  const auto src = plain.params.begin();
  auto dst = out.params.begin();
  if (factorised) {
    std::copy_n(src, block, dst + std::ptrdiff_t(out.factoriser_offset()));
  } else {
    for (int b = 0; b < layout.count; ++b) std::copy_n(src, block, dst + b * block);
  }
  // Biases and output layers: the same in both layouts, after the first layer.
  std::copy(src + block, src + std::ptrdiff_t(plain.factoriser_offset()),
            dst + std::ptrdiff_t(out.bias1_offset()));
  return out;
}

Network widen(const Network& narrow, int hidden, std::uint64_t seed) {
  const Network plain = fold(narrow);
  const int h0 = plain.hidden;
  // A fresh network of the new width, whose first h0 lanes then take the narrow one's weights.
  Network out = random_network(hidden, seed, plain.buckets, plain.king_buckets, false);
  // Each first-layer row and the bias (the row after the last).
  for (int r = 0; r <= plain.input_rows(); ++r)
    std::copy_n(plain.params.data() + std::size_t(r) * h0, h0,
                out.params.data() + std::size_t(r) * hidden);
  // Output layers: each half's old weights, zero for the new lanes; the biases as they were.
  for (int b = 0; b < plain.buckets; ++b) {
    for (int half = 0; half < 2; ++half) {
      float* dst = out.params.data() + out.weight2_offset() + std::size_t(b) * 2 * hidden +
                   std::size_t(half) * hidden;
      std::copy_n(plain.weight2(b) + half * h0, h0, dst);
      std::fill(dst + h0, dst + hidden, 0.0f);
    }
    out.params[out.bias2_offset() + std::size_t(b)] = plain.bias2(b);
  }
  return out;
}

float evaluate(const Network& net, const Sample& s, Scratch& scratch) {
  return forward(net, s, scratch);
}

void Gradient::clear() {
  for (const std::uint16_t r : rows) {
    std::fill_n(values.begin() + std::ptrdiff_t(r) * hidden, hidden, 0.0f);
    touched[r] = 0;
  }
  rows.clear();
  std::fill(values.begin() + std::ptrdiff_t(touched.size()) * hidden, values.end(), 0.0f);
}

void Gradient::add(const Gradient& other) {
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
  for (std::size_t i = touched.size() * h; i < values.size(); ++i) values[i] += other.values[i];
}

void add_factoriser_gradient(const Network& net, Gradient& grad) {
  if (!net.factoriser) return;
  const auto h = std::size_t(net.hidden);
  float* __restrict shared = grad.values.data() + net.factoriser_offset();
  for (const std::uint16_t r : grad.rows) {
    float* __restrict dst = shared + std::size_t(r % kInputs) * h;
    const float* __restrict src = grad.values.data() + std::size_t(r) * h;
    for (std::size_t i = 0; i < h; ++i) dst[i] += src[i];
  }
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
    backward_half_wide<kWide>(g, white, w2 + white_half, gw2 + white_half, d_white);
    backward_half_wide<kWide>(g, black, w2 + black_half, gw2 + black_half, d_black);
  } else if (h == 2 * kWide) {
    backward_half_wide<2 * kWide>(g, white, w2 + white_half, gw2 + white_half, d_white);
    backward_half_wide<2 * kWide>(g, black, w2 + black_half, gw2 + black_half, d_black);
  } else {
    backward_half_any(h, g, white, w2 + white_half, gw2 + white_half, d_white);
    backward_half_any(h, g, black, w2 + black_half, gw2 + black_half, d_black);
  }
  grad.values[net.bias2_offset() + std::size_t(bucket)] += g;
  float* gb1 = grad.values.data() + net.bias1_offset();
  for (int i = 0; i < h; ++i) gb1[i] += d_white[i] + d_black[i];

  // The bucket rows (the first s.count of each list) are sparse; factoriser rows are dense.
  for (int k = 0; k < s.count; ++k) {
    touch(grad, scratch.white_rows[std::size_t(k)] / std::uint32_t(h));
    touch(grad, scratch.black_rows[std::size_t(k)] / std::uint32_t(h));
  }
  const int count = net.factoriser ? 2 * s.count : s.count;
  if (wide(h)) {
    add_rows_wide(h, scratch.white_rows.data(), count, d_white, grad.values.data());
    add_rows_wide(h, scratch.black_rows.data(), count, d_black, grad.values.data());
  } else {
    add_rows_any(h, scratch, count, grad.values.data());
  }
  return double(err) * double(err);
}

}  // namespace tessera::trainer
