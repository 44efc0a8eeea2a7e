// Standard algebraic notation (SAN), as PGN files write moves: "Nf3", "exd5", "e8=Q+",
// "O-O-O", "Rae1#". Disambiguation adds the file, else the rank, else both, only when another
// piece of the same kind could also reach the square.
#pragma once

#include <string>

#include "core/position.h"

namespace tessera {

// `m` is a legal move of `pos`.
[[nodiscard]] std::string move_to_san(const Position& pos, Move m);

}  // namespace tessera
