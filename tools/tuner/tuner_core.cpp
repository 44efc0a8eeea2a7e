#include "tuner_core.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "eval/evaluate.h"
#include "eval/weights.h"

namespace tessera::tuner {

namespace {

constexpr int kN = eval::kWeightCount;

// Runs fn(first, last, thread) over [0, count) split into `threads` contiguous parts.
template <class Fn>
void parallel_for(std::size_t count, int threads, Fn fn) {
  threads = std::max(1, std::min<int>(threads, int(count / 1024) + 1));
  if (threads == 1) {
    fn(std::size_t(0), count, 0);
    return;
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    const std::size_t first = count * std::size_t(t) / std::size_t(threads);
    const std::size_t last = count * std::size_t(t + 1) / std::size_t(threads);
    pool.emplace_back(fn, first, last, t);
  }
  for (auto& th : pool) th.join();
}

}  // namespace

void add_sample(Dataset& d, const eval::EvalCoefficients& c, float result, float score) {
  Sample s;
  s.result = result;
  s.target = result;
  s.score = score;
  s.phase = std::uint8_t(c.phase);
  s.scale = std::uint8_t(c.scale);
  s.begin = std::uint32_t(d.index.size());
  for (const auto& [index, coefficient] : c.terms) {
    d.index.push_back(index);
    d.coefficient.push_back(coefficient);
  }
  s.end = std::uint32_t(d.index.size());
  d.samples.push_back(s);
}

Weights initial_weights() {
  Weights w(2 * static_cast<std::size_t>(kN));
  for (int i = 0; i < kN; ++i) {
    w[std::size_t(i)] = eval::kWeights[std::size_t(i)].mg;
    w[std::size_t(kN + i)] = eval::kWeights[std::size_t(i)].eg;
  }
  return w;
}

std::vector<eval::S> rounded(const Weights& w) {
  std::vector<eval::S> out(static_cast<std::size_t>(kN));
  for (int i = 0; i < kN; ++i)
    out[std::size_t(i)] = {int(std::lround(w[std::size_t(i)])),
                           int(std::lround(w[std::size_t(kN + i)]))};
  return out;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

double model_eval(const Dataset& d, const Sample& s, const Weights& w) {
  double mg = 0, eg = 0;
  for (std::uint32_t j = s.begin; j < s.end; ++j) {
    const double c = d.coefficient[j];
    mg += c * w[d.index[j]];
    eg += c * w[std::size_t(kN) + d.index[j]];
  }
  const double phase = s.phase;
  return (mg * phase + eg * (eval::kMaxPhase - phase)) / eval::kMaxPhase * s.scale /
         eval::kScaleNormal;
}

double loss(const Dataset& d, const Weights& w, double k, int threads, bool against_results) {
  std::vector<double> partial(std::size_t(std::max(threads, 1)), 0.0);
  parallel_for(d.samples.size(), threads, [&](std::size_t first, std::size_t last, int t) {
    double sum = 0;
    for (std::size_t i = first; i < last; ++i) {
      const Sample& s = d.samples[i];
      const double target = against_results ? s.result : s.target;
      const double err = sigmoid(k * model_eval(d, s, w)) - target;
      sum += err * err;
    }
    partial[std::size_t(t)] = sum;
  });
  double total = 0;
  for (double p : partial) total += p;
  return d.samples.empty() ? 0.0 : total / double(d.samples.size());
}

void accumulate_gradient(const Dataset& d, const std::vector<std::uint32_t>& order,
                         std::size_t first, std::size_t last, const Weights& w, double k,
                         int threads, std::vector<double>& grad) {
  const std::size_t n = last - first;
  std::vector<std::vector<double>> partial(std::size_t(std::max(threads, 1)));
  parallel_for(n, threads, [&](std::size_t a, std::size_t b, int t) {
    std::vector<double>& g = partial[std::size_t(t)];
    g.assign(2 * std::size_t(kN), 0.0);
    for (std::size_t i = first + a; i < first + b; ++i) {
      const Sample& s = d.samples[order[i]];
      const double p = sigmoid(k * model_eval(d, s, w));
      // d(loss)/d(eval) for this sample; the factor 2/N is applied below.
      const double base = (p - s.target) * p * (1 - p) * k * s.scale / eval::kScaleNormal;
      const double mg_factor = base * s.phase / eval::kMaxPhase;
      const double eg_factor = base * (eval::kMaxPhase - s.phase) / eval::kMaxPhase;
      for (std::uint32_t j = s.begin; j < s.end; ++j) {
        const double c = d.coefficient[j];
        g[d.index[j]] += c * mg_factor;
        g[std::size_t(kN) + d.index[j]] += c * eg_factor;
      }
    }
  });
  const double scale = n ? 2.0 / double(n) : 0.0;
  for (const auto& g : partial)
    for (std::size_t i = 0; i < g.size(); ++i) grad[i] += g[i] * scale;
}

double fit_k(const Dataset& d, const Weights& w, int threads) {
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double lo = 0.0005, hi = 0.05;
  double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
  double f1 = loss(d, w, x1, threads, true), f2 = loss(d, w, x2, threads, true);
  for (int i = 0; i < 40; ++i) {
    if (f1 < f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - phi * (hi - lo);
      f1 = loss(d, w, x1, threads, true);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + phi * (hi - lo);
      f2 = loss(d, w, x2, threads, true);
    }
  }
  return (lo + hi) / 2;
}

void set_targets(Dataset& d, double k, double lambda) {
  for (Sample& s : d.samples)
    s.target = float(lambda * s.result + (1 - lambda) * sigmoid(k * s.score));
}

void Adam::update(Weights& w, const std::vector<double>& grad, const std::vector<bool>& frozen) {
  if (m.empty()) {
    m.assign(w.size(), 0.0);
    v.assign(w.size(), 0.0);
  }
  ++step;
  const double c1 = 1 - std::pow(beta1, double(step));
  const double c2 = 1 - std::pow(beta2, double(step));
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (frozen[i]) continue;
    m[i] = beta1 * m[i] + (1 - beta1) * grad[i];
    v[i] = beta2 * v[i] + (1 - beta2) * grad[i] * grad[i];
    w[i] -= learning_rate * (m[i] / c1) / (std::sqrt(v[i] / c2) + epsilon);
  }
}

std::string format_weights_header(const std::vector<eval::S>& weights,
                                  const std::string& provenance) {
  std::string out = fmt::format(
      "// The evaluation's weights, in the order of eval/params.h.\n"
      "//\n"
      "// Written by the tuner (tools/tuner, `tessera-tune ... --write src/eval/weights.h`); a "
      "hand edit\n"
      "// is fine for seeding a new run, the next tuning run overwrites it.\n"
      "// {}\n"
      "#pragma once\n\n"
      "#include \"eval/params.h\"\n\n"
      "namespace tessera::eval {{\n\n"
      "// clang-format off\n"
      "inline constexpr std::array<S, kWeightCount> kWeights = {{{{\n",
      provenance);
  for (std::size_t g = 0; g < std::size_t(eval::Group::Count); ++g) {
    const auto group = eval::Group(g);
    out += fmt::format("    // {}\n", eval::kGroups[g].name);
    const int begin = eval::group_offset(group);
    const int size = eval::group_size(group);
    for (int i = 0; i < size; i += 8) {
      out += "   ";
      for (int j = i; j < std::min(size, i + 8); ++j) {
        const eval::S s = weights[std::size_t(begin + j)];
        out += fmt::format(" S{{{}, {}}},", s.mg, s.eg);
      }
      out += "\n";
    }
  }
  out += "}};\n// clang-format on\n\n}  // namespace tessera::eval\n";
  return out;
}

}  // namespace tessera::tuner
