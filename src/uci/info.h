// Formatting what the Engine reports: `info` lines and `bestmove`.
//
// Moves are written with the root position (which knows whether UCI_Chess960 notation is on),
// and a PV is cut at its first move that is not legal where it stands, so a GUI never sees an
// illegal line. Every number is an integer (fastchess rejects anything else).
#pragma once

#include <string>
#include <vector>

#include "core/position.h"
#include "engine/engine.h"

namespace tessera::uci {

// "info depth 12 seldepth 18 multipv 1 score cp 31 nodes ... tbhits 0 time 5 pv e2e4 e7e5". A root
// without legal moves (depth 0, empty PV) gives the short "info depth 0 score mate 0" GUIs expect.
// With `show_wdl`, the score is followed by "wdl W D L" (per mille, see wdl.h).
[[nodiscard]] std::string format_info(const search::SearchInfo& info, const Position& root,
                                      bool show_wdl = false);

// "info depth 9 currmove e2e4 currmovenumber 3"
[[nodiscard]] std::string format_current_move(int depth, Move move, int number,
                                              const Position& root);

// "bestmove e2e4 ponder e7e5"; "bestmove 0000" for none; the ponder move only when it is legal
// after the best move.
[[nodiscard]] std::string format_bestmove(Move best, Move ponder, const Position& root);

// The legal prefix of `pv` from `root`, in UCI notation.
[[nodiscard]] std::vector<std::string> legal_pv(const std::vector<Move>& pv, const Position& root);

}  // namespace tessera::uci
