// Move-ordering statistics, one set per search thread (never shared, so never locked).
//
// Policy. Every table holds small signed scores updated with the "gravity" rule
// h += bonus - h * |bonus| / limit, which keeps |h| below `limit` and lets old information fade
// as new bonuses arrive. Butterfly history scores quiet moves by side and from/to squares,
// apart for each combination of "the opponent attacks the origin" and "... the target", since
// the same move is a different move whether it escapes an attack, walks into one, or neither;
// continuation history scores a quiet move by the piece and target square of the moves one and
// two plies earlier; capture history scores captures by piece, target and captured type.
// Counter moves remember the quiet move that refuted each previous move. Five correction
// histories keep, per side, a running average of how far the search result was from the static
// evaluation, keyed by the pawn structure, by the material (piece counts), by the previous move
// (piece and target square) and by where each colour's pieces other than pawns stand; a later
// evaluation is corrected by their weighted sum. Each table sees the error from its own angle:
// the pawn table learns structures the network misjudges, the material table imbalances, the
// continuation table the tactics a move just set up, the two piece tables placements of one
// side's pieces whatever the other side does. Killers
// live in the search stack. All tables are cleared by new_game() and kept between the searches of a
// game.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "core/types.h"
#include "search/tunables.h"

namespace tessera::search {

template <int Limit>
struct HistoryCell {
  std::int16_t value = 0;
  void update(int bonus) {
    const int clamped = std::clamp(bonus, -Limit, Limit);
    value = std::int16_t(value + clamped - value * std::abs(clamped) / Limit);
  }
  [[nodiscard]] operator int() const { return value; }
};

inline constexpr int kHistoryLimit = 16384;

// Scores of a quiet move given one earlier move: [piece][to].
using PieceToHistory = std::array<std::array<HistoryCell<kHistoryLimit>, 64>, kPieceCount>;

using ButterflyTable = std::array<std::array<HistoryCell<kHistoryLimit>, 64>, 64>;

struct Histories {
  // butterfly[colour][origin attacked][target attacked][from][to]; read through quiet().
  std::array<std::array<std::array<ButterflyTable, 2>, 2>, 2> butterfly;
  // continuation[piece][to] of the earlier move -> scores of the current move.
  std::array<std::array<PieceToHistory, 64>, kPieceCount> continuation;
  // capture[piece][to][captured type]
  std::array<std::array<std::array<HistoryCell<kHistoryLimit>, kPieceTypeCount>, 64>, kPieceCount>
      capture;
  // counter[piece][to] of the previous move: the quiet move that refuted it.
  std::array<std::array<Move, 64>, kPieceCount> counter;
  // The correction tables, each [colour][index]: the evaluation error in 1/kCorrectionScale cp.
  // pawn_correction by pawn key % size, material_correction by material key % size,
  // continuation_correction by the previous move's piece and target square,
  // non_pawn_correction[c] by the key of colour c's pieces other than pawns % size.
  static constexpr int kCorrectionSize = 16384;
  static constexpr int kCorrectionScale = 8;
  std::array<std::array<std::int16_t, kCorrectionSize>, 2> pawn_correction;
  std::array<std::array<std::int16_t, kCorrectionSize>, 2> material_correction;
  std::array<std::array<std::int16_t, kPieceCount * 64>, 2> continuation_correction;
  std::array<std::array<std::array<std::int16_t, kCorrectionSize>, 2>, 2> non_pawn_correction;
  // Read for ply -1 and -2 when there was no real earlier move (root, null move): always 0 and
  // never updated.
  PieceToHistory sentinel;

  // The capture-history cell of `moved` taking `captured` on `to`; a promotion that takes
  // nothing is kept with the captures of a pawn.
  [[nodiscard]] HistoryCell<kHistoryLimit>& capture_cell(Piece moved, Square to, Piece captured) {
    return capture[moved.index()][to.index()]
                  [captured.is_none() ? int(PAWN) : int(captured.type())];
  }
  [[nodiscard]] int capture_cell(Piece moved, Square to, Piece captured) const {
    return capture[moved.index()][to.index()]
                  [captured.is_none() ? int(PAWN) : int(captured.type())];
  }

  // The butterfly cell of quiet move `m` by `us`, where `attacked` holds the squares the
  // opponent attacks in the position the move is made from.
  [[nodiscard]] HistoryCell<kHistoryLimit>& quiet(Color us, Move m, Bitboard attacked) {
    return butterfly[us][is_in(m.from(), attacked)][is_in(m.to(), attacked)][m.from().index()]
                    [m.to().index()];
  }
  [[nodiscard]] int quiet(Color us, Move m, Bitboard attacked) const {
    return butterfly[us][is_in(m.from(), attacked)][is_in(m.to(), attacked)][m.from().index()]
                    [m.to().index()];
  }
  [[nodiscard]] static constexpr int is_in(Square s, Bitboard squares) {
    return int((squares & s.bb()) != 0);
  }

