#include "engine/strength.h"

#include <algorithm>
#include <cmath>

namespace tessera::engine {
namespace {

// The calibration (docs/uci.md#strength-limiting), against Stockfish 15.1's UCI_Elo at 5+0.05: a
// budget of kReferenceNodes plays at about kReferenceElo, and every doubling of the budget is
// worth about kEloPerDoubling there; below kKneeElo, where searches are only a few plies deep,
// the budget halves every kEloPerDoublingLow Elo (measured: about 88 Elo a halving between 1,030
// and 410 nodes, and those 410 nodes played near 1620, not 1500). Randomness proved costly (a
// 33 cp temperature took some 500 Elo off a 27k-node search), so it only softens play at the
// bottom of the range, below kCarefulElo, where it carries the weakening alone: the budget
// stops falling there.
constexpr double kReferenceElo = 2030;
constexpr double kReferenceNodes = 13800;
constexpr double kEloPerDoubling = 88;
constexpr double kKneeElo = 1700;
constexpr double kEloPerDoublingLow = 80;
constexpr double kCarefulElo = 1500;
constexpr double kTemperaturePerElo = 1.0 / 12;  // centipawns of temperature per Elo below it

}  // namespace

std::uint64_t StrengthLimit::nodes() const {
  if (elo >= kMaxElo) return 0;  // the top of the range is full strength at any time control
  const double budget_elo = std::max<double>(elo, kCarefulElo);
  const double doublings = budget_elo >= kKneeElo
                               ? (budget_elo - kReferenceElo) / kEloPerDoubling
                               : (kKneeElo - kReferenceElo) / kEloPerDoubling -
                                     (kKneeElo - budget_elo) / kEloPerDoublingLow;
  // budget_elo starts at kCarefulElo, so the budget never falls below about 180 nodes.
  return std::uint64_t(kReferenceNodes * std::exp2(doublings));
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

}  // namespace tessera::engine
