#include "search/thread.h"

#include <algorithm>
#include <new>

namespace tessera::search {

SearchPool::SearchPool(TranspositionTable& tt) : tt_(tt) {
  shared_.tt = &tt_;
  shared_.workers = &workers_;
  workers_.push_back(std::make_unique<Worker>(0, shared_));
}

SearchPool::~SearchPool() {
  stop();
  wait();
}

std::string SearchPool::set_threads(int n) {
  if (n < 1 || n > kMaxThreads)
    return "Threads must be between 1 and " + std::to_string(kMaxThreads);
  wait();
  if (n == threads()) return "";
  try {
    while (int(workers_.size()) > n) workers_.pop_back();
    while (int(workers_.size()) < n)
      workers_.push_back(std::make_unique<Worker>(int(workers_.size()), shared_));
  } catch (const std::bad_alloc&) {
    return "not enough memory for " + std::to_string(n) + " threads; using " +
           std::to_string(threads());
  }
  return "";
}

void SearchPool::clear_histories() {
  wait();
  for (auto& w : workers_) w->clear_histories();
}

eval::CacheStats SearchPool::eval_cache_stats() const {
  eval::CacheStats total;
  for (const auto& w : workers_) {
    const eval::CacheStats& s = w->eval_cache_stats();
    total.pawn_probes += s.pawn_probes;
    total.pawn_hits += s.pawn_hits;
    total.material_probes += s.material_probes;
    total.material_hits += s.material_hits;
  }
  return total;
}

void SearchPool::start(const Position& pos, const SearchLimits& limits, const SearchConfig& config,
                       const EngineCallbacks& callbacks, int game_ply) {
  // One search at a time: a new `go` first ends the previous one (which reports its move).
  if (searching()) stop();
  wait();

  shared_.go_time = Clock::now();
  shared_.budget_start_ns.store(
      std::chrono::duration_cast<std::chrono::nanoseconds>(shared_.go_time.time_since_epoch())
          .count(),
      std::memory_order_relaxed);
  shared_.limits = limits;
  shared_.config = config;
  shared_.callbacks = callbacks;
  shared_.stop.store(false, std::memory_order_relaxed);
  shared_.stop_requested = false;
  shared_.first_depth_done = false;
  shared_.multipv.store(std::max(config.multipv, 1), std::memory_order_relaxed);
  shared_.pondering.store(limits.ponder, std::memory_order_relaxed);
  SearchLimits timed = limits;
  if (limits.infinite) {  // an infinite search has no clock, whatever else `go` said
    timed.time[WHITE].reset();
    timed.time[BLACK].reset();
    timed.movetime = 0;
  }
  shared_.time.init(timed, pos.side_to_move(), game_ply, config.move_overhead_ms,
                    config.ponder_enabled);

  tt_.new_search();
  tt_.set_evaluator(config.network ? config.network->fingerprint()
                                   : eval::nnue::kHandCraftedFingerprint);
  // Fathom's root probe is not for concurrent use: it runs here, once, before any thread.
  shared_.root_tablebase = probe_root_tablebases(pos, config);
  for (auto& w : workers_) w->prepare(pos, limits.searchmoves);

  searching_.store(true, std::memory_order_release);
  controller_ = std::thread([this] { run_controller(); });
}

void SearchPool::stop() {
  if (!searching()) return;
  {
    std::lock_guard lock(shared_.mutex);
    shared_.stop_requested = true;
    if (shared_.first_depth_done) shared_.stop.store(true, std::memory_order_relaxed);
  }
  shared_.cv.notify_all();
}

void SearchPool::set_multipv(int n) {
  shared_.multipv.store(std::max(n, 1), std::memory_order_relaxed);
}

void SearchPool::ponderhit() {
  if (!searching()) return;
  {
    std::lock_guard lock(shared_.mutex);
    // The budget's clock starts now: the time spent pondering was the opponent's.
    shared_.budget_start_ns.store(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
            .count(),
        std::memory_order_relaxed);
    shared_.pondering.store(false, std::memory_order_relaxed);
  }
  shared_.cv.notify_all();
}

void SearchPool::wait() {
  if (controller_.joinable()) controller_.join();
}

// Under `infinite`, or while pondering, the best move may only be reported after stop() or
// ponderhit(), however early the search itself ended.
void SearchPool::wait_until_reporting_allowed() {
  std::unique_lock lock(shared_.mutex);
  shared_.cv.wait(lock, [this] {
    return shared_.stop.load(std::memory_order_relaxed) || shared_.stop_requested ||
           (!shared_.pondering.load(std::memory_order_relaxed) && !shared_.limits.infinite);
  });
}

void SearchPool::run_controller() {
  Worker& main = *workers_[0];
  const bool report = shared_.config.reports != Reports::None;

  if (main.root_moves().empty()) {
    // Checkmate or stalemate at the root: nothing to search.
    if (report && shared_.callbacks.on_info) {
      SearchInfo info;
      info.depth = 0;
      const bool mated = main.root_position().in_check();
      info.score = mated ? -kMate : 0;
      info.is_mate = mated;
      info.mate_moves = 0;
      info.time_ms = shared_.elapsed_ms();
      info.hashfull = tt_.hashfull();
      shared_.callbacks.on_info(info);
    }
    wait_until_reporting_allowed();
    shared_.stop.store(true, std::memory_order_relaxed);
    if (report && shared_.callbacks.on_bestmove)
      shared_.callbacks.on_bestmove(Move::none(), Move::none());
    searching_.store(false, std::memory_order_release);
    return;
  }

  std::vector<std::thread> helpers;
  helpers.reserve(workers_.size() - 1);
  for (std::size_t i = 1; i < workers_.size(); ++i)
    helpers.emplace_back([w = workers_[i].get()] { w->iterative_deepening(); });

  main.iterative_deepening();
  wait_until_reporting_allowed();
  shared_.stop.store(true, std::memory_order_relaxed);
  for (auto& t : helpers) t.join();

  // The main thread's best move is played; its PV supplies the ponder move, else the table.
  const RootMove& best = main.root_moves()[0];
  Move ponder = Move::none();
  const std::vector<Move> pv = legal_prefix(main.root_position(), best.pv);
  if (pv.size() >= 2) {
    ponder = pv[1];
  } else {
    Position after = main.root_position();
    after.make_move(best.move);
    const TTProbe probe = tt_.probe(after.key());
    if (probe.hit && probe.data.move && after.pseudo_legal(probe.data.move) &&
        after.legal(probe.data.move))
      ponder = probe.data.move;
  }

  main.report_final();
  if (report && shared_.callbacks.on_bestmove) shared_.callbacks.on_bestmove(best.move, ponder);
  searching_.store(false, std::memory_order_release);
}

}  // namespace tessera::search
