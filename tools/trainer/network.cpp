#include "network.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace tessera::trainer {

namespace {

// The kernels take the hidden size as a template argument where it is the common one, so that
// the compiler unrolls and vectorises the rows; kH == 0 is the general case.
template <int kH>
int hidden_of(const Network& net) {
  return kH > 0 ? kH : net.hidden;
}

// Both perspectives' accumulators of `s`.
template <int kH>
void accumulate(const Network& net, const Sample& s, float* __restrict white,
                float* __restrict black) {
  const int h = hidden_of<kH>(net);
  const float* bias = net.bias1();
  for (int i = 0; i < h; ++i) white[i] = black[i] = bias[i];
  for (int k = 0; k < s.count; ++k) {
    const int f = s.features[std::size_t(k)];
    const float* __restrict rw = net.row(f);
    const float* __restrict rb = net.row(black_feature(f));
    for (int i = 0; i < h; ++i) {
      white[i] += rw[i];
      black[i] += rb[i];
    }
  }
}

// sum_i screlu(acc[i]) * w[i].
template <int kH>
float output_half(const Network& net, const float* __restrict acc, const float* __restrict w) {
  const int h = hidden_of<kH>(net);
  float sum = 0.0f;
  for (int i = 0; i < h; ++i) {
    const float c = std::clamp(acc[i], 0.0f, 1.0f);
    sum += c * c * w[i];
  }
  return sum;
}

template <int kH>
float forward(const Network& net, const Sample& s, Scratch& scratch) {
  const int h = hidden_of<kH>(net);
  float* white = scratch.acc_white.data();
  float* black = scratch.acc_black.data();
  accumulate<kH>(net, s, white, black);
  const float* us = s.side_to_move == WHITE ? white : black;
  const float* them = s.side_to_move == WHITE ? black : white;
  const float* w2 = net.weight2();
  return output_half<kH>(net, us, w2) + output_half<kH>(net, them, w2 + h) + net.bias2();
}

// Given dL/d(out) = g: adds the output layer's gradient and writes dL/d(acc) to `d_acc`.
template <int kH>
void backward_half(const Network& net, float g, const float* __restrict acc,
                   const float* __restrict w, float* __restrict grad_w, float* __restrict d_acc) {
  const int h = hidden_of<kH>(net);
  for (int i = 0; i < h; ++i) {
    const float a = acc[i];
    const float c = std::clamp(a, 0.0f, 1.0f);
    grad_w[i] += g * c * c;
    d_acc[i] = a > 0.0f && a < 1.0f ? 2.0f * g * w[i] * a : 0.0f;
  }
}

void touch(Gradient& grad, int feature) {
  if (grad.touched[std::size_t(feature)]) return;
  grad.touched[std::size_t(feature)] = 1;
  grad.rows.push_back(std::uint16_t(feature));
}

template <int kH>
double gradient(const Network& net, const Sample& s, float target_value, float weight,
                Gradient& grad, Scratch& scratch) {
  const int h = hidden_of<kH>(net);
  const float out = forward<kH>(net, s, scratch);
  const float p = sigmoid(out);
  const float err = p - target_value;
  const float g = weight * 2.0f * err * p * (1.0f - p);

  const bool white_to_move = s.side_to_move == WHITE;
  const float* w2 = net.weight2();
  float* gw2 = grad.values.data() + net.weight2_offset();
  const float* white = scratch.acc_white.data();
  const float* black = scratch.acc_black.data();
  float* d_white = scratch.grad_white.data();
  float* d_black = scratch.grad_black.data();
  // The side to move's accumulator meets the first half of the output weights.
  backward_half<kH>(net, g, white, w2 + (white_to_move ? 0 : h), gw2 + (white_to_move ? 0 : h),
                    d_white);
  backward_half<kH>(net, g, black, w2 + (white_to_move ? h : 0), gw2 + (white_to_move ? h : 0),
                    d_black);
  grad.values[net.bias2_offset()] += g;

  float* __restrict gb1 = grad.values.data() + net.bias1_offset();
  for (int i = 0; i < h; ++i) gb1[i] += d_white[i] + d_black[i];
  for (int k = 0; k < s.count; ++k) {
    const int f = s.features[std::size_t(k)];
    const int fb = black_feature(f);
    touch(grad, f);
    touch(grad, fb);
    float* __restrict rw = grad.values.data() + std::size_t(f) * h;
    float* __restrict rb = grad.values.data() + std::size_t(fb) * h;
    for (int i = 0; i < h; ++i) rw[i] += d_white[i];
    for (int i = 0; i < h; ++i) rb[i] += d_black[i];
  }
  return double(err) * double(err);
}

}  // namespace

Network random_network(int hidden, std::uint64_t seed) {
  Network net(hidden);
  std::mt19937_64 rng(seed);
  // About 30 active inputs: accumulators start near 0.5 with a spread of about 0.1.
  std::uniform_real_distribution<float> first(-0.03f, 0.03f);
  std::uniform_real_distribution<float> second(-1.0f / std::sqrt(float(2 * hidden)),
                                               1.0f / std::sqrt(float(2 * hidden)));
  for (std::size_t i = 0; i < net.bias1_offset(); ++i) net.params[i] = first(rng);
  for (std::size_t i = net.bias1_offset(); i < net.weight2_offset(); ++i) net.params[i] = 0.5f;
  for (std::size_t i = net.weight2_offset(); i < net.bias2_offset(); ++i)
    net.params[i] = second(rng);
  net.params[net.bias2_offset()] = 0.0f;
  return net;
}

void clip(Network& net) {
  for (std::size_t i = 0; i < net.weight2_offset(); ++i)
    net.params[i] = std::clamp(net.params[i], -kMaxWeight1, kMaxWeight1);
  for (std::size_t i = net.weight2_offset(); i < net.bias2_offset(); ++i)
    net.params[i] = std::clamp(net.params[i], -kMaxWeight2, kMaxWeight2);
}

float evaluate(const Network& net, const Sample& s, Scratch& scratch) {
  return net.hidden == 128 ? forward<128>(net, s, scratch) : forward<0>(net, s, scratch);
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
  return net.hidden == 128 ? gradient<128>(net, s, target_value, weight, grad, scratch)
                           : gradient<0>(net, s, target_value, weight, grad, scratch);
}

}  // namespace tessera::trainer
