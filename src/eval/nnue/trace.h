// What the network makes of one position, for the `eval` command: its score and what each
// piece is worth to it (how much the score drops when that piece is taken off the board).
#pragma once

#include <array>
#include <optional>

#include "core/position.h"
#include "eval/nnue/network.h"

namespace tessera::eval::nnue {

struct NetworkTrace {
  int score = 0;  // centipawns, side to move's point of view
  // For each square with a piece other than a king: the score from white's point of view
  // with the piece on the board, less the score without it.
  std::array<std::optional<int>, 64> piece_value{};
};

[[nodiscard]] NetworkTrace trace(const Network& net, const Position& pos);

}  // namespace tessera::eval::nnue
