// The Polyglot opening-book key of a position, from the published Random64 table. It differs
// from the engine's own Zobrist key and is used only to look positions up in Polyglot books.
#pragma once

#include "core/position.h"

namespace tessera {

[[nodiscard]] Key polyglot_key(const Position& pos);

}  // namespace tessera
