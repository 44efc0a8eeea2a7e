// The vocabulary between a search and whoever runs it: what `go` asked for (SearchLimits),
// the bound of a score, one `info` report (SearchInfo) and the callbacks a search reports
// through. The search defines them so that it depends on nothing above it; engine/engine.h
// re-exports them for the front ends.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/types.h"

namespace tessera::search {

// What a search tells its callbacks: nothing (bench), only the final lines and the best move
// (data generation, which reads the score of the move it plays), or everything a GUI shows.
enum class Reports : std::uint8_t { None, Final, All };

// What `go` asked for. A field left at its default means "no limit".
struct SearchLimits {
  std::optional<std::int64_t> time[2];  // wtime, btime (ms, may be negative)
  std::int64_t increment[2] = {0, 0};   // winc, binc (ms)
  int movestogo = 0;                    // 0: sudden death
  int depth = 0;                        // 0: no depth limit
  std::uint64_t nodes = 0;              // 0: no node limit
  std::uint64_t soft_nodes = 0;         // > 0: no new iteration once this many are searched
  int mate = 0;                         // mate in N moves, 0: not asked
  std::int64_t movetime = 0;            // ms, 0: not asked
  bool infinite = false;
  bool ponder = false;
  std::vector<Move> searchmoves;  // empty: all legal moves
};

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

// One `info` report: a finished iteration's line for one MultiPV slot, or the final one.
struct SearchInfo {
  int depth = 0;
  int seldepth = 0;
  int multipv = 1;
  int score = 0;  // centipawns from the side to move, or a mate score (see is_mate)
  bool is_mate = false;
  int mate_moves = 0;          // when is_mate: moves to mate, negative when being mated
  Bound bound = Bound::Exact;  // Lower / Upper when the line failed high / low
  std::uint64_t nodes = 0;
  std::uint64_t nps = 0;
  std::uint64_t tbhits = 0;  // successful tablebase probes, all threads together
  int hashfull = 0;          // per mille
  std::int64_t time_ms = 0;
  std::vector<Move> pv;
};

struct EngineCallbacks {
  std::function<void(const SearchInfo&)> on_info;
  // bestmove: Move::none() when the root has no legal move; ponder: Move::none() when unknown.
  std::function<void(Move best, Move ponder)> on_bestmove;
  // Free text for the GUI (`info string ...`): warnings, errors.
  std::function<void(const std::string&)> on_message;
  // The root move about to be searched at `depth`, `number` counting from 1; sent only once a
  // search has run for a few seconds (GUIs show it in long analyses). May be left empty.
  std::function<void(int depth, Move move, int number)> on_current_move = nullptr;
};

// What saving or loading the hash file did.
struct HashFileResult {
  std::string error;                // "" on success
  std::uint64_t entries = 0;        // entries written, or read from the file
  std::uint64_t file_clusters = 0;  // the saved table's size in clusters...
  std::uint64_t file_mb = 0;        // ...and as the Hash option had it
  bool rehashed = false;            // loaded into a table of another size
};

}  // namespace tessera::search
