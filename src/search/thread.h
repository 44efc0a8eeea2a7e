// The search threads: one pool per engine, sized by the Threads option.
//
// Policy. The pool owns one Worker per thread for the engine's lifetime (their histories carry
// over from move to move) and starts fresh std::threads for each search: a controller thread
// that runs the main worker and then reports, plus one thread per helper. The controller alone
// calls the callbacks and reports exactly one best move per search: after the main worker
// stops, and under `infinite` or `ponder` only once stop() or ponderhit() has come. All public
// methods are called from one controlling thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/position.h"
#include "search/limits.h"
#include "search/search.h"
#include "search/tt.h"

namespace tessera::search {

class SearchPool {
 public:
  static constexpr int kMaxThreads = 256;

  explicit SearchPool(TranspositionTable& tt);
  ~SearchPool();  // stops and joins
  SearchPool(const SearchPool&) = delete;
  SearchPool& operator=(const SearchPool&) = delete;

  // Resizes the pool (waits for a running search first). Returns "" or an error message.
  [[nodiscard]] std::string set_threads(int n);
  [[nodiscard]] int threads() const { return int(workers_.size()); }
  void clear_histories();  // waits for a running search first
  // The evaluation caches' hits and probes since the pool was made, all threads together.
  [[nodiscard]] eval::CacheStats eval_cache_stats() const;

  // Starts a search of `pos` and returns at once.
  void start(const Position& pos, const SearchLimits& limits, const SearchConfig& config,
             const EngineCallbacks& callbacks, int game_ply);
  // Stops the search, though never before depth 1 is complete (see SharedState).
  void stop();
  void ponderhit();
  // The running search's MultiPV, from its next iteration on (the next search's comes from
  // its SearchConfig).
  void set_multipv(int n);
  void wait();
  [[nodiscard]] bool searching() const { return searching_.load(std::memory_order_acquire); }
  // Nodes searched by the last (or current) search, all threads together.
  [[nodiscard]] std::uint64_t nodes() const { return shared_.total_nodes(); }

 private:
  void run_controller();
  void wait_until_reporting_allowed();

  TranspositionTable& tt_;
  SharedState shared_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::thread controller_;
  std::atomic<bool> searching_{false};
};

}  // namespace tessera::search
