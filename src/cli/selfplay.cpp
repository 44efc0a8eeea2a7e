#include "cli/selfplay.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <ostream>
#include <random>
#include <utility>
#include <vector>

#include "cli/flags.h"
#include "core/movegen.h"
#include "core/position.h"
#include "core/san.h"
#include "engine/engine.h"
#include "game/game_rules.h"

namespace tessera::cli {

namespace {

using Clock = std::chrono::steady_clock;

// A move this long after the flag fell is a hang, not a slow move: the search gets stopped.
constexpr std::int64_t kGraceMs = 5000;
// Without a clock (--nodes) a move taking this long, plus 1 ms per 100 nodes, is a hang.
constexpr std::int64_t kNodesHangMs = 30000;

[[nodiscard]] std::int64_t ms_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

// Hands bestmove from the search thread to the referee, with the time it arrived. It counts
// the reports too: one `go` must produce exactly one bestmove.
class Mailbox {
 public:
  void post(Move best) {
    {
      const std::lock_guard lock(mutex_);
      best_ = best;
      at_ = Clock::now();
      ++posts_;
    }
    cv_.notify_all();
  }
  void clear() {
    const std::lock_guard lock(mutex_);
    posts_ = 0;
  }
  [[nodiscard]] int posts() {
    const std::lock_guard lock(mutex_);
    return posts_;
  }
  // The first move posted since clear() and when it came, or nullopt at `deadline`.
  [[nodiscard]] std::optional<std::pair<Move, Clock::time_point>> wait_until(
      Clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_until(lock, deadline, [this] { return posts_ > 0; })) return std::nullopt;
    return std::pair{best_, at_};
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  Move best_ = Move::none();
  Clock::time_point at_{};
  int posts_ = 0;
};

enum class Outcome { WhiteWins, Draw, BlackWins, Failure };

struct GameResult {
  Outcome outcome = Outcome::Failure;
  std::string reason;
  int plies = 0;
  std::vector<std::string> san;  // the moves played, opening included
};

[[nodiscard]] std::string_view score_text(Outcome o) {
  switch (o) {
    case Outcome::WhiteWins:
      return "1-0";
    case Outcome::Draw:
      return "1/2-1/2";
    case Outcome::BlackWins:
      return "0-1";
    case Outcome::Failure:
      break;
  }
  return "failed";
}

// One game as the referee sees it: its own position and the text a GUI would send.
struct Game {
  Position pos;
  std::string start;  // "startpos" or a FEN, as given to set_position
  std::vector<std::string> moves;
  std::array<std::int64_t, 2> clock_ms{};
};

// The random opening of game `game_index`: the same plies as datagen's for the same seed.
void play_random_opening(Game& game, std::uint64_t seed, int game_index, int plies) {
  std::mt19937_64 rng = game::game_generator(seed, game_index);
  game::play_random_plies(game.pos, rng, plies, game.moves);
}

// The result when the game is over with `pos`'s side to move, else nullopt.
[[nodiscard]] std::optional<GameResult> adjudicate(const Position& pos, int plies, int max_plies) {
  const auto verdict = game::rules_verdict(pos, plies, max_plies);
  if (!verdict) return std::nullopt;
  const Outcome outcome = verdict->result == game::Result::WhiteWins   ? Outcome::WhiteWins
                          : verdict->result == game::Result::BlackWins ? Outcome::BlackWins
                                                                       : Outcome::Draw;
  GameResult result;
  result.outcome = outcome;
  result.reason = verdict->reason;
  return result;
}

[[nodiscard]] std::optional<std::string> check_bestmove(const Position& pos, Move best) {
  if (best.is_none()) return "bestmove 0000 although legal moves exist";
  if (!pos.is_legal_move(best))
    return fmt::format("illegal bestmove (raw {:#06x}, '{}')", best.raw(), pos.move_to_uci(best));
  const std::string text = pos.move_to_uci(best);
  if (pos.parse_uci_move(text) != best)
    return fmt::format("bestmove '{}' does not parse back to the same move", text);
  return std::nullopt;
}

[[nodiscard]] std::optional<std::string> check_keys(const Position& pos) {
  const auto mismatch = [](std::string_view name, Key kept, Key computed) {
    return fmt::format("{} {:016x} after the move, recomputed {:016x}", name, kept, computed);
  };
  if (pos.key() != pos.compute_key()) return mismatch("key", pos.key(), pos.compute_key());
  if (pos.pawn_key() != pos.compute_pawn_key())
    return mismatch("pawn key", pos.pawn_key(), pos.compute_pawn_key());
  if (pos.material_key() != pos.compute_material_key())
    return mismatch("material key", pos.material_key(), pos.compute_material_key());
  return std::nullopt;
}

// The UCI moves of a game from `start`, in SAN.
[[nodiscard]] std::vector<std::string> san_moves(Position pos,
                                                 const std::vector<std::string>& uci) {
  std::vector<std::string> san;
  for (const std::string& text : uci) {
    const Move m = pos.parse_uci_move(text);
    if (m.is_none()) break;  // cannot happen: every move was checked when played
    san.push_back(move_to_san(pos, m));
    pos.make_move(m);
  }
  return san;
}

// One game as PGN: the seven-tag roster, the start position when it is not the standard
// one, the moves in SAN (lines under 80 columns) and the result.
[[nodiscard]] std::string pgn_game(const SelfplayConfig& config, const Position& start, int index,
                                   const GameResult& result) {
  const std::string score = std::string(score_text(result.outcome));
  const std::string pgn_result = result.outcome == Outcome::Failure ? "*" : score;
  std::string text = fmt::format(
      "[Event \"Tessera selfplay\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"{}\"]\n"
      "[White \"Tessera\"]\n[Black \"Tessera\"]\n[Result \"{}\"]\n",
      index + 1, pgn_result);
  if (config.fen != "startpos" || config.chess960) {
    if (config.chess960) text += "[Variant \"Chess960\"]\n";
    text += fmt::format("[SetUp \"1\"]\n[FEN \"{}\"]\n", start.fen());
  }
  text += fmt::format("[Termination \"{}\"]\n\n", result.reason);
  std::string line;
  int ply = start.plies_from_start();
  const auto add = [&](const std::string& word) {
    if (line.size() + word.size() + 1 > 79) {
      text += line + '\n';
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  };
  for (std::size_t i = 0; i < result.san.size(); ++i, ++ply) {
    if (ply % 2 == 0)
      add(fmt::format("{}.", ply / 2 + 1));
    else if (i == 0)
      add(fmt::format("{}...", ply / 2 + 1));
    add(result.san[i]);
  }
  add(pgn_result);
  return text + line + "\n\n";
}

[[nodiscard]] std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : " ") + w;
  return text;
}

class Match {
 public:
  Match(const SelfplayConfig& config, Position start, std::ostream& err)
      : config_(config), start_(std::move(start)), err_(err) {
    for (int side = 0; side < 2; ++side) {
      Mailbox& box = mailboxes_[side];
      engines_[side] = std::make_unique<engine::Engine>(search::EngineCallbacks{
          nullptr, [&box](Move best, Move) { box.post(best); }, [](const std::string&) {}});
    }
  }

