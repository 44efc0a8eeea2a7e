// The alpha-beta search of one thread, and the state all threads of one search share.
//
// Policy. Each Worker owns a copy of the root position, its own history tables, search stack
// and triangular PV table, so threads share nothing but the transposition table, the stop
// flag and their node counters (each written by its owner only, read by the main thread).
// Worker 0 is the main thread: it checks the clock and node limits, reports each completed
// iteration, decides when to stop, and its root move list decides the best move (lazy SMP: the
// helpers only enrich the shared table). A search that is stopped mid-iteration keeps the
// root moves ordered by the last completed iteration, except that a move which already proved
// better in the unfinished one moves to the front.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/position.h"
#include "eval/eval_cache.h"
#include "eval/nnue/accumulator.h"
#include "search/history.h"
#include "search/limits.h"
#include "search/score.h"
#include "search/tablebase.h"
#include "search/timeman.h"
#include "search/tt.h"

namespace tessera::search {

class Worker;

struct RootMove {
  explicit RootMove(Move m) : move(m), pv{m} {}
  Move move;
  int score = -kInfinite;           // this iteration's score, -kInfinite if not (yet) proven
  int previous_score = -kInfinite;  // the last completed iteration's score
  int display_score = -kInfinite;   // the last score worth reporting
  int score_depth = 0;              // the iteration that set `score`
  Bound bound = Bound::Exact;
  int seldepth = 0;
  std::uint64_t nodes = 0;  // this thread's nodes below the move in this search
  std::vector<Move> pv;     // pv[0] == move
};

// Options of one search that do not come from `go`.
struct SearchConfig {
  int multipv = 1;
  int move_overhead_ms = 10;
  bool ponder_enabled = false;
  Reports reports = Reports::All;
  // Syzygy tablebases (none when null or empty). Positions of at most tb_probe_limit pieces
  // are probed in the search at depth tb_probe_depth and deeper, or at any depth with fewer
  // pieces than the limit. With tb_50_move_rule, cursed wins and blessed losses are draws.
  const Tablebases* tablebases = nullptr;
  int tb_probe_depth = 1;
  int tb_probe_limit = 7;
  bool tb_50_move_rule = true;
  // The evaluation network; null: the hand-crafted evaluation.
  const eval::nnue::Network* network = nullptr;
};

// The most pieces a position may have to be probed under `config`; 0 when probing is off.
[[nodiscard]] int tablebase_cardinality(const SearchConfig& config);

// The tablebases' verdict on every legal move of the root, or an empty list when the root is
// not in the tables (too many pieces, castling rights, no tables or no legal move). Not for
// use while a search runs on the same tables' behalf: the caller is the controlling thread.
[[nodiscard]] std::vector<TablebaseRootMove> probe_root_tablebases(const Position& root,
                                                                   const SearchConfig& config);

// Everything the threads of one search share. Created by the pool before the threads start.
struct SharedState {
  TranspositionTable* tt = nullptr;
  SearchLimits limits;
  SearchConfig config;
  TimeManager time;
  EngineCallbacks callbacks;
  const std::vector<std::unique_ptr<Worker>>* workers = nullptr;
  // The root moves ranked by the tablebases (empty: the root is not in the tables). Every
  // worker then searches only the moves of the best rank.
  std::vector<TablebaseRootMove> root_tablebase;

  TimePoint go_time;                             // for reported times
  std::atomic<std::int64_t> budget_start_ns{0};  // the clock of the budget (go, or ponderhit)
  std::atomic<bool> stop{false};
  std::atomic<bool> pondering{false};
  // MultiPV may change while the search runs (analysis); each iteration reads it afresh.
  std::atomic<int> multipv{1};

  // The main thread sleeps on this once it may not report yet (infinite / ponder). Under it,
  // too, a `stop` from the GUI meets the end of depth 1: a stop that comes earlier is only
  // requested, and the main thread raises `stop` once depth 1 is complete, so that even an
  // immediate stop answers a searched move (depth 1 takes microseconds).
  std::mutex mutex;
  std::condition_variable cv;
  bool stop_requested = false;    // under mutex
  bool first_depth_done = false;  // under mutex

