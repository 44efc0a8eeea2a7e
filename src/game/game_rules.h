// The parts of a game that self-play and data generation share: the seeded random opening and
// the verdict of the rules, so that both draw game i of seed s identically on every platform
// and end games for the same reasons.
//
// Policy. Game `index` of `seed` gets its own generator, seeded by mixing both through
// splitmix64 (the stream the Zobrist keys come from), so games can be played in any order or
// in parallel and still be reproduced one by one. A random ply is `rng() % legal moves` over
// the generator's order, which the standard fixes (mt19937_64 has no platform latitude and no
// distribution object is involved).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace tessera::game {

enum class Result : std::uint8_t { WhiteWins, Draw, BlackWins };

struct Verdict {
  Result result = Result::Draw;
  std::string_view reason;  // "checkmate", "stalemate", "fifty-move rule", ...
};

// The game's result by the rules with `pos`'s side to move, `plies` plies into the game
// (a game reaching `max_plies` is drawn), or nullopt while it goes on.
[[nodiscard]] std::optional<Verdict> rules_verdict(const Position& pos, int plies, int max_plies);

// The generator of game `index` of a run seeded with `seed`.
[[nodiscard]] std::mt19937_64 game_generator(std::uint64_t seed, int index);

// The white back rank of Chess960 start `index` (Scharnagl number, 0 to 959; 518 is
// "RNBQKBNR"), files a to h.
[[nodiscard]] std::string chess960_back_rank(int index);

// The Chess960 start position of Scharnagl number `index` (0 to 959; 518 is the standard
// position) in Shredder-FEN, whose castling field names the rook files.
[[nodiscard]] std::string chess960_start_fen(int index);

// A double Chess960 start: white's back rank is start `white`'s, black's (mirrored) start
// `black`'s, each side castling with its own rooks; chess960_start_fen(i) is (i, i).
[[nodiscard]] std::string double_chess960_start_fen(int white, int black);

// Plays up to `plies` random legal moves (fewer when the game ends first), appending each in
// UCI notation to `moves`.
void play_random_plies(Position& pos, std::mt19937_64& rng, int plies,
                       std::vector<std::string>& moves);

}  // namespace tessera::game
