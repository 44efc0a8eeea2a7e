#include "engine/engine.h"

#include <algorithm>

#include "search/search.h"
#include "search/thread.h"
#include "search/tt.h"

namespace tessera {

struct Engine::Impl {
  explicit Impl(EngineCallbacks cb) : callbacks(std::move(cb)) {}

  EngineCallbacks callbacks;
  Position position = Position::startpos();
  search::TranspositionTable tt;  // declared before the pool, which refers to it
  search::SearchPool pool{tt};
  int multipv = 1;
  int move_overhead_ms = 10;
  bool chess960 = false;
  bool ponder = false;

  [[nodiscard]] search::SearchConfig config(bool report) const {
    search::SearchConfig c;
    c.multipv = multipv;
    c.move_overhead_ms = move_overhead_ms;
    c.ponder_enabled = ponder;
    c.report = report;
    return c;
  }
};

Engine::Engine(EngineCallbacks callbacks) : impl_(std::make_unique<Impl>(std::move(callbacks))) {}

Engine::~Engine() {
  impl_->pool.stop();
  impl_->pool.wait();
}

std::string Engine::set_position(const std::string& fen, const std::vector<std::string>& moves) {
  wait();
  std::optional<Position> pos;
  if (fen == "startpos") {
    pos = Position::startpos();
    pos->set_chess960(impl_->chess960);
  } else {
    std::string error;
    pos = Position::from_fen(fen, impl_->chess960, error);
    if (!pos) return "invalid FEN '" + fen + "': " + error;
  }
  // Play the moves; the first illegal one ends the list, the moves before it stay played.
  std::string error;
  for (const std::string& text : moves) {
    const Move m = pos->parse_uci_move(text);
    if (!m) {
      error = "illegal move '" + text + "' in position " + pos->fen() + "; moves after it ignored";
      break;
    }
    pos->make_move(m);
  }
  impl_->position = std::move(*pos);
  return error;
}

const Position& Engine::position() const { return impl_->position; }

void Engine::new_game() {
  wait();
  impl_->tt.clear();
  impl_->pool.clear_histories();
}

void Engine::go(const SearchLimits& limits) {
  impl_->pool.start(impl_->position, limits, impl_->config(true), impl_->callbacks,
                    impl_->position.game_ply());
}

void Engine::stop() { impl_->pool.stop(); }

void Engine::ponderhit() { impl_->pool.ponderhit(); }

void Engine::wait() { impl_->pool.wait(); }

bool Engine::searching() const { return impl_->pool.searching(); }

std::string Engine::set_hash_mb(std::size_t mb) {
  wait();
  return impl_->tt.resize(mb);
}

std::string Engine::set_threads(int n) { return impl_->pool.set_threads(n); }

void Engine::clear_hash() {
  wait();
  impl_->tt.clear();
}

void Engine::set_multipv(int n) { impl_->multipv = std::clamp(n, 1, kMaxMoves); }

void Engine::set_move_overhead_ms(int ms) { impl_->move_overhead_ms = std::max(ms, 0); }

void Engine::set_chess960(bool on) {
  wait();
  impl_->chess960 = on;
  impl_->position.set_chess960(on);
}

void Engine::set_ponder(bool on) { impl_->ponder = on; }

std::uint64_t Engine::search_sync(const SearchLimits& limits, bool report) {
  // Histories start empty too, so that the node count depends on nothing but the position,
  // the limits and the table contents (cleared by the caller).
  impl_->pool.clear_histories();
  impl_->pool.start(impl_->position, limits, impl_->config(report), impl_->callbacks,
                    impl_->position.game_ply());
  impl_->pool.wait();
  return impl_->pool.nodes();
}

}  // namespace tessera
