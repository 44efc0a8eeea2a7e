#include "datagen/datagen.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "datagen/record_file.h"
#include "engine/engine.h"
#include "game/game_rules.h"

namespace tessera::datagen {

namespace {

using Clock = std::chrono::steady_clock;

// Set by SIGINT / SIGTERM while run_datagen runs without a caller's stop flag.
std::atomic<bool> g_stop_signal{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_stop_signal(int signal) {
  g_stop_signal.store(true);
  std::signal(signal, SIG_DFL);  // a second signal ends the process the usual way
}

// Installs the handlers for its lifetime.
class SignalGuard {
 public:
  SignalGuard() {
    g_stop_signal.store(false);
    old_int_ = std::signal(SIGINT, on_stop_signal);
    old_term_ = std::signal(SIGTERM, on_stop_signal);
  }
  ~SignalGuard() {
    std::signal(SIGINT, old_int_);
    std::signal(SIGTERM, old_term_);
  }
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

 private:
  void (*old_int_)(int) = SIG_DFL;
  void (*old_term_)(int) = SIG_DFL;
};

// The result by the rules with `pos`'s side to move, `plies` plies into the game; else nullopt.
[[nodiscard]] std::optional<GameResult> rules_result(const Position& pos, int plies,
                                                     int max_plies) {
  const auto verdict = game::rules_verdict(pos, plies, max_plies);
  if (!verdict) return std::nullopt;
  switch (verdict->result) {
    case game::Result::WhiteWins:
      return GameResult::WhiteWins;
    case game::Result::BlackWins:
      return GameResult::BlackWins;
    case game::Result::Draw:
      break;
  }
  return GameResult::Draw;
}

// The first four fields of an EPD line (plus the two counters when a FEN has them).
[[nodiscard]] std::string epd_position(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> fields;
  std::string field;
  while (fields.size() < 6 && in >> field) fields.push_back(field);
  const auto is_number = [](const std::string& s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const std::size_t keep = fields.size() == 6 && is_number(fields[4]) && is_number(fields[5])
                               ? 6
                               : std::min<std::size_t>(fields.size(), 4);
  std::string fen;
  for (std::size_t i = 0; i < keep; ++i) fen += (i ? " " : "") + fields[i];
  return fen;
}

// The start positions of an openings file, each checked; empty lines and '#' comments skipped.
[[nodiscard]] bool load_openings(const std::string& path, bool chess960,
                                 std::vector<std::string>& fens, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = fmt::format("cannot read the openings file '{}'", path);
    return false;
  }
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    std::string fen = epd_position(line);
    std::string why;
    if (!Position::from_fen(fen, chess960, why)) {
      error = fmt::format("{}:{}: not a position: {}", path, number, why);
      return false;
    }
    fens.push_back(std::move(fen));
  }
  if (in.bad()) {
    error = fmt::format("cannot read the openings file '{}'", path);
    return false;
  }
  if (fens.empty()) {
    error = fmt::format("the openings file '{}' has no positions", path);
    return false;
  }
  return true;
}

struct FinishedGame {
  std::vector<TrainingRecord> records;
  GameResult result = GameResult::Draw;
  int plies = 0;  // played, opening included
};

struct SearchResult {
  Move best = Move::none();
  int score = 0;  // side to move
  bool mate = false;
};

// One engine and the games it plays, one at a time.
class GamePlayer {
 public:
  GamePlayer(const DatagenConfig& config, const std::vector<std::string>& openings,
             const std::atomic<bool>& stop)
      : config_(config), openings_(openings), stop_(stop) {
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

  // Applies the options; an error message, or "".
  [[nodiscard]] std::string configure() {
    engine_->set_chess960(config_.chess960);
    if (std::string e = engine_->set_threads(1); !e.empty()) return e;
    return engine_->set_hash_mb(config_.hash_mb);
  }

  // Game `index`, or nullopt when a stop was requested before it ended.
  [[nodiscard]] std::optional<FinishedGame> play(int index) {
    std::mt19937_64 rng = game::game_generator(config_.seed, index);
    for (int attempt = 1;; ++attempt) {
      if (stop_.load(std::memory_order_relaxed)) return std::nullopt;
      draw_opening(rng);
      engine_->new_game();
      const bool last_try = attempt == kOpeningTries;
      if (auto over = rules_result(pos_, plies(), config_.max_plies)) {
        if (!last_try) continue;
        return FinishedGame{{}, *over, plies()};  // no playable opening: a game without records
      }
      const SearchResult first = search();
      if ((first.mate || std::abs(first.score) > kOpeningMaxScore) && !last_try) continue;
      return play_out(first);
    }
  }

 private:
  [[nodiscard]] int plies() const { return int(moves_.size()); }

  // A start position (from the openings, or the standard one) and the random plies after it.
  void draw_opening(std::mt19937_64& rng) {
    start_ = openings_.empty() ? std::string(Position::kStartFen)
                               : openings_[std::size_t(rng() % openings_.size())];
    std::string error;
    pos_ = *Position::from_fen(start_, config_.chess960, error);  // checked when loaded
    moves_.clear();
    game::play_random_plies(pos_, rng, config_.random_plies, moves_);
  }

  [[nodiscard]] SearchResult search() {
    if (std::string e = engine_->set_position(start_, moves_); !e.empty())
      throw std::runtime_error("the engine refused a game position: " + e);
    search::SearchLimits limits;
    if (config_.depth > 0) {
      limits.depth = config_.depth;
    } else {
      limits.nodes = config_.nodes;
    }
    {
      const std::lock_guard lock(mutex_);
      last_ = SearchResult{};
    }
    engine_->search_sync(limits, true);
    const std::lock_guard lock(mutex_);
    if (last_.best.is_none() || !pos_.is_legal_move(last_.best))
      throw std::runtime_error("the search returned no legal move in " + pos_.fen());
    return last_;
  }

  [[nodiscard]] TrainingRecord make_record(const SearchResult& s) const {
    TrainingRecord r;
    r.position = encode(pos_);
    const int white = pos_.side_to_move() == WHITE ? s.score : -s.score;
    r.score_white = std::int16_t(s.mate ? (white > 0 ? kScoreLimit : -kScoreLimit)
                                        : std::clamp(white, -kScoreLimit, kScoreLimit));
    const bool quiet =
        !pos_.in_check() && !pos_.is_capture(s.best) && s.best.kind() != MoveKind::Promotion;
    r.flags = std::uint8_t((quiet ? TrainingRecord::kQuiet : 0) |
                           (pos_.in_check() ? TrainingRecord::kInCheck : 0));
    r.ply = std::uint16_t(std::min(pos_.plies_from_start(), 0xFFFF));
    r.rule50 = std::uint8_t(std::min(pos_.rule50(), 0xFF));
    return r;
  }

  // The game from the accepted opening, whose first search is `s`.
  [[nodiscard]] std::optional<FinishedGame> play_out(SearchResult s) {
    FinishedGame game;
    int white_ahead = 0, black_ahead = 0, level = 0;  // plies in a row past the thresholds
    std::optional<GameResult> result;
    for (;;) {
      game.records.push_back(make_record(s));
      const int white = pos_.side_to_move() == WHITE ? s.score : -s.score;
      if (s.mate) {
        result = white > 0 ? GameResult::WhiteWins : GameResult::BlackWins;
        break;
      }
      white_ahead = white >= kWinScore ? white_ahead + 1 : 0;
      black_ahead = white <= -kWinScore ? black_ahead + 1 : 0;
      level =
          pos_.plies_from_start() >= kDrawMinPly && std::abs(white) <= kDrawScore ? level + 1 : 0;
      if (white_ahead >= kWinPlies || black_ahead >= kWinPlies) {
        result = white_ahead >= kWinPlies ? GameResult::WhiteWins : GameResult::BlackWins;
        break;
      }
      if (level >= kDrawPlies) {
        result = GameResult::Draw;
        break;
      }
      moves_.push_back(pos_.move_to_uci(s.best));
      pos_.make_move(s.best);
      if ((result = rules_result(pos_, plies(), config_.max_plies))) break;
      if (stop_.load(std::memory_order_relaxed)) return std::nullopt;
      s = search();
    }
    for (TrainingRecord& r : game.records) r.result = *result;
    game.result = *result;
    game.plies = plies();
    return game;
  }

  const DatagenConfig& config_;
  const std::vector<std::string>& openings_;
  const std::atomic<bool>& stop_;
  std::string start_;
  Position pos_ = Position::startpos();
  std::vector<std::string> moves_;
  std::mutex mutex_;
  SearchResult last_;
  std::unique_ptr<engine::Engine>
      engine_;  // last: its search threads go before what they report to
};

// Finished games, handed from the players to the writer, which takes them in index order.
class ReorderBuffer {
 public:
  explicit ReorderBuffer(int players) : players_(players) {}

