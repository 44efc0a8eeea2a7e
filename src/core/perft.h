// Perft: counts the leaf nodes of the legal move tree, with bulk counting at the last ply.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/position.h"

namespace tessera {

[[nodiscard]] std::uint64_t perft(Position& pos, int depth);

// One entry per root move: the move and the leaf count below it.
[[nodiscard]] std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth);

}  // namespace tessera
