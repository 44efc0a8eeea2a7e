// Training games from PGN files that match runners write (fastchess, cutechess-cli), such as
// the games an OpenBench DATAGEN workload collects. Each move's comment carries the engine's
// score of the position it moved from, `{+0.31/17 0.62s}` (pawns, from the mover's side; mates
// as `+M5` / `-M3`); a move without one (`{book}`, or no comment) is an opening move.
//
// Policy. A game's chain starts at the first move after which every move has a score: opening
// moves before it are played to reach the chain's start. Its result is the Result tag's (a game
// with `*` is skipped); FEN / SetUp tags give the start, and a Variant of chess960 or
// fischerandom reads castling in Chess960 terms. A game whose moves do not replay, or with no
// scored move, is skipped with its reason; variations, NAGs and `;` comments are ignored.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/position.h"
#include "datagen/chain.h"

namespace tessera::datagen {

struct PgnImportStats {
  std::uint64_t games = 0;      // complete games read
  std::uint64_t converted = 0;  // given to the callback
  std::uint64_t skipped = 0;    // unfinished (`*`), unscored, or moves that do not replay
  std::uint64_t positions = 0;  // in the converted games
};

// Reads `path` and calls `on_game` with each converted game; `on_skip` gets a one-line reason
// for each skipped one. False and `error` when the file cannot be read.
// Reads the whole file at `path` into `bytes`; false and "cannot read '<path>'" in `error` when
// it cannot be opened or read.
[[nodiscard]] bool read_whole_file(const std::string& path, std::string& bytes, std::string& error);

[[nodiscard]] bool import_pgn(const std::string& path,
                              const std::function<void(const GameChain&)>& on_game,
                              const std::function<void(const std::string&)>& on_skip,
                              PgnImportStats& stats, std::string& error);

// As import_pgn, over PGN text already read; `name` stands for the file in messages.
void import_pgn_text(const std::string& text, const std::string& name,
                     const std::function<void(const GameChain&)>& on_game,
                     const std::function<void(const std::string&)>& on_skip, PgnImportStats& stats);

// The position at the end of each game of PGN text, as an opening book holds them: from the
// FEN tag (else the start position) through the game's SAN moves, castling read in Chess960
// terms when `chess960`; the result and comments do not matter. A game whose FEN tag or a move
// does not parse, or whose last position has no legal move, goes to `on_skip` with its reason.
void pgn_end_positions(const std::string& text, const std::string& name, bool chess960,
                       const std::function<void(const Position&)>& on_position,
                       const std::function<void(const std::string&)>& on_skip);

// The score in a comment, from the mover's side in centipawns (mates +-kScoreLimit), or
// nullopt when it has none: "+0.31/17 0.62s" -> 31, "-M4/20" -> -kScoreLimit.
[[nodiscard]] std::optional<int> comment_score(std::string_view comment);

}  // namespace tessera::datagen
