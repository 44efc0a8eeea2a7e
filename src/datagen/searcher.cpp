#include "datagen/searcher.h"

#include <stdexcept>

namespace tessera::datagen {

Searcher::Searcher() {
  engine_ = std::make_unique<engine::Engine>(
      search::EngineCallbacks{[this](const search::SearchInfo& info) {
                                const std::lock_guard lock(mutex_);
                                last_.score = info.score;
                                last_.mate = info.is_mate;
                              },
                              [this](Move best, Move) {
                                const std::lock_guard lock(mutex_);
                                last_.best = best;
                              },
                              [](const std::string&) {}});
}

std::string Searcher::configure(const SearcherOptions& options) {
  engine_->set_chess960(options.chess960);
  if (options.use_network) {
    if (!options.eval_file.empty())
      if (std::string e = engine_->set_eval_file(options.eval_file); !e.empty()) return e;
    engine_->set_use_network(true);
  }
  if (std::string e = engine_->set_threads(1); !e.empty()) return e;
  return engine_->set_hash_mb(options.hash_mb);
}

SearchResult Searcher::search(const std::string& start, const std::vector<std::string>& moves,
                              const Position& pos, const search::SearchLimits& limits) {
  if (std::string e = engine_->set_position(start, moves); !e.empty())
    throw std::runtime_error("the engine refused a game position: " + e);
  {
    const std::lock_guard lock(mutex_);
    last_ = SearchResult{};
  }
  // Only the final lines: the score of the move played is the last line's (each iteration's
  // line would cost a PV walk and a hashfull sample for nothing).
  engine_->search_sync(limits, search::Reports::Final);
  const std::lock_guard lock(mutex_);
  if (last_.best.is_none() || !pos.is_legal_move(last_.best))
    throw std::runtime_error("the search returned no legal move in " + pos.fen());
  return last_;
}

}  // namespace tessera::datagen
