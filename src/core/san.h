// Standard algebraic notation (SAN), as PGN files write moves: "Nf3", "exd5", "e8=Q+",
// "O-O-O", "Rae1#". Disambiguation adds the file, else the rank, else both, only when another
// piece of the same kind could also reach the square.
#pragma once

#include <string>
#include <string_view>

#include "core/position.h"

namespace tessera {

// `m` is a legal move of `pos`.
[[nodiscard]] std::string move_to_san(const Position& pos, Move m);

// The legal move of `pos` that `san` names, or Move::none(). Check and annotation marks
// (+ # ! ?), the '=' of a promotion and "0-0" for "O-O" are accepted; so is a disambiguation
// that is not needed ("Ngf3" when only one knight reaches f3).
[[nodiscard]] Move move_from_san(const Position& pos, std::string_view san);

}  // namespace tessera
