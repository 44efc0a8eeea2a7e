#include "datagen/datagen.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <filesystem>
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
#include "datagen/chain.h"
#include "datagen/chain_file.h"
#include "datagen/data_writer.h"
#include "datagen/openings.h"
#include "datagen/record_file.h"
#include "datagen/searcher.h"
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

struct FinishedGame {
  std::vector<TrainingRecord> records;
  std::vector<Move> moves;  // the best move of each record's search (the one played)
  GameResult result = GameResult::Draw;
  int plies = 0;  // played, opening included
};

// One engine and the games it plays, one at a time.
class GamePlayer {
 public:
  GamePlayer(const DatagenConfig& config, const std::vector<std::string>& openings,
             const std::atomic<bool>& stop)
      : config_(config), openings_(openings), stop_(stop) {}

  // Applies the options; an error message, or "".
  [[nodiscard]] std::string configure() {
    return searcher_.configure({config_.chess960 || config_.chess960_starts, config_.hash_mb,
                                config_.use_network, config_.eval_file});
  }

  // Game `index`, or nullopt when a stop was requested before it ended.
  [[nodiscard]] std::optional<FinishedGame> play(int index) {
    std::mt19937_64 rng = game::game_generator(config_.seed, index);
    for (int attempt = 1;; ++attempt) {
      if (stop_.load(std::memory_order_relaxed)) return std::nullopt;
      draw_opening(rng);
      searcher_.new_game();
      const bool last_try = attempt == kOpeningTries;
      if (auto over = rules_result(pos_, plies(), config_.max_plies)) {
        if (!last_try) continue;
        return FinishedGame{{}, {}, *over, plies()};  // no playable opening: no records
      }
      const SearchResult first = search();
      if ((first.mate || std::abs(first.score) > config_.opening_bound) && !last_try) continue;
      return play_out(first);
    }
  }

 private:
  [[nodiscard]] int plies() const { return int(moves_.size()); }

  // A start position (from the openings, or the standard one) and the random plies after it.
  void draw_opening(std::mt19937_64& rng) {
    if (!openings_.empty()) {
      start_ = openings_[std::size_t(rng() % openings_.size())];
    } else if (config_.chess960_starts) {
      start_ = game::chess960_start_fen(int(rng() % 960));
    } else {
      start_ = std::string(Position::kStartFen);
    }
    std::string error;
    pos_ = *Position::from_fen(start_, config_.chess960 || config_.chess960_starts,
                               error);  // checked when loaded
    moves_.clear();
    game::play_random_plies(pos_, rng, config_.random_plies, moves_);
  }

  [[nodiscard]] SearchResult search() {
    search::SearchLimits limits;
    if (config_.depth > 0) {
      limits.depth = config_.depth;
    } else if (config_.soft_nodes > 0) {
      limits.soft_nodes = config_.soft_nodes;
      limits.nodes = config_.soft_nodes * kSoftNodeCap;
    } else {
      limits.nodes = config_.nodes;
    }
    return searcher_.search(start_, moves_, pos_, limits);
  }

  [[nodiscard]] TrainingRecord make_record(const SearchResult& s) const {
    const int white = pos_.side_to_move() == WHITE ? s.score : -s.score;
    return record_of(pos_, s.mate ? (white > 0 ? kScoreLimit : -kScoreLimit) : white, s.best,
                     pos_.plies_from_start(), pos_.rule50());
  }

  // The game from the accepted opening, whose first search is `s`.
  [[nodiscard]] std::optional<FinishedGame> play_out(SearchResult s) {
    FinishedGame game;
    int white_ahead = 0, black_ahead = 0, level = 0;  // plies in a row past the thresholds
    std::optional<GameResult> result;
    for (;;) {
      game.records.push_back(make_record(s));
      game.moves.push_back(s.best);
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
  Searcher searcher_;
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

// The game as a chain: its first record's position and clocks, and each search's move.
[[nodiscard]] GameChain chain_of(const FinishedGame& game) {
  GameChain chain;
  if (game.records.empty()) return chain;
  chain.start = game.records.front().position;
  chain.ply = game.records.front().ply;
  chain.rule50 = game.records.front().rule50;
  chain.result = game.result;
  for (std::size_t i = 0; i < game.records.size(); ++i)
    chain.plies.push_back({game.moves[i], game.records[i].score_white});
  return chain;
}

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
  std::string error, warning;
  if (!config.openings.empty() &&
      !load_openings(config.openings, config.chess960, openings, error, &warning)) {
    fmt::print(err, "error: {}\n", error);
    return 1;
  }
  if (!warning.empty()) fmt::print(err, "warning: {}\n", warning);
  DataWriter writer;
  if (!writer.open(config.output, config.append, config.format, error)) {
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
          auto game = player.play(config.first_game + index);
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
      writer.write(chain_of(game), game.records);
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
    fmt::print(out,
               "datagen: stopped after {} of {} games; the file holds every game before (resume "
               "with --append --first-game {})\n",
               written, config.games, config.first_game + written);
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
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  fmt::print(out, "file: {}\n", path);
  fmt::print(out, "format: {}, {} bytes, {:.2f} bytes a position\n",
             reader.chains() ? "game chains" : "32-byte records", ec ? 0 : bytes,
             records && !ec ? double(bytes) / double(records) : 0.0);
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