  // Applies the options to both engines; an error message, or "".
  [[nodiscard]] std::string configure() {
    for (auto& engine : engines_) {
      engine->set_chess960(config_.chess960);
      engine->set_move_overhead_ms(10);  // the UCI default
      if (std::string e = engine->set_threads(config_.threads); !e.empty()) return e;
      if (std::string e = engine->set_hash_key_bits(config_.tt_key_bits); !e.empty()) return e;
      if (std::string e = engine->set_hash_mb(config_.hash_mb); !e.empty()) return e;
    }
    return "";
  }

  [[nodiscard]] GameResult play(int index) {
    Game game{start_, config_.fen, {}, {config_.base_ms, config_.base_ms}};
    play_random_opening(game, config_.seed, index, config_.random_plies);
    for (auto& engine : engines_) engine->new_game();
    for (;;) {
      const int plies = int(game.moves.size());
      if (auto over = adjudicate(game.pos, plies, config_.max_plies)) {
        over->plies = plies;
        over->san = san_moves(start_, game.moves);
        return *over;
      }
      if (auto failure = engine_turn(game)) {
        report_failure(index, game, *failure);
        return GameResult{Outcome::Failure, *failure, plies, san_moves(start_, game.moves)};
      }
    }
  }

 private:
  // One move by the side to move, checked and played; the failure, or nullopt.
  [[nodiscard]] std::optional<std::string> engine_turn(Game& game) {
    const Color us = game.pos.side_to_move();
    engine::Engine& engine = *engines_[us];
    if (std::string e = engine.set_position(game.start, game.moves); !e.empty())
      return "set_position refused the game: " + e;
    if (engine.position().key() != game.pos.key() || engine.position().fen() != game.pos.fen())
      return fmt::format("the engine's position {} differs from the game's",
                         engine.position().fen());

    Mailbox& box = mailboxes_[us];
    box.clear();
    const Clock::time_point start = Clock::now();
    engine.go(go_limits(game));
    const std::int64_t allowed = config_.nodes ? kNodesHangMs + std::int64_t(config_.nodes / 100)
                                               : game.clock_ms[us] + kGraceMs;
    const auto reply = box.wait_until(start + std::chrono::milliseconds(allowed));
    if (!reply) return stop_hung_search(engine, box, allowed);
    engine.wait();
    if (box.posts() != 1) return fmt::format("{} bestmoves for one go", box.posts());

    const auto [best, at] = *reply;
    if (auto failure = check_bestmove(game.pos, best)) return failure;
    if (auto failure = charge_clock(game, us, ms_between(start, at))) return failure;
    game.moves.push_back(game.pos.move_to_uci(best));
    game.pos.make_move(best);
    return check_keys(game.pos);
  }

