// Static evaluation: a hand-written, tapered evaluation of a position.
//
// Every term has a middlegame and an endgame value; the result blends the two by the material
// left on the board (game phase). Terms: material, piece-square tables, mobility, pawn structure
// (doubled, isolated and passed pawns), rooks on open files, the bishop pair, a simple king
// safety term and a tempo bonus for the side to move. The evaluation is a pure function of the
// position: no caches, no global state, so any number of threads may call it.
#pragma once

#include <array>

#include "core/position.h"

namespace tessera {

// The position's value in centipawns from the side to move's point of view, never in the mate
// range (|value| < 20000).
[[nodiscard]] int evaluate(const Position& pos);

// The evaluation term by term, for the `eval` command: each term's middlegame and endgame
// value from white's point of view, the phase that blends them, the blend, the blend after the
// drawish-material scaling, and the result from the side to move's point of view (what
// evaluate() returns).
struct EvalTerm {
  const char* name = "";
  int mg = 0;
  int eg = 0;
};
struct EvalTrace {
  std::array<EvalTerm, 7> terms{};
  int phase = 0;  // 0 (bare kings and pawns) .. max_phase (all pieces)
  int max_phase = 0;
  int tapered = 0;  // white's point of view
  int scaled = 0;   // white's point of view
  int result = 0;   // side to move's point of view
};
[[nodiscard]] EvalTrace evaluate_traced(const Position& pos);

// Material in centipawns of one piece type in the middlegame, for pruning margins elsewhere.
[[nodiscard]] int piece_value(PieceType t);

}  // namespace tessera
