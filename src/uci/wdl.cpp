#include "uci/wdl.h"

#include <algorithm>
#include <cmath>

#include "core/bitboard.h"

namespace tessera::uci {

namespace {

[[nodiscard]] double polynomial(const std::array<double, 3>& c, double x) {
  return c[0] + (c[1] + c[2] * x) * x;
}

[[nodiscard]] double logistic(double t) { return 1.0 / (1.0 + std::exp(-t)); }

// b below this would make the model a step function (or flip it): a fit never gets there, and
// constants pasted by hand must not divide by zero.
constexpr double kMinimumScale = 1.0;

[[nodiscard]] double scale(const WdlModel& model, double x) {
  return std::max(polynomial(model.b, x), kMinimumScale);
}

[[nodiscard]] double material_x(int material) {
  return double(std::clamp(material, 0, kWdlMaxMaterial)) / kWdlMaxMaterial;
}

}  // namespace

int wdl_material(const Position& pos) { return eval::material_in_pawns(pos); }

double wdl_win_probability(const WdlModel& model, double score, int material) {
  const double x = material_x(material);
  return logistic((score - polynomial(model.a, x)) / scale(model, x));
}

double wdl_loss_probability(const WdlModel& model, double score, int material) {
  return wdl_win_probability(model, -score, material);
}

WdlPerMille wdl_per_mille(const WdlModel& model, int score, int material) {
  WdlPerMille r;
  r.win = int(std::lround(1000 * wdl_win_probability(model, score, material)));
  r.loss =
      std::min(int(std::lround(1000 * wdl_loss_probability(model, score, material))), 1000 - r.win);
  r.draw = 1000 - r.win - r.loss;
  return r;
}

WdlPerMille wdl_of(const search::SearchInfo& info, const Position& root) {
  if (info.is_mate) {
    // `mate 0` is the side to move being mated.
    if (info.mate_moves > 0) return {1000, 0, 0};
    return {0, 0, 1000};
  }
  return wdl_per_mille(kWdlModel, info.score, wdl_material(root));
}

}  // namespace tessera::uci
