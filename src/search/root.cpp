// The root of the search: the root move list (searchmoves, the tablebase ranking, the table
// move first), iterative deepening with aspiration windows and MultiPV, the info lines, and
// the decision to stop between iterations. The tree below the root is search.cpp.
#include <algorithm>
#include <cmath>

#include "core/movegen.h"
#include "search/search.h"
#include "search/tunables.h"

namespace tessera::search {

namespace {
// How good a root move is by the tables, higher being better for the side to move: the result
// first; then, for a win, the fewest plies to the next capture or pawn move or mate (so every
// move makes progress and the fifty-move counter never runs out); for a loss, the most.
[[nodiscard]] int tablebase_rank(const TablebaseRootMove& m, bool fifty_move_rule) {
  int result = int(m.wdl);
  if (!fifty_move_rule) result = result > 0 ? 2 : result < 0 ? -2 : 0;
  const int distance = result > 0 ? -m.dtz : result < 0 ? m.dtz : 0;
  return result * 100000 + distance;
}
}  // namespace

int tablebase_cardinality(const SearchConfig& config) {
  if (config.tablebases == nullptr) return 0;
  return std::min(config.tablebases->max_pieces(), config.tb_probe_limit);
}

std::vector<TablebaseRootMove> probe_root_tablebases(const Position& root,
                                                     const SearchConfig& config) {
  const int cardinality = tablebase_cardinality(config);
  if (cardinality == 0 || popcount(root.pieces()) > cardinality) return {};
  return config.tablebases->probe_root(root).value_or(std::vector<TablebaseRootMove>{});
}

std::uint64_t SharedState::total_nodes() const {
  std::uint64_t n = 0;
  if (workers != nullptr)
    for (const auto& w : *workers) n += w->nodes();
  return n;
}

std::uint64_t SharedState::total_tbhits() const {
  std::uint64_t n = 0;
  if (workers != nullptr)
    for (const auto& w : *workers) n += w->tbhits();
  return n;
}

std::int64_t SharedState::elapsed_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - go_time).count();
}

std::int64_t SharedState::budget_elapsed_ms() const {
  const std::int64_t now_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
  return (now_ns - budget_start_ns.load(std::memory_order_relaxed)) / 1'000'000;
}

std::vector<Move> legal_prefix(const Position& pos, const std::vector<Move>& line) {
  std::vector<Move> out;
  Position p = pos;
  for (const Move m : line) {
    if (!m || !p.pseudo_legal(m) || !p.legal(m)) break;
    out.push_back(m);
    p.make_move(m);
  }
  return out;
}

Worker::Worker(int id, SharedState& shared)
    : id_(id),
      shared_(shared),
      histories_(std::make_unique<Histories>()),
      eval_cache_(std::make_unique<eval::EvalCache>()),
      accumulators_(std::make_unique<std::array<eval::nnue::Accumulator, kMaxPly + 2>>()),
      accumulator_cache_(std::make_unique<eval::nnue::AccumulatorCache>()),
      pv_(std::make_unique<std::array<std::array<Move, kMaxPly + 1>, kMaxPly + 1>>()) {
  histories_->clear();
  init_reductions();
}

// Late-move reductions grow with the logarithms of both depth and move number: late moves at
// high depth are rarely best, and the reduction shrinks again if they prove otherwise.
void Worker::init_reductions() {
  const double base = tune::LmrBasePct / 100.0;
  const double divisor = tune::LmrDivisorPct / 100.0;
  for (int d = 1; d < 64; ++d)
    for (int m = 1; m < 64; ++m)
      reductions_[d][m] = std::int8_t(base + std::log(double(d)) * std::log(double(m)) / divisor);
}

Worker::~Worker() = default;

void Worker::clear_histories() { histories_->clear(); }