  void put(int index, FinishedGame game) {
    {
      const std::lock_guard lock(mutex_);
      games_.emplace(index, std::move(game));
    }
    cv_.notify_all();
  }
  void player_done(std::string error) {
    {
      const std::lock_guard lock(mutex_);
      --players_;
      if (!error.empty() && error_.empty()) error_ = std::move(error);
    }
    cv_.notify_all();
  }
  // The games from `next` on without a gap, waiting up to `timeout` for game `next`; `over` is
  // set once no player is left, so nothing more will come.
  [[nodiscard]] std::vector<FinishedGame> take(int next, std::chrono::milliseconds timeout,
                                               bool& over) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, timeout, [&] { return games_.count(next) || players_ == 0; });
    std::vector<FinishedGame> taken;
    for (auto it = games_.find(next); it != games_.end() && it->first == next;
         it = games_.erase(it), ++next)
      taken.push_back(std::move(it->second));
    over = players_ == 0 && !games_.count(next);
    return taken;
  }
  [[nodiscard]] std::string error() {
    const std::lock_guard lock(mutex_);
    return error_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::map<int, FinishedGame> games_;
  int players_;
  std::string error_;
};

[[nodiscard]] std::string duration_text(double seconds) {
  const auto s = std::int64_t(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

}  // namespace

int run_datagen(const DatagenConfig& config, std::ostream& out, std::ostream& err,
                const std::atomic<bool>* stop) {
  std::optional<SignalGuard> signals;
  if (!stop) {
    signals.emplace();
    stop = &g_stop_signal;
  }
  std::vector<std::string> openings;
  std::string error;
  if (!config.openings.empty() &&
      !load_openings(config.openings, config.chess960, openings, error)) {
    fmt::print(err, "error: {}\n", error);
    return 1;
  }
  RecordWriter writer;
  if (!writer.open(config.output, config.append, error)) {
    fmt::print(err, "error: {}\n", error);
    return 1;
  }

  const int player_count = std::max(1, std::min(config.threads, config.games));
  std::atomic<bool> halt{stop->load()};  // a stop request, or a player's failure
  std::atomic<int> next_game{0};
  ReorderBuffer buffer(player_count);
  std::vector<std::thread> players;
  for (int t = 0; t < player_count; ++t) {
    players.emplace_back([&] {
      std::string failure;
      try {
        GamePlayer player(config, openings, halt);
        failure = player.configure();
        while (failure.empty() && !halt.load()) {
          const int index = next_game.fetch_add(1);
          if (index >= config.games) break;
          auto game = player.play(index);
          if (!game) break;
          buffer.put(index, std::move(*game));
        }
      } catch (const std::exception& e) {
        failure = e.what();
      }
      if (!failure.empty()) halt.store(true);
      buffer.player_done(std::move(failure));
    });
  }

  const Clock::time_point start = Clock::now();
  Clock::time_point last_report = start;
  int written = 0;
  std::uint64_t positions = 0, total_plies = 0;
  std::array<int, 3> results{};  // indexed by GameResult
  const auto progress = [&](bool final) {
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const double rate = double(positions) / std::max(seconds, 1e-3);
    const std::string eta =
        written > 0 ? duration_text(seconds * (config.games - written) / written) : "?";
    fmt::print(err, "{}datagen: {}/{} games, {} positions, {:.0f} positions/s, ETA {}{}",
               config.progress_in_place ? "\r" : "", written, config.games, positions, rate, eta,
               config.progress_in_place && !final ? "  " : "\n");
    err.flush();
  };

  bool over = false;
  while (!over && written < config.games) {
    if (stop->load()) halt.store(true);
    for (FinishedGame& game : buffer.take(written, std::chrono::milliseconds(100), over)) {
      for (const TrainingRecord& r : game.records) writer.write(r);
      // One zstd frame a game, flushed: a killed process leaves every game written before it.
      // Frames of a game's hundred-odd records compress within a few per cent of one frame.
      writer.flush();
      positions += game.records.size();
      total_plies += std::uint64_t(game.plies);
      ++results[std::size_t(game.result)];
      ++written;
    }
    if (!writer.error().empty()) halt.store(true);
    if (Clock::now() - last_report >= std::chrono::seconds(1)) {
      progress(false);
      last_report = Clock::now();
    }
  }
  halt.store(true);
  for (std::thread& t : players) t.join();
  // Games finished after the writer saw `over` cannot exist: `over` means every player left.
  writer.close();
  progress(true);

  if (!writer.error().empty()) {
    fmt::print(err, "error: {}\n", writer.error());
    return 1;
  }
  if (std::string failure = buffer.error(); !failure.empty()) {
    fmt::print(err, "error: {}\n", failure);
    return 1;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  fmt::print(out,
             "datagen: {} games, {} positions, +{} ={} -{} (white's view), {:.1f} plies per game, "
             "{:.1f} s, {:.0f} positions/s, {} '{}'\n",
             written, positions, results[2], results[1], results[0],
             written ? double(total_plies) / written : 0.0, seconds,
             double(positions) / std::max(seconds, 1e-3),
             config.append ? "appended to" : "written to", config.output);
  if (written < config.games) {
    fmt::print(out, "datagen: stopped after {} of {} games; the file holds every game before\n",
               written, config.games);
    return 130;
  }
  return 0;
}

int run_datagen_stats(const std::string& path, std::ostream& out, std::ostream& err) {
  RecordReader reader;
  std::string error;
  if (!reader.open(path, error)) {
    fmt::print(err, "error: {}\n", error);
    return 1;
  }
  std::uint64_t records = 0, quiet = 0, in_check = 0, games = 0;
  std::array<std::uint64_t, 3> results{};
  double abs_score = 0;
  int previous_ply = -1;
  TrainingRecord r;
  while (reader.next(r)) {
    ++records;
    quiet += r.quiet();
    in_check += r.in_check();
    ++results[std::size_t(r.result)];
    abs_score += std::abs(int(r.score_white));
    if (int(r.ply) != previous_ply + 1) ++games;
    previous_ply = r.ply;
  }
  const auto share = [&](std::uint64_t n) {
    return records ? 100.0 * double(n) / double(records) : 0.0;
  };
  fmt::print(out, "file: {}\n", path);
  fmt::print(out, "records: {}\n", records);
  fmt::print(out, "games: {} (runs of consecutive plies)\n", games);
  fmt::print(out, "quiet: {} ({:.1f}%)\n", quiet, share(quiet));
  fmt::print(out, "in check: {} ({:.1f}%)\n", in_check, share(in_check));
  fmt::print(out, "results (white's view, per record): +{} ={} -{} ({:.1f}% / {:.1f}% / {:.1f}%)\n",
             results[2], results[1], results[0], share(results[2]), share(results[1]),
             share(results[0]));
  fmt::print(out, "mean |score|: {:.1f} cp\n", records ? abs_score / double(records) : 0.0);
  if (reader.error().empty()) return 0;
  if (reader.truncated()) {
    fmt::print(err, "warning: {}\n", reader.error());
    return 0;
  }
  fmt::print(err, "error: {}\n", reader.error());
  return 1;
}

}  // namespace tessera::datagen