  void clear() {
    // All members are arrays of trivially copyable cells: zero bytes are the empty state.
    std::memset(static_cast<void*>(this), 0, sizeof(*this));
  }
};

static_assert(std::is_trivially_copyable_v<Histories>, "clear() relies on memset");

// Where a position's corrections are kept: its pawn and material keys, the previous move
// (piece index * 64 + target square, or -1 after a null move or at the root) and each colour's
// non-pawn key.
struct CorrectionKeys {
  Key pawn = 0;
  Key material = 0;
  int previous_move = -1;
  std::array<Key, 2> non_pawn{};  // each colour's non-pawn pieces (king included)
};

namespace detail {
// The tables' weights in sixteenths (tunables.h): pawn, material, previous move, and each
// colour's pieces other than pawns.
inline constexpr int kWeightDivisor = 16;
}  // namespace detail

// The weighted sum of the corrections that apply to `k`, in table units.
[[nodiscard]] inline int correction_sum(const Histories& h, Color us, const CorrectionKeys& k) {
  int sum =
      tune::CorrPawnIn16 * h.pawn_correction[us][k.pawn % Histories::kCorrectionSize] +
      tune::CorrMaterialIn16 * h.material_correction[us][k.material % Histories::kCorrectionSize];
  if (k.previous_move >= 0)
    sum += tune::CorrContinuationIn16 * h.continuation_correction[us][k.previous_move];
  for (const Color c : {WHITE, BLACK})
    sum += tune::CorrNonPawnIn16 *
           h.non_pawn_correction[c][us][k.non_pawn[c] % Histories::kCorrectionSize];
  return sum;
}

// The correction that applies to `k`, in centipawns.
[[nodiscard]] inline int correction_cp(const Histories& h, Color us, const CorrectionKeys& k) {
  return correction_sum(h, us, k) / (detail::kWeightDivisor * Histories::kCorrectionScale);
}

// The static evaluation corrected by the correction histories (never into the mate range).
[[nodiscard]] inline int corrected_eval(const Histories& h, Color us, const CorrectionKeys& k,
                                        int raw) {
  return std::clamp(raw + correction_cp(h, us, k), -20000, 20000);
}

namespace detail {
// A table entry never leaves +-256 cp.
inline constexpr int kCorrectionLimit = 256 * Histories::kCorrectionScale;
// The sum of the weights of the tables that apply to `k` (at least 1: a tune build may set
// every weight to 0).
[[nodiscard]] inline int applicable_weight(const CorrectionKeys& k) {
  return std::max(tune::CorrPawnIn16 + tune::CorrMaterialIn16 + 2 * tune::CorrNonPawnIn16 +
                      (k.previous_move >= 0 ? tune::CorrContinuationIn16 : 0),
                  1);
}
// Moves one table entry by `step` (table units) with the gravity rule, which keeps it within
// the limit and lets old lessons fade as new ones come.
inline void apply_correction_step(std::int16_t& c, int step) {
  c = std::int16_t(c + step - c * std::abs(step) / kCorrectionLimit);
}
}  // namespace detail

// Learns from one search result: `error` is the search result minus the raw static
// evaluation (cp). The tables learn the residual, the part of the error their present sum
// does not explain yet, so that together they settle on the error rather than a multiple of
// it. A deeper result is surer and moves them further: a share (depth + 1) / 96 of the
// residual, which keeps growing with depth up to a third of it at depth 31.
inline void update_correction(Histories& h, Color us, const CorrectionKeys& k, int error,
                              int depth) {
  const int residual = std::clamp(error, -256, 256) - correction_cp(h, us, k);
  const int rate = std::clamp(depth + 1, 1, 32);
  // In table units per unit of weight, so that the weighted sum moves by rate/96 of it.
  const int step = residual * Histories::kCorrectionScale * detail::kWeightDivisor * rate /
                   (96 * detail::applicable_weight(k));
  const int bounded = std::clamp(step, -detail::kCorrectionLimit / 4, detail::kCorrectionLimit / 4);
  detail::apply_correction_step(h.pawn_correction[us][k.pawn % Histories::kCorrectionSize],
                                bounded);
  detail::apply_correction_step(h.material_correction[us][k.material % Histories::kCorrectionSize],
                                bounded);
  if (k.previous_move >= 0)
    detail::apply_correction_step(h.continuation_correction[us][k.previous_move], bounded);
  for (const Color c : {WHITE, BLACK})
    detail::apply_correction_step(
        h.non_pawn_correction[c][us][k.non_pawn[c] % Histories::kCorrectionSize], bounded);
}

// Teaches the continuation tables of the moves 1, 2 and 4 plies before a quiet move (`earlier`,
// in that order; the ply-4 table learns half) that the move of `pc` to `to` earned `bonus`. A
// null move, or no move before the root, has the sentinel for its table: it is skipped, and
// the real moves beyond it still learn.
inline void update_continuations(Histories& h, const std::array<PieceToHistory*, 3>& earlier,
                                 Piece pc, Square to, int bonus) {
  for (std::size_t i = 0; i < earlier.size(); ++i) {
    if (earlier[i] == &h.sentinel) continue;
    (*earlier[i])[pc.index()][to.index()].update(i == 2 ? bonus / 2 : bonus);
  }
}

// The bonus of a move that caused (or the malus of one that failed) a cut at `depth`.
[[nodiscard]] inline int history_bonus(int depth) {
  return std::min(tune::HistoryBonusQuad * depth * depth + tune::HistoryBonusLinear * depth,
                  tune::HistoryBonusMax);
}

}  // namespace tessera::search
