// A set of Engine callbacks that records what a search reports, for the engine and search tests.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.h"

namespace tessera::testing {

struct Recorder {
  std::mutex mutex;
  std::vector<search::SearchInfo> infos;
  std::vector<std::pair<Move, Move>> bestmoves;  // (best, ponder)
  std::atomic<int> bestmove_count{0};

  search::EngineCallbacks callbacks() {
    search::EngineCallbacks cb;
    cb.on_info = [this](const search::SearchInfo& i) {
      std::lock_guard lock(mutex);
      infos.push_back(i);
    };
    cb.on_bestmove = [this](Move best, Move ponder) {
      std::lock_guard lock(mutex);
      bestmoves.emplace_back(best, ponder);
      ++bestmove_count;
    };
    cb.on_message = [](const std::string&) {};
    return cb;
  }
};

}  // namespace tessera::testing
