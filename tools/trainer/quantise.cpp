#include "quantise.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <thread>

namespace tessera::trainer {

namespace {

std::int16_t round16(float x, int factor, int limit) {
  const long q = std::lround(double(x) * factor);
  return std::int16_t(std::clamp<long>(q, -limit, limit));
}

// clamp(acc, 0, QA)^2 * w summed over one half of the output layer.
std::int64_t output_half(const std::vector<int>& acc, const std::int16_t* w) {
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < acc.size(); ++i) {
    const std::int64_t c = std::clamp(acc[i], 0, kQA);
    sum += c * c * w[i];
  }
  return sum;
}

}  // namespace

QuantisedNetwork quantise(const Network& factorised, int scale) {
  const Network net = fold(factorised);
  QuantisedNetwork q;
  q.hidden = std::uint32_t(net.hidden);
  q.buckets = std::uint32_t(net.buckets);
  q.scale = scale;
  q.king_buckets = net.king_buckets;
  const float* p = net.params.data();
  for (std::size_t i = 0; i < net.bias1_offset(); ++i)
    q.ft_weights.push_back(round16(p[i], kQA, 32767));
  for (std::size_t i = net.bias1_offset(); i < net.weight2_offset(); ++i)
    q.ft_bias.push_back(round16(p[i], kQA, 32767));
  for (std::size_t i = net.weight2_offset(); i < net.bias2_offset(); ++i)
    q.out_weights.push_back(round16(p[i], kQB, eval::nnue::kMaxOutputWeight));
  for (int b = 0; b < net.buckets; ++b)
    q.out_bias.push_back(std::int32_t(std::lround(double(net.bias2(b)) * kQA * kQB)));
  return q;
}

Network dequantise(const QuantisedNetwork& q) {
  Network net(int(q.hidden), int(q.buckets), q.king_buckets);
  float* p = net.params.data();
  std::size_t i = 0;
  for (const std::int16_t w : q.ft_weights) p[i++] = float(w) / kQA;
  for (const std::int16_t b : q.ft_bias) p[i++] = float(b) / kQA;
  for (const std::int16_t w : q.out_weights) p[i++] = float(w) / kQB;
  for (const std::int32_t b : q.out_bias) p[i++] = float(double(b) / (double(kQA) * kQB));
  return net;
}

int quantised_eval(const QuantisedNetwork& q, const Sample& s) {
  const auto h = std::size_t(q.hidden);
  std::vector<int> white(q.ft_bias.begin(), q.ft_bias.end()), black = white;
  std::array<std::uint16_t, kMaxFeatures> white_rows{}, black_rows{};
  active_features(s, q.king_buckets, WHITE, white_rows.data());
  active_features(s, q.king_buckets, BLACK, black_rows.data());
  for (std::size_t k = 0; k < s.count; ++k) {
    const std::int16_t* rw = q.ft_weights.data() + std::size_t(white_rows[k]) * h;
    const std::int16_t* rb = q.ft_weights.data() + std::size_t(black_rows[k]) * h;
    for (std::size_t i = 0; i < h; ++i) {
      white[i] += rw[i];
      black[i] += rb[i];
    }
  }
  const bool white_to_move = s.side_to_move == WHITE;
  const auto bucket = std::size_t(output_bucket(int(q.buckets), s));
  const std::int16_t* out = q.out_weights.data() + bucket * 2 * h;
  const std::int64_t sum = output_half(white_to_move ? white : black, out) +
                           output_half(white_to_move ? black : white, out + h);
  const std::int64_t value = sum / kQA + q.out_bias[bucket];
  return int(value * q.scale / (kQA * kQB));
}

double quantised_loss(const QuantisedNetwork& q, const std::vector<Sample>& samples, float lambda,
                      int threads) {
  if (samples.empty()) return 0.0;
  const auto n = std::size_t(std::max(threads, 1));
  std::vector<double> partial(n, 0.0);
  const auto part = [&](std::size_t t) {
    double sum = 0;
    for (std::size_t i = samples.size() * t / n; i < samples.size() * (t + 1) / n; ++i) {
      const float p = sigmoid(float(quantised_eval(q, samples[i])) / float(q.scale));
      const float err = p - target(samples[i], lambda, float(q.scale));
      sum += double(err) * double(err);
    }
    partial[t] = sum;
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < n; ++t) pool.emplace_back(part, t);
  part(0);
  for (auto& th : pool) th.join();
  return std::accumulate(partial.begin(), partial.end(), 0.0) / double(samples.size());
}

bool write_network(const QuantisedNetwork& q, const std::string& path, std::string& error) {
  return eval::nnue::write_network_file(path, q, error);
}

}  // namespace tessera::trainer
