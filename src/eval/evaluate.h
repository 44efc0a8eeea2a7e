// Static evaluation: a hand-crafted, tapered evaluation of a position.
//
// Every term has a middlegame and an endgame value; the result blends the two by the material
// left on the board (game phase), then scales drawish material towards zero. The terms
// (eval/params.h lists them with their weights) are material and piece-square tables, the
// material imbalance, pawn structure, passed pawns, mobility, piece placement (outposts, rook
// files, the seventh rank, bad bishops), threats, king safety (shelter, storm, open files,
// attack units on the king zone, safe checks), space and tempo. Endgames the terms misjudge
// have specialised evaluators (eval/endgame.h): KXK, KBNK, KPK by bitbase, KRKP and KQKP.
//
// evaluate() is a pure function of the position and the weights. The cache (eval_cache.h)
// only saves work; the result is the same with or without one.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/position.h"
#include "eval/eval_cache.h"
#include "eval/params.h"

namespace tessera::eval {

// The position's value in centipawns from the side to move's point of view, never in the mate
// range (|value| < 20000). The one-argument form uses no cache.
[[nodiscard]] int evaluate(const Position& pos);
[[nodiscard]] int evaluate(const Position& pos, EvalCache& cache);

// The endgame knowledge on top of another evaluation's score (`score`, centipawns from the side
// to move; the network's): an ending with a specialised evaluation (KXK, KBNK, KPK, KRKP, KQKP)
// gets that instead, and drawish material scales the score as it scales the hand-crafted one.
// The network learns these endings from few positions, and the lone-king mates not at all.
[[nodiscard]] int with_endgame_knowledge(const Position& pos, EvalCache& cache, int score);

// The evaluation category by category, for the `eval` command: each category's middlegame and
// endgame value from white's point of view, the phase that blends them, the blend, the blend
// after the drawish-material scaling, and the result from the side to move's point of view
// (what evaluate() returns). A specialised endgame evaluator replaces all of that; its name
// is then given and the terms are zero.
struct EvalTerm {
  const char* name = "";
  int mg = 0;
  int eg = 0;
};
struct EvalTrace {
  std::array<EvalTerm, std::size_t(Category::Count)> terms{};
  const char* endgame = nullptr;  // the specialised evaluator used, if any
  int phase = 0;                  // 0 (bare kings and pawns) .. max_phase (all pieces)
  int max_phase = 0;
  int tapered = 0;  // white's point of view
  int scale = 64;   // of kScaleNormal
  int scaled = 0;   // white's point of view
  int result = 0;   // side to move's point of view
};
[[nodiscard]] EvalTrace evaluate_traced(const Position& pos);

// The evaluation as a linear function of the weights, for the tuner. With W the sum of
// coefficient * kWeights[index] over `terms` (white minus black),
//   tapered = (W.mg * phase + W.eg * (kMaxPhase - phase)) / kMaxPhase   (C++ integer division)
//   white   = tapered * scale / 64                                      (C++ integer division)
// is evaluate() from white's point of view (before the final clamp), unless `specialised`:
// then a specialised endgame evaluator decided and the value is not linear in the weights.
struct EvalCoefficients {
  int phase = 0;
  int scale = 64;
  bool specialised = false;
  std::vector<std::pair<std::uint16_t, std::int16_t>> terms;  // sorted by index, no zeros
};
[[nodiscard]] EvalCoefficients evaluate_coefficients(const Position& pos);

inline constexpr int kMaxPhase = 24;

// Material in centipawns of one piece type in the middlegame, for pruning margins elsewhere.
[[nodiscard]] int piece_value(PieceType t);

}  // namespace tessera::eval
