#include "engine/engine.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <memory>
#include <random>

#include "book/polyglot_book.h"
#include "engine/strength.h"
#include "eval/eval_cache.h"
#include "eval/evaluate.h"
#include "eval/nnue/network.h"
#include "eval/nnue/trace.h"
#include "search/search.h"
#include "search/tablebase.h"
#include "search/thread.h"
#include "search/tt.h"
#include "search/tt_file.h"

namespace tessera::engine {

namespace {
constexpr std::string_view kEmbeddedNetworkName = "<default> (" TESSERA_DEFAULT_NET_NAME ")";
}  // namespace

std::string lowercase_promotion(std::string move) {
  if (move.size() == 5) move[4] = char(std::tolower(static_cast<unsigned char>(move[4])));
  return move;
}

struct Engine::Impl {
  explicit Impl(EngineCallbacks cb) : callbacks(std::move(cb)) {
    std::string error;
    network = eval::nnue::Network::embedded(error);
    network_name = network ? std::string(kEmbeddedNetworkName) : "none (" + error + ")";
  }

  // The evaluation network (the embedded one unless EvalFile named another) and whether the
  // search uses it; without one the hand-crafted evaluation plays.
  std::optional<eval::nnue::Network> network;
  std::string network_name;
  bool use_network = kNetworkByDefault;

  EngineCallbacks callbacks;
  Position position = Position::startpos();
  // Fathom's state is process-wide; this is its one owner (see tablebase.h). Declared before
  // the pool, so that it outlives every search that probes it.
  search::Tablebases tablebases;
  int tb_probe_depth = 1;
  int tb_probe_limit = 7;
  bool tb_50_move_rule = true;
  search::TranspositionTable tt;  // declared before the pool, which refers to it
  search::SearchPool pool{tt};
  int multipv = 1;
  int move_overhead_ms = 10;
  bool chess960 = false;
  bool ponder = false;

  std::string hash_file;
  bool never_clear_hash = false;
  // False from go() until the search has reported its best move: from then on it only winds
  // down, so the hash file need not be refused (the GUI has seen the search end).
  std::atomic<bool> bestmove_reported{true};

  std::optional<book::PolyglotBook> book;
  bool own_book = false;
  bool book_best_move = false;
  int book_depth = 100;
  // Seeded from the system so that games differ; tests fix the seed with set_book_seed.
  std::mt19937_64 book_rng{random_seed()};

  bool limit_strength = false;
  bool search_weakened = false;  // the running (or last) search is strength-limited
  StrengthLimit strength;
  std::mt19937_64 strength_rng{random_seed()};

  // std::random_device may throw where no entropy source exists; the clock still varies.
  [[nodiscard]] static std::uint64_t random_seed() {
    const auto now = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    try {
      std::random_device device;
      return now ^ ((std::uint64_t(device()) << 32) | device());
    } catch (...) {
      return now;
    }
  }

  [[nodiscard]] search::SearchConfig config(search::Reports reports) const {
    search::SearchConfig c;
    c.multipv = multipv;
    c.move_overhead_ms = move_overhead_ms;
    c.ponder_enabled = ponder;
    c.reports = reports;
    c.tablebases = &tablebases;
    c.tb_probe_depth = tb_probe_depth;
    c.tb_probe_limit = tb_probe_limit;
    c.tb_50_move_rule = tb_50_move_rule;
    c.network = use_network && network ? &*network : nullptr;
    return c;
  }

  [[nodiscard]] EngineCallbacks marking_report(EngineCallbacks cb) {
    cb.on_bestmove = [this, inner = std::move(cb.on_bestmove)](Move best, Move ponder_move) {
      bestmove_reported.store(true, std::memory_order_release);
      if (inner) inner(best, ponder_move);
    };
    return cb;
  }

