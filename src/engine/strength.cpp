#include "engine/strength.h"

#include <algorithm>
#include <cmath>

namespace tessera {
namespace {

// The calibration (README, "Strength limiting"): the budget at the reference Elo, and how many
// Elo one doubling of the budget is worth. The temperature is zero from kCarefulElo up.
constexpr double kReferenceElo = 2350;
constexpr double kReferenceNodes = 400000;
constexpr double kEloPerDoubling = 90;
constexpr double kCarefulElo = 2200;
constexpr double kTemperaturePerElo = 1.0 / 6;  // centipawns of temperature per Elo below it

}  // namespace

std::uint64_t StrengthLimit::nodes() const {
  const double doublings = (elo - kReferenceElo) / kEloPerDoubling;
  const double nodes = kReferenceNodes * std::exp2(doublings);
  return std::uint64_t(std::clamp(nodes, 64.0, 1e12));
}

double StrengthLimit::temperature_cp() const {
  return std::max(0.0, (kCarefulElo - elo) * kTemperaturePerElo);
}

int StrengthLimit::margin_cp() const { return int(3 * temperature_cp()); }

std::size_t choose_weaker_move(const std::vector<ScoredMove>& lines, const StrengthLimit& limit,
                               std::mt19937_64& rng) {
  if (lines.empty() || limit.temperature_cp() <= 0) return 0;
  const ScoredMove& best = lines.front();
  if (best.is_mate && best.mate_moves > 0) return 0;  // a found mate is always played
  std::vector<double> weights;
  for (const ScoredMove& line : lines) {
    const int behind = best.score - line.score;
    const bool loses_to_mate = line.is_mate && line.mate_moves <= 0;
    const bool eligible = &line == &best || (!loses_to_mate && behind <= limit.margin_cp());
    weights.push_back(eligible ? std::exp(-std::max(0, behind) / limit.temperature_cp()) : 0.0);
  }
  // A draw by hand rather than std::discrete_distribution: the same choice for a seed on
  // every standard library.
  double total = 0;
  for (const double w : weights) total += w;
  double point = double(rng() >> 11) * 0x1.0p-53 * total;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (point < weights[i]) return i;
    point -= weights[i];
  }
  return 0;
}

}  // namespace tessera