  [[nodiscard]] std::uint64_t total_nodes() const;
  [[nodiscard]] std::uint64_t total_tbhits() const;
  [[nodiscard]] std::int64_t elapsed_ms() const;         // since go
  [[nodiscard]] std::int64_t budget_elapsed_ms() const;  // since go or ponderhit
};

class Worker {
 public:
  Worker(int id, SharedState& shared);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Prepares a search of `root`; the root moves are its legal moves, restricted to
  // `searchmoves` when that names at least one legal move, and then, when the root is in the
  // tablebases (shared.root_tablebase), to those the tables rank best: a win kept with the
  // fewest plies to the next capture or pawn move (or mate), so that every move makes progress
  // and the win is converted; a draw held; a loss resisted longest.
  void prepare(const Position& root, const std::vector<Move>& searchmoves);
  // Iterative deepening until the depth limit or the stop flag.
  void iterative_deepening();

  [[nodiscard]] bool is_main() const { return id_ == 0; }
  [[nodiscard]] std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t tbhits() const { return tbhits_.load(std::memory_order_relaxed); }
  // Hit counts of this thread's evaluation caches (read after the search).
  [[nodiscard]] const eval::CacheStats& eval_cache_stats() const { return eval_cache_->stats; }
  [[nodiscard]] const std::vector<RootMove>& root_moves() const { return root_moves_; }
  [[nodiscard]] int completed_depth() const { return completed_depth_; }
  [[nodiscard]] const Position& root_position() const { return *pos_; }
  void clear_histories();

  // The report of MultiPV line `line` (0-based) as things stand.
  [[nodiscard]] SearchInfo make_info(std::size_t line, int depth) const;
  // After the search: the lines of the last iteration again, but only those that differ from
  // what was last reported (a move that proved better in an unfinished iteration), so that
  // the GUI never sees the same line twice.
  void report_final();
  // The root move loop's report of the move about to be searched (`number` counts from 1),
  // sent only once the search has run a few seconds, as GUIs show it for long analyses.
  void report_current_move(Move m, int number);

 private:
  enum class NodeType { Root, PV, NonPV };

  struct StackEntry {
    int ply = 0;
    Move current_move = Move::none();
    Piece moved_piece = Piece::none();
    Move excluded_move = Move::none();
    std::array<Move, 2> killers{};
    int static_eval = kNone;
    int move_count = 0;
    bool in_check = false;
    bool tt_pv = false;  // on a principal variation now, or once (the table's mark)
    PieceToHistory* continuation = nullptr;  // of current_move; the sentinel if none
    int double_extensions = 0;  // singular moves extended by two plies on the path to here
    int cutoff_count = 0;       // beta cutoffs among the children of the parent node so far
    Bitboard threatened = 0;    // every square the opponent attacks here (picks the butterfly)
  };

  template <NodeType NT>
  int search(int alpha, int beta, int depth, bool cut_node, StackEntry* ss);
  template <NodeType NT>
  int qsearch(int alpha, int beta, StackEntry* ss);

