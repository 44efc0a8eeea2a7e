// The win-draw-loss model behind UCI_ShowWDL: how often Tessera's own games were won, drawn
// and lost from positions its search scored `s` centipawns (side to move) with `m` points of
// material on the board (pawn 1, knight and bishop 3, rook 5, queen 9, both sides; 78 at the
// start).
//
// Model. P(win) = 1 / (1 + exp((a - s) / b)) and P(loss) = 1 / (1 + exp((a + s) / b)), with
// a and b quadratic in x = min(m, 78) / 78: `a` is the score at which a win becomes as likely as
// not and `b` how sharply the odds turn. The same score means more with less material left, which
// is why a and b depend on it. The constants are fitted by maximum likelihood to `tessera
// datagen` records with tools/wdl (`tessera-wdl-fit`), whose output is pasted below.
#pragma once

#include <array>

#include "core/position.h"
#include "engine/engine.h"
#include "eval/material_scale.h"

namespace tessera::uci {

struct WdlModel {
  std::array<double, 3> a;  // a(x) = a[0] + a[1] x + a[2] x^2, centipawns
  std::array<double, 3> b;  // b(x) likewise
};

struct WdlPerMille {
  int win = 0;
  int draw = 0;
  int loss = 0;  // win + draw + loss == 1000
};

inline constexpr int kWdlMaxMaterial = eval::kStartingMaterialInPawns;

// Fitted by `tessera-wdl-fit --data /work/shared/data/training/hce-cd5244b-s20261201.bin.zst`
// (2.3 M positions not in check and within 3000 cp, from 21,916 games of self-play at 5,000
// nodes a move; mean log loss 0.657 against 1.095 for a model that ignores the score). Even
// odds of a win come at +82 cp with all the material on the board and at +200 cp with a fifth
// of it.
inline constexpr WdlModel kWdlModel = {{309.26, -624.48, 396.99}, {111.43, -128.38, 145.98}};

// Material as the model counts it.
[[nodiscard]] int wdl_material(const Position& pos);

// The model's probabilities of a win and of a loss for the side to move.
[[nodiscard]] double wdl_win_probability(const WdlModel& model, double score, int material);
[[nodiscard]] double wdl_loss_probability(const WdlModel& model, double score, int material);

// The model's verdict in per mille (the loss gives way when rounding would pass 1000).
[[nodiscard]] WdlPerMille wdl_per_mille(const WdlModel& model, int score, int material);

// The `wdl` of an info line: a mate is certain; other scores, tablebase results included, go
// through the model with the root's material.
[[nodiscard]] WdlPerMille wdl_of(const search::SearchInfo& info, const Position& root);

}  // namespace tessera::uci
