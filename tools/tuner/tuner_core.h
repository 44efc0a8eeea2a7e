// The Texel tuner's model: the evaluation as a linear function of its weights, the loss, its
// gradient, the fit of the sigmoid's scale K, Adam, and the weights file it writes.
//
// Policy. A training position is stored once, as the sparse coefficients of the weights
// (evaluate_coefficients()), its phase and drawish scale, and its target. The model's
// evaluation of a position is then exactly the engine's for the weights being tuned (the
// scale is frozen at the value the initial weights gave). The loss is the mean squared error
// between sigmoid(K * eval) and the target, a blend of the game result and the sigmoid of the
// search score: lambda * result + (1 - lambda) * sigmoid(K * score).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "eval/evaluate.h"
#include "eval/params.h"

namespace tessera::tuner {

struct Sample {
  float result = 0.5f;     // white's game result: 0, 0.5 or 1
  float score = 0.0f;      // search score, centipawns, white's point of view
  float target = 0.5f;     // filled by set_targets()
  std::uint8_t phase = 0;  // 0..kMaxPhase
  std::uint8_t scale = 64;
  std::uint32_t begin = 0;  // coefficients [begin, end) in the Dataset's arrays
  std::uint32_t end = 0;
};

struct Dataset {
  std::vector<Sample> samples;
  std::vector<std::uint16_t> index;
  std::vector<std::int16_t> coefficient;
};

// Appends a position, given by its coefficients, with its game result and search score.
void add_sample(Dataset& d, const eval::EvalCoefficients& c, float result, float score);

// mg weights at [0, kWeightCount), eg weights at [kWeightCount, 2 * kWeightCount).
using Weights = std::vector<double>;

[[nodiscard]] Weights initial_weights();  // the engine's compiled-in weights
[[nodiscard]] std::vector<eval::S> rounded(const Weights& w);

// The model's evaluation of sample `s`, white's point of view, in centipawns.
[[nodiscard]] double model_eval(const Dataset& d, const Sample& s, const Weights& w);

[[nodiscard]] double sigmoid(double x);

// Mean squared error of sigmoid(K * eval) against the targets (or the game results).
[[nodiscard]] double loss(const Dataset& d, const Weights& w, double k, int threads,
                          bool against_results = false);

// Adds the gradient of the loss over samples [first, last) of `order` to `grad`.
void accumulate_gradient(const Dataset& d, const std::vector<std::uint32_t>& order,
                         std::size_t first, std::size_t last, const Weights& w, double k,
                         int threads, std::vector<double>& grad);

// The K minimising the loss against the game results, by golden-section search.
[[nodiscard]] double fit_k(const Dataset& d, const Weights& w, int threads);

void set_targets(Dataset& d, double k, double lambda);

struct Adam {
  double learning_rate = 1.0;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  std::vector<double> m, v;
  long step = 0;
  void update(Weights& w, const std::vector<double>& grad, const std::vector<bool>& frozen);
};

// The source text of src/eval/weights.h for these weights.
[[nodiscard]] std::string format_weights_header(const std::vector<eval::S>& weights,
                                                const std::string& provenance);

}  // namespace tessera::tuner
