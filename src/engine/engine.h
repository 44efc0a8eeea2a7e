// Engine: the chess engine without any text I/O. It owns the game position, the transposition
// table, the search threads and the options, and reports through callbacks. The UCI layer (and
// any other front end: bench, self-play, tests) drives it through this interface only.
//
// Threading: every method is called from one controlling thread. go() returns at once; the
// search runs on its own threads and calls on_info / on_bestmove from the main search thread.
// A book move is the exception: go() reports it itself, on the calling thread, before returning.
// Methods that change shared state (set_hash_mb, set_threads, clear_hash, new_game,
// set_position) first wait for a running search to finish, so they never race it; saving and
// loading the hash file refuse instead of waiting.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/types.h"
#include "search/limits.h"

// Evaluation types the Engine hands out; their definitions are for the callers to include
// (eval/evaluate.h, eval/eval_cache.h, eval/nnue/trace.h), so this header stays free of the
// evaluation.
namespace tessera::eval {
struct EvalTrace;
struct CacheStats;
}  // namespace tessera::eval
namespace tessera::eval::nnue {
struct NetworkTrace;
}  // namespace tessera::eval::nnue

namespace tessera::engine {

// Whether a new Engine, the UCI option `Use NNUE` and `tessera bench` (the signature) play the
// network: on since a network passed its SPRT against the hand-crafted evaluation
// (docs/networks.md, "Evaluation network"). One constant, so that the three cannot disagree.
inline constexpr bool kNetworkByDefault = true;

// The search's vocabulary, defined in search/limits.h, is the Engine's too.
using search::Bound;
using search::EngineCallbacks;
using search::HashFileResult;
using search::SearchInfo;
using search::SearchLimits;

// UCI writes promotions in lower case (`e7e8q`); some GUIs and scripts send `e7e8Q`, which
// Stockfish accepts too. Returns `move` with a fifth (promotion) letter in lower case.
[[nodiscard]] std::string lowercase_promotion(std::string move);

class Engine {
 public:
  explicit Engine(EngineCallbacks callbacks);
  ~Engine();  // stops and joins the search threads
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // ----- Position. set_position plays `moves` (UCI strings) after the FEN and stops at the
  // first illegal one; returns an error message ("" on success). A bad FEN keeps the old position.
  [[nodiscard]] std::string set_position(const std::string& fen,
                                         const std::vector<std::string>& moves);
  [[nodiscard]] const Position& position() const;
  void new_game();  // clears TT (unless set_never_clear_hash) and histories

  // ----- Search
  void go(const SearchLimits& limits);
  void stop();       // the running search ends and reports bestmove once
  void ponderhit();  // a ponder search becomes a normal timed search, its clock starting now
  void wait();       // blocks until the running search (if any) has reported bestmove
  [[nodiscard]] bool searching() const;

  // ----- Options (each validated; a bad value returns an error message and changes nothing)
  [[nodiscard]] std::string set_hash_mb(std::size_t mb);
  [[nodiscard]] std::string set_threads(int n);
  void clear_hash();
  // Collision mode for stress tests (see TranspositionTable::set_key_bits): 1..16 folds every
  // hash key onto 2^bits values, 0 restores full keys; anything else is refused.
  [[nodiscard]] std::string set_hash_key_bits(int bits);
  // MultiPV takes effect at once: a running search uses it from its next iteration.
  void set_multipv(int n);
  void set_move_overhead_ms(int ms);
  void set_chess960(bool on);
  void set_ponder(bool on);  // only informs time management

  // ----- Evaluation. The search uses the network while set_use_network is on (kNetworkByDefault
  // until told otherwise) and one could be loaded, else the hand-crafted evaluation. set_eval_file
  // loads a network file at once ("", "<default>": the one embedded in the binary); a file that
  // cannot be used returns the reason and the previous network stays.
  void set_use_network(bool on);
  [[nodiscard]] std::string set_eval_file(const std::string& path);
  // "network <default: ...>" or the file's path, or which evaluation plays instead.
  [[nodiscard]] std::string network_description() const;
  // The evaluations of `pos` term by term, for the `eval` command: the hand-crafted one, and
  // the network's when one is loaded (whether or not the search uses it).
  [[nodiscard]] static eval::EvalTrace hand_crafted_trace(const Position& pos);
  [[nodiscard]] std::optional<eval::nnue::NetworkTrace> network_trace(const Position& pos) const;
  [[nodiscard]] bool network_in_use() const;

