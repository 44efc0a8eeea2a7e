// Move-ordering statistics, one set per search thread (never shared, so never locked).
//
// Policy. Every table holds small signed scores updated with the "gravity" rule
// h += bonus - h * |bonus| / limit, which keeps |h| below `limit` and lets old information fade
// as new bonuses arrive. Butterfly history scores quiet moves by side and from/to squares;
// continuation history scores a quiet move by the piece and target square of the moves one and
// two plies earlier; capture history scores captures by piece, target and captured type.
// Counter moves remember the quiet move that refuted each previous move. Pawn correction
// history keeps, per side and pawn structure, a running average of how far the search result
// was from the static evaluation, and corrects later evaluations by it. Killers live in the
// search stack. All tables are cleared by new_game() and kept between the searches of a game.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "core/types.h"

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

struct Histories {
  // butterfly[colour][from][to]
  std::array<std::array<std::array<HistoryCell<kHistoryLimit>, 64>, 64>, 2> butterfly;
  // continuation[piece][to] of the earlier move -> scores of the current move.
  std::array<std::array<PieceToHistory, 64>, kPieceCount> continuation;
  // capture[piece][to][captured type]
  std::array<std::array<std::array<HistoryCell<kHistoryLimit>, kPieceTypeCount>, 64>, kPieceCount>
      capture;
  // counter[piece][to] of the previous move: the quiet move that refuted it.
  std::array<std::array<Move, 64>, kPieceCount> counter;
  // pawn_correction[colour][pawn key % size]: the evaluation error in 1/kCorrectionScale cp.
  static constexpr int kCorrectionSize = 16384;
  static constexpr int kCorrectionScale = 8;
  std::array<std::array<std::int16_t, kCorrectionSize>, 2> pawn_correction;
  // Read for ply -1 and -2 when there was no real earlier move (root, null move): always 0 and
  // never updated.
  PieceToHistory sentinel;

  void clear() {
    // All members are arrays of trivially copyable cells: zero bytes are the empty state.
    std::memset(static_cast<void*>(this), 0, sizeof(*this));
  }
};

static_assert(std::is_trivially_copyable_v<Histories>, "clear() relies on memset");

// The static evaluation corrected by the pawn correction history (never into the mate range).
[[nodiscard]] inline int corrected_eval(const Histories& h, Color us, Key pawn_key, int raw) {
  const int c = h.pawn_correction[us][pawn_key % Histories::kCorrectionSize];
  return std::clamp(raw + c / Histories::kCorrectionScale, -20000, 20000);
}

// Moves the correction of this pawn structure towards `error` (search result minus raw static
// evaluation, in cp), faster for deeper searches.
inline void update_correction(Histories& h, Color us, Key pawn_key, int error, int depth) {
  std::int16_t& c = h.pawn_correction[us][pawn_key % Histories::kCorrectionSize];
  constexpr int kWeightTotal = 256;
  const int w = std::min(depth + 1, 16);
  const int target = std::clamp(error, -256, 256) * Histories::kCorrectionScale;
  c = std::int16_t((c * (kWeightTotal - w) + target * w) / kWeightTotal);
}

// The bonus of a move that caused (or the malus of one that failed) a cut at `depth`.
[[nodiscard]] constexpr int history_bonus(int depth) {
  return std::min(16 * depth * depth + 32 * depth, 1600);
}

}  // namespace tessera::search
