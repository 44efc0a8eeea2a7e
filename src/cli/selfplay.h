// `tessera selfplay`: a stress test that plays Tessera against itself and referees every move.
//
// Each side is its own Engine, driven the way a GUI drives the UCI layer: the whole game is
// re-sent with set_position before every move, `go` carries both clocks, and the move arrives
// through on_bestmove on the search thread. An independent referee Position checks every move
// (legal, incremental keys equal the from-scratch ones) and keeps a real clock per side, so a
// move made after the flag fell is a failure, as it would be in a tournament.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cxxopts.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::cli {

struct SelfplayConfig {
  int games = 10;
  std::int64_t base_ms = 1000;  // time control 1+0.01
  std::int64_t increment_ms = 10;
  std::uint64_t nodes = 0;  // > 0: `go nodes N` instead of a clock
  int threads = 1;
  std::size_t hash_mb = 16;
  std::uint64_t seed = 1;
  int random_plies = 8;  // random legal plies that open each game
  int max_plies = 400;   // longer games are adjudicated drawn
  // A move may overrun its clock by this much before it loses on time: room for scheduler
  // noise on a loaded machine (a CI run), where a strict clock would make the test flaky.
  std::int64_t clock_margin_ms = 0;
  // > 0: the collision mode of the hash table (keys folded onto 2^bits values), to show that
  // moves and scores from other positions never lead to an illegal move.
  int tt_key_bits = 0;
  std::string fen = "startpos";
  bool chess960 = false;
  std::string pgn;  // non-empty: every game is written there as PGN
};

// Adds the selfplay flags (--games, --tc, --nodes, --threads, --hash, --seed, --random-plies,
// --max-plies, --clock-margin, --tt-key-bits) to the command line's option set.
void add_selfplay_options(cxxopts::Options& options);

// The configuration the parsed flags ask for (`fen` and `chess960` come from the shared
// --fen / --chess960 flags); nullopt with `error` set when a value is out of range.
[[nodiscard]] std::optional<SelfplayConfig> selfplay_config(const cxxopts::ParseResult& parsed,
                                                            std::string& error);

// "BASE+INC" or "BASE" in seconds (`1+0.01`, `0.5`) to milliseconds; false when malformed.
[[nodiscard]] bool parse_time_control(std::string_view text, std::int64_t& base_ms,
                                      std::int64_t& increment_ms);

// Plays the games, printing one line per game and a summary; returns non-zero on any failure.
[[nodiscard]] int run_selfplay(const SelfplayConfig& config, std::ostream& out, std::ostream& err);

}  // namespace tessera::cli