  // Why the hash file cannot be `verb`ed now, or "".
  [[nodiscard]] std::string hash_file_refusal(const char* verb) const {
    if (pool.searching() && !bestmove_reported.load(std::memory_order_acquire))
      return std::string("cannot ") + verb + " the hash file while a search runs (send stop first)";
    if (hash_file.empty()) return "no hash file is named (set the HashFile option)";
    return {};
  }

  [[nodiscard]] bool weakened(const SearchLimits& limits) const {
    return limit_strength && !limits.infinite;
  }

  // The callbacks of a strength-limited search: every line is recorded, the ones the user
  // asked for are passed on, and the best move is chosen among the recorded lines of the last
  // iteration. Both run on the main search thread, one after the other, so the shared record
  // needs no lock.
  [[nodiscard]] EngineCallbacks weakened_callbacks() {
    auto lines = std::make_shared<std::vector<SearchInfo>>();
    EngineCallbacks cb = callbacks;
    cb.on_info = [lines, shown = multipv, inner = callbacks.on_info](const SearchInfo& info) {
      const auto slot = std::size_t(std::max(info.multipv, 1) - 1);
      if (lines->size() <= slot) lines->resize(slot + 1);
      (*lines)[slot] = info;
      if (info.multipv <= shown && inner) inner(info);
    };
    cb.on_bestmove = [this, lines, inner_info = callbacks.on_info, inner = callbacks.on_bestmove](
                         Move best, Move ponder_move) {
      std::vector<ScoredMove> scored;
      std::vector<const SearchInfo*> source;
      for (const SearchInfo& line : *lines) {
        // A line that failed low has only an upper bound: it may be far worse than it shows.
        const bool first = &line == &lines->front();
        if (line.pv.empty() || line.depth + 1 < lines->front().depth ||
            (!first && line.bound == Bound::Upper))
          continue;
        scored.push_back({line.pv[0], line.pv.size() > 1 ? line.pv[1] : Move::none(), line.score,
                          line.is_mate, line.mate_moves});
        source.push_back(&line);
      }
      if (!scored.empty() && scored.front().move == best) {
        const std::size_t pick = choose_weaker_move(scored, strength, strength_rng);
        if (pick != 0) {
          best = scored[pick].move;
          ponder_move = scored[pick].reply;
          SearchInfo played = *source[pick];  // the GUI shows the line of the move played
          played.multipv = 1;
          if (inner_info) inner_info(played);
        }
      }
      if (inner) inner(best, ponder_move);
    };
    return cb;
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
    const Move m = pos->parse_uci_move(lowercase_promotion(text));
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
  if (!impl_->never_clear_hash) impl_->tt.clear();
  impl_->pool.clear_histories();
}

void Engine::go(const SearchLimits& limits) {
  // An analysis (infinite, ponder), a mate search or a restricted root wants the search, not
  // the book.
  if (!limits.infinite && !limits.ponder && limits.mate == 0 && limits.searchmoves.empty()) {
    if (const Move m = book_move()) {
      const EngineCallbacks& cb = impl_->callbacks;
      if (cb.on_message) cb.on_message("book move " + impl_->position.move_to_uci(m));
      if (cb.on_info) {
        SearchInfo info;
        info.depth = 1;
        info.seldepth = 1;
        info.pv = {m};
        cb.on_info(info);
      }
      if (cb.on_bestmove) cb.on_bestmove(m, book_reply(m));
      return;
    }
  }
  Impl& e = *impl_;
  e.bestmove_reported.store(false, std::memory_order_release);
  e.search_weakened = e.weakened(limits);
  if (!e.search_weakened) {
    e.pool.start(e.position, limits, e.config(search::Reports::All), e.marking_report(e.callbacks),
                 e.position.game_ply());
    return;
  }
  SearchLimits weak = limits;
  if (const std::uint64_t budget = e.strength.nodes())
    weak.nodes = limits.nodes ? std::min(limits.nodes, budget) : budget;
  search::SearchConfig config = e.config(search::Reports::All);
  if (e.strength.temperature_cp() > 0)
    config.multipv = std::max(config.multipv, StrengthLimit::candidates());
  e.pool.start(e.position, weak, config, e.marking_report(e.weakened_callbacks()),
               e.position.game_ply());
}

void Engine::set_limit_strength(bool on) {
  wait();
  impl_->limit_strength = on;
}

std::string Engine::set_elo(int elo) {
  if (elo < StrengthLimit::kMinElo || elo > StrengthLimit::kMaxElo)
    return "UCI_Elo must be from " + std::to_string(StrengthLimit::kMinElo) + " to " +
           std::to_string(StrengthLimit::kMaxElo);
  wait();
  impl_->strength.elo = elo;
  return "";
}

void Engine::set_strength_seed(std::uint64_t seed) {
  wait();
  impl_->strength_rng.seed(seed);
}

void Engine::stop() { impl_->pool.stop(); }

void Engine::ponderhit() { impl_->pool.ponderhit(); }

void Engine::wait() { impl_->pool.wait(); }

bool Engine::searching() const { return impl_->pool.searching(); }

void Engine::set_use_network(bool on) {
  wait();
  impl_->use_network = on;
}

std::string Engine::set_eval_file(const std::string& path) {
  wait();
  std::string error;
  if (path.empty() || path == "<default>" || path == "<empty>") {
    auto net = eval::nnue::Network::embedded(error);
    if (!net) return "the embedded network is unusable: " + error;
    impl_->network = std::move(net);
    impl_->network_name = std::string(kEmbeddedNetworkName);
    return "";
  }
  auto params = eval::nnue::read_network_file(path, error);
  auto net = params ? eval::nnue::Network::from_parameters(*params, error) : std::nullopt;
  if (!net) return "EvalFile '" + path + "': " + error;
  impl_->network = std::move(net);
  impl_->network_name = path;
  return "";
}

eval::EvalTrace Engine::hand_crafted_trace(const Position& pos) {
  return eval::evaluate_traced(pos);
}

std::optional<eval::nnue::NetworkTrace> Engine::network_trace(const Position& pos) const {
  if (!impl_->network) return std::nullopt;
  return eval::nnue::trace(*impl_->network, pos);
}

bool Engine::network_in_use() const { return impl_->use_network && impl_->network; }

std::string Engine::network_description() const {
  if (!impl_->use_network)
    return "hand-crafted evaluation (Use NNUE is off); network " + impl_->network_name;
  if (!impl_->network) return "hand-crafted evaluation: no usable network";
  // The shape too, since a file of any supported width or king-bucket layout may be loaded.
  const eval::nnue::Network& net = *impl_->network;
  return "network " + impl_->network_name + ", (" +
         eval::nnue::describe_inputs(net.king_buckets()) + " -> " + std::to_string(net.hidden()) +
         ") x 2 -> 1";
}

std::string Engine::set_hash_mb(std::size_t mb) {
  wait();
  return impl_->tt.resize(mb);
}

std::string Engine::set_hash_key_bits(int bits) {
  if (bits < 0 || bits > 16) return "hash key bits must be 0 (full keys) or 1..16";
  wait();
  impl_->tt.set_key_bits(bits);
  impl_->tt.clear();
  return "";
}

std::string Engine::set_threads(int n) { return impl_->pool.set_threads(n); }

void Engine::clear_hash() {
  wait();
  impl_->tt.clear();
}

void Engine::set_multipv(int n) {
  Impl& e = *impl_;
  e.multipv = std::clamp(n, 1, kMaxMoves);
  // A weakened search keeps the candidates it chooses among, whatever is shown.
  if (searching())
    e.pool.set_multipv(e.search_weakened ? std::max(e.multipv, StrengthLimit::candidates())
                                         : e.multipv);
}

void Engine::set_move_overhead_ms(int ms) { impl_->move_overhead_ms = std::max(ms, 0); }

void Engine::set_chess960(bool on) {
  wait();
  impl_->chess960 = on;
  impl_->position.set_chess960(on);
}

void Engine::set_ponder(bool on) { impl_->ponder = on; }

void Engine::set_hash_file(const std::string& path) {
  impl_->hash_file = path == "<empty>" ? std::string() : path;
}

const std::string& Engine::hash_file() const { return impl_->hash_file; }

HashFileResult Engine::save_hash_file() {
  HashFileResult refused;
  refused.error = impl_->hash_file_refusal("save");
  if (!refused.error.empty()) return refused;
  wait();
  return search::save_tt_file(impl_->tt, impl_->hash_file);
}

HashFileResult Engine::load_hash_file() {
  HashFileResult refused;
  refused.error = impl_->hash_file_refusal("load");
  if (!refused.error.empty()) return refused;
  wait();
  return search::load_tt_file(impl_->tt, impl_->hash_file);
}

void Engine::set_never_clear_hash(bool on) { impl_->never_clear_hash = on; }

std::string Engine::set_book_file(const std::string& path) {
  impl_->book.reset();
  if (path.empty() || path == "<empty>") return {};
  std::string error;
  impl_->book = book::PolyglotBook::load(path, error);
  return impl_->book ? std::string() : error + "; playing without a book";
}

void Engine::set_own_book(bool on) { impl_->own_book = on; }

void Engine::set_book_best_move(bool on) { impl_->book_best_move = on; }

void Engine::set_book_depth(int plies) { impl_->book_depth = std::max(plies, 0); }

void Engine::set_book_seed(std::uint64_t seed) { impl_->book_rng.seed(seed); }

// The opponent's most played book answer to `m`: a ponder move for the GUI, or none.
Move Engine::book_reply(Move m) const {
  const Impl& e = *impl_;
  if (!e.book) return Move::none();
  Position after = e.position;
  after.make_move(m);
  const std::vector<book::BookMove> replies = e.book->moves(after);
  const auto top = std::max_element(
      replies.begin(), replies.end(),
      [](const book::BookMove& a, const book::BookMove& b) { return a.weight < b.weight; });
  return top == replies.end() ? Move::none() : top->move;
}

bool Engine::book_loaded() const { return impl_->book.has_value(); }

Move Engine::book_move() {
  const Impl& e = *impl_;
  if (!e.own_book || !e.book || e.position.plies_from_start() >= e.book_depth) return Move::none();
  return e.book->pick(e.position, e.book_best_move, impl_->book_rng);
}

bool Engine::syzygy_supported() { return search::Tablebases::supported(); }

std::string Engine::set_syzygy_path(const std::string& paths) {
  wait();  // no search may probe while Fathom reloads
  std::string error = impl_->tablebases.load(paths);
  return error.empty() ? error : error + "; playing without tablebases";
}

Engine::SyzygyTables Engine::syzygy_tables() const {
  const search::TablebaseFiles& files = impl_->tablebases.files();
  return {files.wdl, files.dtz, files.max_pieces};
}

void Engine::set_syzygy_probe_depth(int depth) { impl_->tb_probe_depth = std::max(depth, 1); }

void Engine::set_syzygy_probe_limit(int pieces) {
  impl_->tb_probe_limit = std::clamp(pieces, 0, search::Tablebases::kMaxPieces);
}

void Engine::set_syzygy_50_move_rule(bool on) { impl_->tb_50_move_rule = on; }

eval::CacheStats Engine::eval_cache_counts() const { return impl_->pool.eval_cache_stats(); }

std::uint64_t Engine::search_sync(const SearchLimits& limits, search::Reports reports) {
  // Histories start empty too, so that the node count depends on nothing but the position,
  // the limits and the table contents (cleared by the caller).
  impl_->pool.clear_histories();
  impl_->pool.start(impl_->position, limits, impl_->config(reports), impl_->callbacks,
                    impl_->position.game_ply());
  impl_->pool.wait();
  return impl_->pool.nodes();
}

}  // namespace tessera::engine