  [[nodiscard]] search::SearchLimits go_limits(const Game& game) const {
    search::SearchLimits limits;
    if (config_.nodes) {
      limits.nodes = config_.nodes;
      return limits;
    }
    for (int side = 0; side < 2; ++side) {
      limits.time[side] = game.clock_ms[side];
      limits.increment[side] = config_.increment_ms;
    }
    return limits;
  }

  // A flag that fell before the move arrived is a loss on time; else the clock runs down and
  // the increment is added, as a GUI's clock does.
  [[nodiscard]] std::optional<std::string> charge_clock(Game& game, Color us,
                                                        std::int64_t used_ms) {
    if (config_.nodes) return std::nullopt;
    std::int64_t& clock = game.clock_ms[us];
    if (used_ms > clock + config_.clock_margin_ms)
      return fmt::format("lost on time: {} ms used with {} ms left", used_ms, clock);
    if (used_ms > clock) {
      fmt::print(err_, "note: ply {}: {} ms used with {} ms left, within --clock-margin\n",
                 game.moves.size() + 1, used_ms, clock);
      used_ms = clock;  // the flag stands at zero rather than carrying the overrun on
    }
    clock += config_.increment_ms - used_ms;
    return std::nullopt;
  }

  // No bestmove by the deadline: ask the search to stop. If even that brings nothing the engine
  // is wedged, and destroying it would block forever, so the process ends here.
  [[nodiscard]] std::string stop_hung_search(engine::Engine& engine, Mailbox& box,
                                             std::int64_t allowed) {
    engine.stop();
    if (!box.wait_until(Clock::now() + std::chrono::milliseconds(kGraceMs))) {
      fmt::print(err_, "selfplay: the engine did not answer stop within {} ms; aborting\n",
                 kGraceMs);
      err_.flush();
      std::_Exit(1);
    }
    engine.wait();
    return fmt::format("no bestmove within {} ms (it came only after stop)", allowed);
  }

  void report_failure(int index, const Game& game, const std::string& what) {
    const char* side = game.pos.side_to_move() == WHITE ? "white" : "black";
    // The position as a UCI command, to paste into a session that reproduces the move.
    const std::string start = game.start == "startpos" ? game.start : "fen " + game.start;
    fmt::print(err_, "failure: game {} ply {} ({} to move): {}\n  position {} moves {}\n",
               index + 1, game.moves.size() + 1, side, what, start, join(game.moves));
  }

  const SelfplayConfig& config_;
  Position start_;
  std::ostream& err_;
  std::array<Mailbox, 2> mailboxes_;
  // Last: destroyed first, so no search thread outlives the mailbox it posts to.
  std::array<std::unique_ptr<engine::Engine>, 2> engines_;
};

[[nodiscard]] std::optional<double> parse_seconds(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0 ||
      value > 1e7)
    return std::nullopt;
  return value;
}

[[nodiscard]] std::optional<Position> start_position(const SelfplayConfig& config,
                                                     std::string& error) {
  if (config.fen == "startpos") {
    Position pos = Position::startpos();
    pos.set_chess960(config.chess960);
    return pos;
  }
  return Position::from_fen(config.fen, config.chess960, error);
}

}  // namespace

bool parse_time_control(std::string_view text, std::int64_t& base_ms, std::int64_t& increment_ms) {
  const std::size_t plus = text.find('+');
  const auto base = parse_seconds(text.substr(0, plus));
  const auto inc =
      plus == std::string_view::npos ? std::optional(0.0) : parse_seconds(text.substr(plus + 1));
  if (!base || !inc || *base * 1000 < 1) return false;
  base_ms = std::llround(*base * 1000);
  increment_ms = std::llround(*inc * 1000);
  return true;
}