void Worker::prepare(const Position& root, const std::vector<Move>& searchmoves) {
  // A tune build may have changed the reductions' constants since the last search.
  if constexpr (tune::kEnabled) init_reductions();
  pos_.emplace(root);
  if (const eval::nnue::Network* net = shared_.config.network) {
    accumulator_cache_->prepare(*net);  // emptied when the network has changed
    eval::nnue::refresh(*net, root, (*accumulators_)[0]);
  }
  root_moves_.clear();
  const MoveList<GenType::All> legal(root);
  for (const Move m : legal)
    if (searchmoves.empty() ||
        std::find(searchmoves.begin(), searchmoves.end(), m) != searchmoves.end())
      root_moves_.emplace_back(m);
  // searchmoves naming no legal move is treated as absent: a move must always come back.
  if (root_moves_.empty())
    for (const Move m : legal) root_moves_.emplace_back(m);
  nodes_.store(0, std::memory_order_relaxed);
  tbhits_.store(0, std::memory_order_relaxed);
  tb_cardinality_ = tablebase_cardinality(shared_.config);
  restrict_root_to_tablebase();

  // Put the table move first, so that even a search stopped at once answers a sensible move.
  const TTProbe probe = shared_.tt->probe(root.key());
  if (probe.hit && probe.data.move) {
    const auto it = std::find_if(root_moves_.begin(), root_moves_.end(),
                                 [&](const RootMove& rm) { return rm.move == probe.data.move; });
    if (it != root_moves_.end()) std::rotate(root_moves_.begin(), it, it + 1);
  }

  limit_check_countdown_ = 0;
  seldepth_ = root_depth_ = completed_depth_ = 0;
  pv_idx_ = 0;
  nmp_min_ply_ = 0;
  best_move_changes_ = 0;
  score_average_ = kNone;
  previous_best_ = Move::none();
  best_move_depth_ = 0;
  multipv_ = 1;
  reported_.clear();
}