  // Make and unmake a move of the search: the stack entry, the table prefetch and (through
  // the observer) everything that follows the board.
  void make_move(Move m, StackEntry* ss);
  void unmake_move(Move m);
  void make_null_move(StackEntry* ss);
  void unmake_null_move();
  // The static evaluation of the position at `ply`: the network's when one is set.
  [[nodiscard]] int static_evaluation(int ply) { return fifty_move_scaled(evaluator_verdict(ply)); }
  // The evaluator's verdict on the position at `ply`, as the table keeps it: before the
  // fifty-move scaling and the corrections.
  [[nodiscard]] int evaluator_verdict(int ply);
  // The table's verdict when it holds one, else the evaluator's.
  [[nodiscard]] int cached_verdict(const TTProbe& tt, int ply);
  [[nodiscard]] int fifty_move_scaled(int verdict) const;
  // Where the correction histories keep what they learnt about the node at `ss`.
  [[nodiscard]] CorrectionKeys correction_keys(const StackEntry* ss) const;
  // True when the move into this node was a plain quiet move (no capture, promotion, castling
  // or null move): the kind whose history its outcome may teach.
  [[nodiscard]] bool previous_move_quiet(const StackEntry* ss) const;
  void count_node();
  void count_tbhits(std::uint64_t n);
  void restrict_root_to_tablebase();
  void check_limits();
  void update_pv(int ply, Move m);
  void update_quiet_stats(StackEntry* ss, Move m, int bonus);
  // The capture-history cell of capture (or promotion) `m` in the current position.
  [[nodiscard]] HistoryCell<kHistoryLimit>& capture_history(Move m);
  void update_continuation(StackEntry* ss, Piece pc, Square to, int bonus);
  [[nodiscard]] int reduction(bool improving, int depth, int move_count) const;
  void init_reductions();
  [[nodiscard]] RootMove* find_root_move(Move m);
  [[nodiscard]] bool root_move_searchable(Move m) const;
  void report_iteration(int depth);
  void report_bound(std::size_t line, int depth);
  void finish_first_depth();
  [[nodiscard]] bool should_stop_after_iteration(int iteration_score, int depth);

  static constexpr int kStackOffset = 7;  // entries before the root: ss - 4 .. ss - 1 stay valid

  const int id_;
  SharedState& shared_;
  std::unique_ptr<Histories> histories_;
  std::unique_ptr<eval::EvalCache> eval_cache_;  // pawn and material tables of this thread
  // The network's accumulator of each ply's position (when a network is set).
  std::unique_ptr<std::array<eval::nnue::Accumulator, kMaxPly + 2>> accumulators_;
  // The last half computed in each king view, to rebuild a half cheaply after a king move
  // that changes its view (bucketed networks only).
  std::unique_ptr<eval::nnue::AccumulatorCache> accumulator_cache_;
  std::optional<Position> pos_;
  std::vector<RootMove> root_moves_;
  std::atomic<std::uint64_t> nodes_{0};
  std::atomic<std::uint64_t> tbhits_{0};  // successful tablebase probes
  int tb_cardinality_ = 0;                // probe positions of at most this many pieces
  int root_tb_score_ = kNone;             // the root's tablebase score, kNone when not known
  int limit_check_countdown_ = 0;
  int seldepth_ = 0;
  int root_depth_ = 0;
  int completed_depth_ = 0;
  std::size_t pv_idx_ = 0;
  int nmp_min_ply_ = 0;
  // Time management statistics (main thread).
  double best_move_changes_ = 0;
  int score_average_ = kNone;  // of the completed iterations, recent ones weighing most
  Move previous_best_ = Move::none();
  int best_move_depth_ = 0;           // the depth at which the present best move became best
  std::size_t multipv_ = 1;           // lines searched in the current iteration
  std::vector<SearchInfo> reported_;  // the lines last reported, by MultiPV slot

  std::array<StackEntry, kMaxPly + kStackOffset + 3> stack_{};
  // Triangular PV table: pv_[ply][ply .. pv_length_[ply]) is the line found below `ply`.
  std::unique_ptr<std::array<std::array<Move, kMaxPly + 1>, kMaxPly + 1>> pv_;
  std::array<int, kMaxPly + 2> pv_length_{};
  // reductions_[depth][move count], from a log-log formula (filled once per worker).
  std::array<std::array<std::int8_t, 64>, 64> reductions_{};
};

// The score of a tablebase result `ply` plies below the root (see search.cpp).
[[nodiscard]] int tablebase_score(Wdl wdl, int ply, bool fifty_move_rule);

// Returns the legal prefix of `line` played from `pos` (a table or PV line may be stale).
[[nodiscard]] std::vector<Move> legal_prefix(const Position& pos, const std::vector<Move>& line);

}  // namespace tessera::search
