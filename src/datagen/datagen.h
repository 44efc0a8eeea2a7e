// `tessera datagen`: self-play games that produce training records (record.h) in a zstd record
// file (record_file.h), and `tessera datagen-stats`, which checks such a file.
//
// Every game is a function of its index and the seed alone: game i draws its opening from a
// generator seeded by (seed, i), and the thread that plays it clears its engine first and
// searches with one thread to a node count or depth, so no clock is involved. Finished games
// wait in a reorder buffer and are written in index order, so the file is byte-for-byte the
// same for any --threads. Records come from every searched position after the opening; a game
// ends by the rules, by adjudication on agreed search scores, or at the ply cap. Stopping
// (SIGINT, SIGTERM) abandons the games in progress and writes the complete ones in order, so
// the file is a prefix of the uninterrupted run's.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>

#include "datagen/data_writer.h"

namespace tessera::datagen {

struct DatagenConfig {
  int games = 100;
  // The index of the first game: a run plays games first_game .. first_game + games - 1. A game
  // is a function of the seed and its index alone, so a run stopped after W games is resumed,
  // byte for byte, with --append and first_game increased by W.
  int first_game = 0;
  int threads = 1;             // games played at once, one single-threaded engine each
  std::uint64_t nodes = 5000;  // per search; ignored when depth > 0 or soft_nodes > 0
  // > 0: no new iteration once a search has passed this many nodes, and a hard stop at
  // kSoftNodeCap times it (the node count of an iteration varies, this keeps its end)
  std::uint64_t soft_nodes = 0;
  int depth = 0;  // > 0: a fixed-depth search instead of a node count
  DataFormat format = DataFormat::Chains;
  std::uint64_t seed = 1;
  int random_plies = 8;      // uniformly random legal plies after the start position
  std::string openings;      // EPD/FEN file, one start position a line; empty: the start position
  std::string output;        // the record file
  bool append = false;       // add to the end of `output` instead of replacing it
  std::size_t hash_mb = 16;  // per engine
  int max_plies = 400;       // plies played (opening included) after which a game is drawn
  bool chess960 = false;
  // Start each game from a random Chess960 position (one of the 960, drawn per game) before
  // the random plies; implies chess960.
  bool chess960_starts = false;
  int opening_bound = 400;         // an opening is drawn again when |first score| > this (cp)
  bool use_network = false;        // search with the evaluation network instead of the hand-crafted
  std::string eval_file;           // with use_network: a network file instead of the embedded one
  bool progress_in_place = false;  // progress on one line rewritten with '\r' (a terminal)
};

inline constexpr std::uint64_t kSoftNodeCap = 8;

// Adjudication and opening filter; the figures are centipawns from the search.
inline constexpr int kOpeningTries = 32;  // openings drawn before one beyond the bound is kept
inline constexpr int kWinScore = 1000;    // adjudicated won: >= this for kWinPlies plies in a row
inline constexpr int kWinPlies = 4;
inline constexpr int kDrawScore = 10;  // adjudicated drawn: |score| <= this for kDrawPlies plies
inline constexpr int kDrawPlies = 10;  //   in a row, from game ply kDrawMinPly on
inline constexpr int kDrawMinPly = 80;

// Plays the games and writes the file; progress goes to `err` (about once a second), a summary
// to `out`. Returns 0 when every game was written, 130 when stopped early, 1 (with a message)
// when the file or the openings cannot be used. With `stop` null, SIGINT and SIGTERM request
// the stop while it runs (a second signal ends the process at once); otherwise `stop` does.
[[nodiscard]] int run_datagen(const DatagenConfig& config, std::ostream& out, std::ostream& err,
                              const std::atomic<bool>* stop = nullptr);

// Reads a record or chain file and prints its counts (records, quiet, results, mean |score|).
// Returns 0 for a good file and for one cut while being written (with a warning), 1 for corrupt
// data.
[[nodiscard]] int run_datagen_stats(const std::string& path, std::ostream& out, std::ostream& err);

}  // namespace tessera::datagen
