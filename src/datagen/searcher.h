// Searcher: one single-threaded Engine searching game positions to a node count or depth, with
// no clock, as data generation needs: the same position and limits give the same move and
// score on every run, so a game is a function of its seed.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/position.h"
#include "engine/engine.h"

namespace tessera::datagen {

struct SearchResult {
  Move best = Move::none();
  int score = 0;  // side to move
  bool mate = false;
};

struct SearcherOptions {
  bool chess960 = false;
  std::size_t hash_mb = 16;
  bool use_network = false;
  std::string eval_file;  // with use_network: a network file instead of the embedded one
};

class Searcher {
 public:
  Searcher();
  // Applies the options; an error message, or "".
  [[nodiscard]] std::string configure(const SearcherOptions& options);
  void new_game() { engine_->new_game(); }
  // Searches the position `moves` (UCI) after `start` reach, which is `pos`; throws
  // std::runtime_error when the engine refuses the position or returns no legal move.
  [[nodiscard]] SearchResult search(const std::string& start, const std::vector<std::string>& moves,
                                    const Position& pos, const search::SearchLimits& limits);

 private:
  std::mutex mutex_;
  SearchResult last_;
  std::unique_ptr<engine::Engine>
      engine_;  // last: its search threads go before what they report to
};

}  // namespace tessera::datagen
