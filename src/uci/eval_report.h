// The text of the `eval` command (UCI mode and `tessera eval`): the evaluation of a position
// term by term, so that a user or a tuner can see why a score is what it is.
#pragma once

#include <string>
#include <vector>

#include "core/position.h"

namespace tessera::uci {

[[nodiscard]] std::vector<std::string> eval_report(const Position& pos);

}  // namespace tessera::uci