  // ----- Hash file (search/tt_file.h): the table saved to the file named by set_hash_file
  // and loaded from it in a later run ("" or "<empty>" names none). Both are refused while a
  // search runs, that is until it has reported its best move; a load that fails for any
  // reason leaves the table as it was. With never_clear_hash on, new_game() keeps the table.
  void set_hash_file(const std::string& path);
  [[nodiscard]] const std::string& hash_file() const;
  [[nodiscard]] HashFileResult save_hash_file();
  [[nodiscard]] HashFileResult load_hash_file();
  void set_never_clear_hash(bool on);

  // ----- Opening book (Polyglot .bin). set_book_file loads the file at once ("" or "<empty>"
  // unloads); a file that cannot be used returns the reason and leaves no book loaded, and the
  // engine plays on without one. While own_book is on, go() plays a book move at once when the
  // book has a legal one, the game is younger than book_depth plies and the search is not
  // infinite, ponder, a mate search or restricted by searchmoves.
  [[nodiscard]] std::string set_book_file(const std::string& path);
  void set_own_book(bool on);
  void set_book_best_move(bool on);  // false: weighted random choice
  void set_book_depth(int plies);
  void set_book_seed(std::uint64_t seed);  // reproducible choices (tests); random by default
  [[nodiscard]] bool book_loaded() const;
  // The book move go() would play now (draws from the random generator), or Move::none().
  [[nodiscard]] Move book_move();

  // ----- Strength limiting (UCI_LimitStrength, UCI_Elo; see strength.h). While on, a search
  // that is not infinite keeps to the node budget of the Elo and, below careful strength, picks
  // among its best root moves at random; only the MultiPV lines asked for are reported, the
  // last one being the move played.
  void set_limit_strength(bool on);
  [[nodiscard]] std::string set_elo(int elo);  // StrengthLimit::kMinElo..kMaxElo
  void set_strength_seed(std::uint64_t seed);  // reproducible choices (tests); random by default
  // ----- Syzygy tablebases. set_syzygy_path loads the tables at once from one or more
  // directories (joined by ':', or ';' on Windows); "" or "<empty>" unloads. A directory that
  // does not exist or a path without tables returns the reason and leaves none loaded; the
  // engine plays on without. The tables are probed in the search for positions of at most
  // probe_limit pieces without castling rights, right after a capture or pawn move, at
  // probe_depth and deeper (at any depth with fewer pieces than the limit). At the root, the
  // search keeps to the moves the tables rank best. With the fifty-move rule on, cursed wins
  // and blessed losses count as draws. Built without Fathom, syzygy_supported() is false and
  // set_syzygy_path refuses every non-empty path.
  struct SyzygyTables {
    int wdl = 0;         // WDL tables (.rtbw) found
    int dtz = 0;         // DTZ tables (.rtbz) found
    int max_pieces = 0;  // the most pieces of any table; 0 when none is loaded
  };
  [[nodiscard]] static bool syzygy_supported();
  [[nodiscard]] std::string set_syzygy_path(const std::string& paths);
  [[nodiscard]] SyzygyTables syzygy_tables() const;
  void set_syzygy_probe_depth(int depth);
  void set_syzygy_probe_limit(int pieces);
  void set_syzygy_50_move_rule(bool on);

  // Fixed-depth search of the current position, synchronously: the total node count. Used by
  // bench (which reports nothing) and data generation (the final lines and the best move).
  std::uint64_t search_sync(const SearchLimits& limits,
                            search::Reports reports = search::Reports::None);
  // Hit counts of the evaluation's pawn and material tables over this engine's searches
  // (threads that a Threads change removed are forgotten). Call between searches.
  [[nodiscard]] eval::CacheStats eval_cache_counts() const;

 private:
  [[nodiscard]] Move book_reply(Move m) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::engine
