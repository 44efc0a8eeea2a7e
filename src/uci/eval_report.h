// The text of the `eval` command (UCI mode and `tessera eval`): the evaluation of a position
// term by term, so that a user or a tuner can see why a score is what it is. It asks the
// Engine, which owns the network: the hand-crafted breakdown, then the network's score and
// what each piece is worth to it, then the evaluation the search uses. A finished game says
// so instead.
#pragma once

#include <string>
#include <vector>

#include "core/position.h"
#include "engine/engine.h"

namespace tessera::uci {

[[nodiscard]] std::vector<std::string> eval_report(const engine::Engine& engine,
                                                   const Position& pos);

}  // namespace tessera::uci
