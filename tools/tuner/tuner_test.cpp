// The tuner's model must be the engine's evaluation, its gradient must be the loss's
// derivative, K must be found where it is, Adam must lower the loss, and the weights file must
// carry every weight.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <regex>

#include "core/movegen.h"
#include "eval/evaluate.h"
#include "eval/weights.h"
#include "tuner_core.h"

namespace tessera::tuner {
namespace {

// Positions of random games from the start position, with their coefficients.
Dataset random_dataset(int games, int plies, std::vector<Position>* positions = nullptr) {
  Dataset d;
  std::mt19937_64 rng(123);
  for (int g = 0; g < games; ++g) {
    std::string error;
    Position pos = *Position::from_fen(Position::kStartFen, false, error);
    for (int ply = 0; ply < plies; ++ply) {
      const MoveList<GenType::All> moves(pos);
      if (moves.empty()) break;
      pos.make_move(moves[rng() % moves.size()]);
      const eval::EvalCoefficients c = eval::evaluate_coefficients(pos);
      if (c.specialised) continue;
      add_sample(d, c, float(rng() % 3) / 2.0f, 0.0f);
      if (positions) positions->push_back(pos);
    }
  }
  return d;
}

TEST(Tuner, ModelIsTheEvaluation) {
  std::vector<Position> positions;
  const Dataset d = random_dataset(20, 60, &positions);
  ASSERT_GT(d.samples.size(), 500u);
  const Weights w = initial_weights();
  for (std::size_t i = 0; i < d.samples.size(); ++i) {
    const int engine = positions[i].side_to_move() == WHITE ? eval::evaluate(positions[i])
                                                            : -eval::evaluate(positions[i]);
    // The engine rounds twice towards zero; the model does not round.
    ASSERT_NEAR(model_eval(d, d.samples[i], w), engine, 2.0) << positions[i].fen();
  }
}

TEST(Tuner, GradientMatchesFiniteDifferences) {
  const Dataset d = random_dataset(4, 40);
  std::vector<std::uint32_t> order(d.samples.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = std::uint32_t(i);
  Weights w = initial_weights();
  const double k = 0.006;
  std::vector<double> grad(w.size(), 0.0);
  accumulate_gradient(d, order, 0, order.size(), w, k, 2, grad);
  // Material (mg and eg of the knight), a piece-square entry and tempo.
  const std::size_t n = std::size_t(eval::kWeightCount);
  for (std::size_t i :
       {std::size_t(1), n + 1, std::size_t(eval::group_offset(eval::Group::Psqt) + 12),
        std::size_t(eval::group_offset(eval::Group::Tempo))}) {
    const double h = 0.5;
    Weights up = w, down = w;
    up[i] += h;
    down[i] -= h;
    const double numeric = (loss(d, up, k, 1) - loss(d, down, k, 1)) / (2 * h);
    EXPECT_NEAR(grad[i], numeric, 1e-6 + 1e-3 * std::abs(numeric)) << "weight " << i;
  }
}

TEST(Tuner, FitsTheSigmoidScale) {
  Dataset d = random_dataset(10, 60);
  const Weights w = initial_weights();
  const double k0 = 0.0071;
  for (Sample& s : d.samples) s.result = float(sigmoid(k0 * model_eval(d, s, w)));
  EXPECT_NEAR(fit_k(d, w, 2), k0, k0 * 0.02);
}

TEST(Tuner, AdamLowersTheLoss) {
  Dataset d = random_dataset(10, 60);
  // Targets that the weights can reach: the evaluation with every knight worth 100 cp more.
  Weights goal = initial_weights();
  goal[1] += 100;
  goal[std::size_t(eval::kWeightCount) + 1] += 100;
  const double k = 0.006;
  for (Sample& s : d.samples) s.target = float(sigmoid(k * model_eval(d, s, goal)));
  Weights w = initial_weights();
  const double before = loss(d, w, k, 2);
  Adam adam;
  adam.learning_rate = 2.0;
  std::vector<std::uint32_t> order(d.samples.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = std::uint32_t(i);
  const std::vector<bool> frozen(w.size(), false);
  for (int step = 0; step < 100; ++step) {
    std::vector<double> grad(w.size(), 0.0);
    accumulate_gradient(d, order, 0, order.size(), w, k, 2, grad);
    adam.update(w, grad, frozen);
  }
  EXPECT_LT(loss(d, w, k, 2), before * 0.5);
}

TEST(Tuner, WeightsHeaderCarriesEveryWeight) {
  const std::vector<eval::S> weights = rounded(initial_weights());
  const std::string text = format_weights_header(weights, "test");
  const std::regex pair(R"(S\{(-?\d+), (-?\d+)\})");
  std::vector<eval::S> parsed;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pair); it != std::sregex_iterator();
       ++it)
    parsed.push_back({std::stoi((*it)[1]), std::stoi((*it)[2])});
  ASSERT_EQ(parsed.size(), std::size_t(eval::kWeightCount));
  for (std::size_t i = 0; i < parsed.size(); ++i) EXPECT_EQ(parsed[i], eval::kWeights[i]) << i;
  for (const auto& g : eval::kGroups)
    EXPECT_NE(text.find(std::string("// ") + g.name + "\n"), std::string::npos) << g.name;
}

}  // namespace
}  // namespace tessera::tuner