void add_selfplay_options(cxxopts::Options& options) {
  // No cxxopts defaults: datagen shares most of these flags with defaults of its own, so the
  // help text names both and each configuration struct holds its command's values.
  const auto text = [] { return cxxopts::value<std::string>(); };
  options.add_options("selfplay and datagen")("games", "number of games (selfplay 10, datagen 100)",
                                              text())(
      "tc", "selfplay: time control BASE+INC in seconds (1+0.01)", text())(
      "nodes", "nodes per move instead of a clock (selfplay: off, datagen 5000)", text())(
      "threads", "selfplay: threads per engine; datagen: games at once (1)", text())(
      "hash", "hash table per engine in MB (16)", text())("seed", "seed of the random openings (1)",
                                                          text())(
      "random-plies", "random plies that open each game (8; datagen with --openings 0)", text())(
      "max-plies", "plies after which a game is adjudicated drawn (400)", text())(
      "clock-margin", "selfplay: ms a move may overrun the clock before it loses (0)", text())(
      "tt-key-bits", "selfplay: fold hash keys onto 2^N values to force collisions (0: off)",
      text())("pgn", "selfplay: write the games to this PGN file", text());
}

std::optional<SelfplayConfig> selfplay_config(const cxxopts::ParseResult& parsed,
                                              std::string& error) {
  SelfplayConfig c;
  constexpr std::uint64_t kU64Max = ~std::uint64_t(0);
  const bool ok =
      read_flag(parsed, "games", 1, 1000000, c.games, error) &&
      read_flag<std::uint64_t>(parsed, "nodes", 0, kU64Max, c.nodes, error) &&
      read_flag(parsed, "threads", 1, 256, c.threads, error) &&
      read_flag<std::size_t>(parsed, "hash", 1, std::size_t(1) << 20, c.hash_mb, error) &&
      read_flag<std::uint64_t>(parsed, "seed", 0, kU64Max, c.seed, error) &&
      read_flag(parsed, "random-plies", 0, 1000, c.random_plies, error) &&
      read_flag(parsed, "max-plies", 1, 100000, c.max_plies, error) &&
      read_flag<std::int64_t>(parsed, "clock-margin", 0, 3600000, c.clock_margin_ms, error) &&
      read_flag(parsed, "tt-key-bits", 0, 16, c.tt_key_bits, error);
  if (!ok) return std::nullopt;
  if (parsed.count("tc")) {
    const std::string tc = parsed["tc"].as<std::string>();
    if (!parse_time_control(tc, c.base_ms, c.increment_ms)) {
      error = fmt::format("--tc wants BASE+INC in seconds (like 1+0.01), got '{}'", tc);
      return std::nullopt;
    }
  }
  if (parsed.count("fen")) c.fen = parsed["fen"].as<std::string>();
  c.chess960 = parsed.count("chess960") > 0;
  if (parsed.count("pgn")) c.pgn = parsed["pgn"].as<std::string>();
  return c;
}

int run_selfplay(const SelfplayConfig& config, std::ostream& out, std::ostream& err) {
  std::string error;
  std::optional<Position> start = start_position(config, error);
  if (!start) {
    fmt::print(err, "error: bad --fen: {}\n", error);
    return 2;
  }
  std::ofstream pgn;
  if (!config.pgn.empty()) {
    pgn.open(config.pgn, std::ios::out | std::ios::trunc);
    if (!pgn) {
      fmt::print(err, "error: cannot write the PGN file '{}'\n", config.pgn);
      return 2;
    }
  }
  const Position start_copy = *start;
  Match match(config, std::move(*start), err);
  if (error = match.configure(); !error.empty()) {
    fmt::print(err, "error: {}\n", error);
    return 2;
  }
  std::array<int, 4> tally{};  // indexed by Outcome
  for (int i = 0; i < config.games; ++i) {
    const Clock::time_point t0 = Clock::now();
    const GameResult result = match.play(i);
    ++tally[std::size_t(result.outcome)];
    if (pgn.is_open()) {
      pgn << pgn_game(config, start_copy, i, result);
      pgn.flush();
      if (!pgn) {
        fmt::print(err, "error: writing the PGN file '{}' failed\n", config.pgn);
        return 2;
      }
    }
    fmt::print(out, "game {}/{}: {} ({}), {} plies, {:.1f} s\n", i + 1, config.games,
               score_text(result.outcome), result.reason, result.plies,
               double(ms_between(t0, Clock::now())) / 1000);
    out.flush();
  }
  const int failures = tally[std::size_t(Outcome::Failure)];
  // As datagen writes it: white's wins, draws and losses.
  fmt::print(out, "selfplay: {} games, +{} ={} -{} (white's view), {} failures\n", config.games,
             tally[std::size_t(Outcome::WhiteWins)], tally[std::size_t(Outcome::Draw)],
             tally[std::size_t(Outcome::BlackWins)], failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace tessera::cli