void Worker::count_node() {
  nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

void Worker::count_tbhits(std::uint64_t n) {
  tbhits_.store(tbhits_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

// Keeps the root moves that the tables rank best (see prepare) and remembers the root's
// tablebase score for the reports. The moves in the tables' list were probed once at the root;
// the main thread counts them as its hits.
void Worker::restrict_root_to_tablebase() {
  root_tb_score_ = kNone;
  const std::vector<TablebaseRootMove>& ranked = shared_.root_tablebase;
  if (ranked.empty()) return;
  const bool rule = shared_.config.tb_50_move_rule;
  std::vector<std::pair<int, const TablebaseRootMove*>> ranks;
  for (const RootMove& rm : root_moves_) {
    const auto it = std::find_if(ranked.begin(), ranked.end(),
                                 [&](const TablebaseRootMove& t) { return t.move == rm.move; });
    if (it == ranked.end()) return;  // not the same position: search without the tables' help
    ranks.emplace_back(tablebase_rank(*it, rule), &*it);
  }
  int best = INT_MIN;
  const TablebaseRootMove* best_entry = nullptr;
  for (const auto& [rank, entry] : ranks)
    if (rank > best) {
      best = rank;
      best_entry = entry;
    }
  std::vector<RootMove> kept;
  for (std::size_t i = 0; i < root_moves_.size(); ++i)
    if (ranks[i].first == best) kept.push_back(root_moves_[i]);
  root_moves_ = std::move(kept);
  root_tb_score_ = tablebase_score(best_entry->wdl, 0, rule);
  if (is_main()) count_tbhits(ranked.size());
}

SearchInfo Worker::make_info(std::size_t line, int depth) const {
  const RootMove& rm = root_moves_[line];
  SearchInfo info;
  info.depth = std::max(depth, 1);
  info.seldepth = std::max(rm.seldepth, info.depth);
  info.multipv = int(line) + 1;
  int score = rm.score != -kInfinite ? rm.score : rm.previous_score;
  if (score == -kInfinite) score = rm.display_score;
  if (score == -kInfinite) score = 0;  // nothing searched yet: no better guess
  info.bound = rm.score != -kInfinite ? rm.bound : Bound::Exact;
  // A root in the tablebases has a known result; only a mate the search found says more.
  if (root_tb_score_ != kNone && !is_mate_score(score)) {
    score = root_tb_score_;
    info.bound = Bound::Exact;
  }
  info.score = score;
  info.is_mate = is_mate_score(score);
  info.mate_moves = info.is_mate ? mate_moves(score) : 0;
  info.nodes = shared_.total_nodes();
  info.time_ms = shared_.elapsed_ms();
  info.nps = info.nodes * 1000 / std::uint64_t(std::max<std::int64_t>(info.time_ms, 1));
  info.tbhits = shared_.total_tbhits();
  info.hashfull = shared_.tt->hashfull();
  info.pv = legal_prefix(*pos_, rm.pv);
  if (info.pv.empty()) info.pv.push_back(rm.move);
  return info;
}

void Worker::report_iteration(int depth) {
  if (shared_.config.reports != Reports::All || !shared_.callbacks.on_info) return;
  reported_.resize(multipv_);
  for (std::size_t i = 0; i < multipv_; ++i) {
    reported_[i] = make_info(i, depth);
    shared_.callbacks.on_info(reported_[i]);
  }
}

namespace {
// Long searches only: in a fast game the extra lines would be noise (and output costs time).
constexpr std::int64_t kLiveReportAfterMs = 3000;

[[nodiscard]] bool same_line(const SearchInfo& a, const SearchInfo& b) {
  return a.depth == b.depth && a.score == b.score && a.bound == b.bound && a.pv == b.pv;
}
}  // namespace

// An aspiration window that failed: the bound is worth showing in a long analysis, where the
// re-search may take a while. Only with one line, whose order the failure cannot garble.
void Worker::report_bound(std::size_t line, int depth) {
  if (!is_main() || multipv_ != 1 || shared_.config.reports != Reports::All ||
      !shared_.callbacks.on_info || shared_.elapsed_ms() < kLiveReportAfterMs)
    return;
  shared_.callbacks.on_info(make_info(line, depth));
}

void Worker::report_current_move(Move m, int number) {
  if (!is_main() || shared_.config.reports != Reports::All || !shared_.callbacks.on_current_move ||
      shared_.elapsed_ms() < kLiveReportAfterMs)
    return;
  shared_.callbacks.on_current_move(root_depth_, m, number);
}

void Worker::report_final() {
  if (shared_.config.reports == Reports::None || !shared_.callbacks.on_info) return;
  const std::size_t lines = std::min(multipv_, root_moves_.size());
  for (std::size_t i = 0; i < lines; ++i) {
    // A stop inside an iteration leaves lines already re-searched at the deeper depth; each is
    // labelled with the depth its score comes from, the others with the completed one.
    const RootMove& rm = root_moves_[i];
    const bool deeper = rm.score != -kInfinite && rm.score_depth > completed_depth_;
    const SearchInfo info = make_info(i, deeper ? rm.score_depth : completed_depth_);
    if (i < reported_.size() && same_line(info, reported_[i])) continue;
    shared_.callbacks.on_info(info);
  }
}

// The first completed depth: a stop the GUI sent meanwhile now takes effect (see SharedState).
void Worker::finish_first_depth() {
  const std::lock_guard lock(shared_.mutex);
  shared_.first_depth_done = true;
  if (shared_.stop_requested) shared_.stop.store(true, std::memory_order_relaxed);
}

bool Worker::should_stop_after_iteration(int iteration_score, int depth) {
  const SearchLimits& limits = shared_.limits;
  // go mate N: a mate in N or fewer moves has been found.
  if (limits.mate > 0 && iteration_score >= kMateInMaxPly &&
      mate_moves(iteration_score) <= limits.mate)
    return true;
  // A soft node limit (data generation) ends the search after the iteration that passes it.
  if (limits.soft_nodes && shared_.total_nodes() >= limits.soft_nodes) return true;
  if (!shared_.time.enabled() || shared_.pondering.load(std::memory_order_relaxed)) return false;
  // A timed search that has proven a mate no deeper than its full-width depth gains nothing by
  // iterating on (a shorter mate would have shown up already).
  if (is_mate_score(iteration_score) && kMate - std::abs(iteration_score) <= depth) return true;
  // `movetime` asks for exactly that long: only the hard limit in the search ends it. The
  // early stop below is how a clock's time is shared out over the game.
  if (limits.movetime > 0) return false;

  const RootMove& best = root_moves_[0];
  if (best.move != previous_best_) {
    previous_best_ = best.move;
    best_move_depth_ = depth;
  }
  IterationSignals signals;
  signals.depths_since_best_changed = depth - best_move_depth_;
  signals.best_move_node_share = double(best.nodes) / double(std::max<std::uint64_t>(nodes(), 1));
  signals.best_move_changes = best_move_changes_;
  signals.single_legal_move = root_moves_.size() == 1;
  // Mate scores say nothing about a trend; the average ignores them and halves its memory
  // every iteration.
  if (!is_decisive(iteration_score)) {
    if (score_average_ != kNone) signals.score_drop = score_average_ - iteration_score;
    score_average_ =
        score_average_ == kNone ? iteration_score : (score_average_ + iteration_score) / 2;
  }
  return shared_.budget_elapsed_ms() >= shared_.time.soft_limit_ms(signals);
}

void Worker::iterative_deepening() {
  for (std::size_t i = 0; i < stack_.size(); ++i) {
    stack_[i] = StackEntry{};
    stack_[i].ply = int(i) - kStackOffset;
    stack_[i].continuation = &histories_->sentinel;
  }
  StackEntry* ss = &stack_[kStackOffset];
  if (root_moves_.empty()) return;

  const SearchLimits& limits = shared_.limits;
  const int max_depth = limits.depth > 0 ? std::min(limits.depth, kMaxPly - 1) : kMaxPly - 1;

  for (root_depth_ = 1; root_depth_ <= max_depth; ++root_depth_) {
    if (shared_.stop.load(std::memory_order_relaxed)) break;
    multipv_ = std::min<std::size_t>(
        std::size_t(std::max(shared_.multipv.load(std::memory_order_relaxed), 1)),
        root_moves_.size());
    const std::size_t multipv = multipv_;
    if (is_main()) best_move_changes_ *= 0.5;
    for (auto& rm : root_moves_) rm.previous_score = rm.score;

    for (pv_idx_ = 0; pv_idx_ < multipv; ++pv_idx_) {
      seldepth_ = 0;
      // Aspiration window around the previous score, widened on each failure.
      int delta = tune::AspirationDelta;
      int alpha = -kInfinite;
      int beta = kInfinite;
      const int prev = root_moves_[pv_idx_].previous_score;
      if (root_depth_ >= 4 && prev != -kInfinite && !is_mate_score(prev)) {
        alpha = std::max(prev - delta, -kInfinite);
        beta = std::min(prev + delta, kInfinite);
      }
      while (true) {
        const int score = search<NodeType::Root>(alpha, beta, root_depth_, false, ss);
        // Proven moves first; stable, so that equal scores keep the earlier order.
        std::stable_sort(root_moves_.begin() + std::ptrdiff_t(pv_idx_), root_moves_.end(),
                         [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
        if (shared_.stop.load(std::memory_order_relaxed)) break;
        if (score <= alpha || score >= beta) report_bound(pv_idx_, root_depth_);
        if (score <= alpha) {
          beta = (alpha + beta) / 2;
          alpha = std::max(score - delta, -kInfinite);
        } else if (score >= beta) {
          beta = std::min(score + delta, kInfinite);
        } else {
          break;
        }
        delta += delta / 2;
        if (delta > 800) {
          alpha = -kInfinite;
          beta = kInfinite;
        }
      }
      std::stable_sort(root_moves_.begin(), root_moves_.begin() + std::ptrdiff_t(pv_idx_) + 1,
                       [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
      if (shared_.stop.load(std::memory_order_relaxed)) break;
    }
    if (shared_.stop.load(std::memory_order_relaxed)) break;
    completed_depth_ = root_depth_;
    if (is_main() && root_depth_ == 1) finish_first_depth();

    if (is_main()) {
      report_iteration(root_depth_);
      if (should_stop_after_iteration(root_moves_[0].score, root_depth_)) break;
    }
  }
}

}  // namespace tessera::search
