// Endgame knowledge: specialised evaluations of a few endings and a scale factor for the rest.
//
// Policy. A general evaluation misjudges some endings badly: it cannot tell a won king and pawn
// ending from a drawn one, gives no direction in the mates with a lone king (so the search
// wanders until the fifty-move rule), and counts material in endings that material cannot win
// (a knight or two, a rook pawn with the wrong bishop, opposite-coloured bishops). This module
// supplies that knowledge as pure functions of the position, for the evaluation to call:
//
//  - classify_endgame() names the ending from the piece counts alone, so its answer depends on
//    the material key only and may be cached by it;
//  - evaluate_endgame() replaces the evaluation of a named ending (KXK, KBNK, KPK, KRKP, KQKP);
//  - scale_factor() tells by how much (0..64, in 64ths) the score of the side ahead should be
//    scaled towards a draw in the other endings.
//
// Nothing here keeps state: the KPK bitbase (eval/kpk.h) is built once, thread-safely, on first
// use, and everything else is computed from the position on each call.
#pragma once

#include <cstdint>

#include "core/position.h"
#include "core/types.h"

namespace tessera::eval {

enum class Endgame : std::uint8_t {
  None,  // no specialised evaluation: evaluate normally, then apply scale_factor()
  KXK,   // lone king against a queen, a rook, bishop and knight plus more, or two bishops
  KBNK,  // lone king against exactly bishop and knight
  KPK,   // lone king against exactly one pawn
  KRKP,  // rook against pawn, nothing else
  KQKP,  // queen against pawn, nothing else
};

// The named ending and the side that plays for the win (WHITE when kind is None).
struct EndgameInfo {
  Endgame kind = Endgame::None;
  Color strong = WHITE;
  constexpr bool operator==(const EndgameInfo&) const = default;
};

// Scores of evaluate_endgame(): a won ending that is not yet a mate scores at least
// kEndgameKnownWin (KXK, KBNK) and never more than kEndgameMaxScore. That is clearly won (more
// than any KPK win, about what the ordinary evaluation gives a queen and a rook ahead) yet on
// the scale of ordinary scores, so that a GUI plots it sensibly and the search's pruning
// margins, which are in centipawns, still leave room for the mate it is heading for.
inline constexpr int kEndgameKnownWin = 1100;
inline constexpr int kEndgameMaxScore = 3500;
// A won KPK position scores kKpkWin plus 20 per rank the pawn has advanced (about 1000).
inline constexpr int kKpkWin = 900;

// scale_factor() values: kScaleNormal leaves the score alone, kScaleDraw makes it 0.
inline constexpr int kScaleNormal = 64;
inline constexpr int kScaleDraw = 0;

// The ending by piece counts only (a function of the material key). Both kings alone: None.
[[nodiscard]] EndgameInfo classify_endgame(const Position& pos);

// The value in centipawns from WHITE's point of view of a position that classify_endgame()
// named `info` (0 for Endgame::None). |value| <= kEndgameMaxScore. KPK and KRKP read the side
// to move; the others do not. Stalemate is left to the search.
[[nodiscard]] int evaluate_endgame(const Position& pos, const EndgameInfo& info);

// How much of its advantage `strong` keeps: 0 (a draw whatever the material) .. 64 (all of it).
// Meant for the side the evaluation finds ahead; it does not look at which side that is.
[[nodiscard]] int scale_factor(const Position& pos, Color strong);

}  // namespace tessera::eval
