#include "uci/uci.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <istream>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/perft.h"
#include "core/position.h"
#include "engine/engine.h"
#include "engine/strength.h"
#include "search/tunables.h"
#include "uci/bench.h"
#include "uci/eval_report.h"
#include "uci/go.h"
#include "uci/info.h"
#include "uci/options.h"
#include "uci/output.h"
#include "uci/tokens.h"

#ifndef TESSERA_VERSION
#define TESSERA_VERSION "dev"
#endif

namespace tessera::uci {

static_assert(kOptions[option_index(OptionId::Elo)].min == engine::StrengthLimit::kMinElo &&
                  kOptions[option_index(OptionId::Elo)].max == engine::StrengthLimit::kMaxElo,
              "UCI_Elo advertises the range the Engine accepts");

namespace {

// One UCI conversation. The thread that calls run() reads commands and is the only one that
// calls the Engine (its threading contract); the Engine's search thread calls back into
// on_info / on_bestmove, which only format and print.
class Session {
 public:
  Session(std::ostream& out, std::vector<ExtraCommand> extra_commands);
  [[nodiscard]] int run(std::istream& in);
  [[nodiscard]] static bool knows(std::string_view name) {
    return name == "quit" || std::any_of(kCommands.begin(), kCommands.end(),
                                         [&](const Command& c) { return c.name == name; });
  }

 private:
  using Handler = void (Session::*)(const Words&);
  struct Command {
    std::string_view name;
    Handler handler;
  };
  static const std::array<Command, 14> kCommands;

  void dispatch(const Words& words);

  void cmd_uci(const Words&);
  void cmd_isready(const Words&);
  void cmd_setoption(const Words& words);
  void cmd_ucinewgame(const Words&);
  void cmd_position(const Words& words);
  void cmd_go(const Words& words);
  void cmd_stop(const Words&);
  void cmd_ponderhit(const Words&);
  void cmd_debug(const Words&);
  void cmd_register(const Words&) {}  // Tessera needs no registration
  void cmd_display(const Words&);
  void cmd_eval(const Words&);
  void cmd_bench(const Words& words);
  void cmd_spsa(const Words&);
  // setoption for a tunable constant of a tune build (search/tunables.h).
  void set_tunable(const search::tune::Tunable& tunable, const std::optional<std::string>& text);

  void run_perft(int depth);
  [[nodiscard]] std::string apply_option(const OptionSpec& spec, const OptionValue& option);
  [[nodiscard]] std::string apply_syzygy_path(const std::string& paths);
  [[nodiscard]] std::string apply_hash_file(bool save);
  void apply_defaults();
  void ensure_idle();
  void stop_and_wait();
  void finish_at_end_of_input();

  void info_string(std::string_view text) { out_.line(fmt::format("info string {}", text)); }
  void report_error(std::string_view text) { info_string(fmt::format("error: {}", text)); }

  void on_info(const search::SearchInfo& info);
  void on_bestmove(Move best, Move ponder);
  void on_current_move(int depth, Move move, int number);
  // A search runs and has not answered yet: its bestmove may still come. (The Engine counts
  // itself searching a moment longer, until its thread has wound down after the bestmove.)
  [[nodiscard]] bool awaiting_bestmove() const {
    return engine_.searching() && !bestmove_sent_.load(std::memory_order_acquire);
  }

  Output out_;
  std::vector<ExtraCommand> extra_commands_;
  // The position of the running (or last) search, for move notation in callbacks. Written by
  // the reading thread only while no search runs; the mutex makes that visible to the callback.
  std::mutex root_mutex_;
  Position root_ = Position::startpos();
  search::SearchLimits limits_;  // the running search's limits (reading thread only)
  bool quit_ = false;
  bool handshake_seen_ = false;
  std::atomic<bool> bestmove_sent_{true};  // set by the search thread
  std::atomic<bool> show_wdl_{false};      // UCI_ShowWDL, read by the search thread
  bool network_changed_ = false;           // Use NNUE or EvalFile changed since the last isready
  std::array<long long, kOptions.size()> option_values_{};  // as last applied
  // String options as last applied: BookFile and SyzygyPath as last loaded, "" when that
  // failed, so that the same value sent again is retried.
  std::array<std::string, kOptions.size()> option_texts_{};
  // Last member: destroyed first, so no search thread outlives what its callbacks use.
  engine::Engine engine_;
};

const std::array<Session::Command, 14> Session::kCommands = {{
    {"uci", &Session::cmd_uci},
    {"isready", &Session::cmd_isready},
    {"setoption", &Session::cmd_setoption},
    {"ucinewgame", &Session::cmd_ucinewgame},
    {"position", &Session::cmd_position},
    {"go", &Session::cmd_go},
    {"stop", &Session::cmd_stop},
    {"ponderhit", &Session::cmd_ponderhit},
    {"debug", &Session::cmd_debug},
    {"register", &Session::cmd_register},
    {"d", &Session::cmd_display},
    {"eval", &Session::cmd_eval},
    {"bench", &Session::cmd_bench},
    {"spsa", &Session::cmd_spsa},
}};

Session::Session(std::ostream& out, std::vector<ExtraCommand> extra_commands)
    : out_(out),
      extra_commands_(std::move(extra_commands)),
      engine_(search::EngineCallbacks{
          [this](const search::SearchInfo& info) { on_info(info); },
          [this](Move best, Move ponder) { on_bestmove(best, ponder); },
          [this](const std::string& message) { info_string(message); },
          [this](int depth, Move move, int number) { on_current_move(depth, move, number); },
      }) {
  apply_defaults();
}

// The advertised defaults are pushed to the Engine once, so what `uci` shows is what runs and
// a GUI resending a default later is recognised as a no-op.
void Session::apply_defaults() {
  for (std::size_t i = 0; i < kOptions.size(); ++i) {
    option_values_[i] = kOptions[i].default_value;
    if (kOptions[i].type == OptionType::Button) continue;
    const OptionValue value{kOptions[i].default_value, {}, {}};
    if (const std::string error = apply_option(kOptions[i], value); !error.empty())
      report_error(error);
  }
  network_changed_ = false;
}

int Session::run(std::istream& in) {
  // A stream tied to the output would be flushed by this thread outside the output mutex while
  // a search thread prints; every line is flushed anyway, so the tie is not needed.
  std::ostream* const tied = in.tie(nullptr);
  std::string line;
  while (!quit_ && std::getline(in, line)) dispatch(split_words(line));
  if (quit_)
    stop_and_wait();
  else
    finish_at_end_of_input();
  in.tie(tied);
  return 0;
}

void Session::dispatch(const Words& words) {
  if (words.empty()) return;
  const std::string& name = words.front();
  if (name == "quit") {
    quit_ = true;
    return;
  }
  for (const Command& command : kCommands) {
    if (command.name == name) {
      (this->*command.handler)(words);
      return;
    }
  }
  for (const ExtraCommand& command : extra_commands_) {
    if (command.name == name) {
      ensure_idle();
      command.run(words, [this](const std::string& text) { out_.line(text); });
      return;
    }
  }
  // Before `uci` the other side may be probing for another protocol (`xboard`): stay silent.
  if (handshake_seen_) info_string(fmt::format("unknown command '{}'", name));
}

// ----- Commands

void Session::cmd_uci(const Words&) {
  handshake_seen_ = true;
  std::vector<std::string> lines = {"id name Tessera " TESSERA_VERSION,
                                    "id author The Tessera developers"};
  for (const OptionSpec& spec : kOptions) lines.push_back(option_line(spec));
  if constexpr (search::tune::kEnabled)
    for (const search::tune::Tunable& t : search::tune::tunables())
      lines.push_back(fmt::format("option name {} type spin default {} min {} max {}", t.name,
                                  t.default_value, t.min, t.max));
  lines.emplace_back("uciok");
  out_.lines(lines);
}

// Answered at once, even mid-search: every earlier command has already completed on this
// thread, which is all `isready` promises.
void Session::cmd_isready(const Words&) {
  // GUIs send isready after options: say which evaluation the next search will use.
  if (network_changed_) info_string("evaluation: " + engine_.network_description());
  network_changed_ = false;
  out_.line("readyok");
}

void Session::cmd_setoption(const Words& words) {
  const SetOption request = parse_setoption(words);
  if (!request.error.empty()) return report_error(request.error);
  const OptionSpec* spec = find_option(request.name);
  if (spec == nullptr && search::tune::kEnabled)
    if (const search::tune::Tunable* tunable = search::tune::find_tunable(request.name))
      return set_tunable(*tunable, request.value);
  if (spec == nullptr) return report_error(fmt::format("no option named '{}'", request.name));
  const OptionValue value = check_option_value(*spec, request.value);
  if (!value.error.empty()) return report_error(value.error);

  const std::size_t index = option_index(spec->id);
  long long& current = option_values_[index];
  // GUIs resend every option before each game; an unchanged value must not reallocate (nor
  // reload a book or the tablebases).
  if (spec->type == OptionType::String ? value.text == option_texts_[index]
                                       : spec->type != OptionType::Button && value.value == current)
    return;
  // The protocol has GUIs set options between searches; an analysis GUI changing MultiPV or
  // UCI_ShowWDL is the exception worth serving without ending the search.
  if (awaiting_bestmove() && !changes_during_search(spec->id))
    return report_error(
        fmt::format("option '{}' cannot change during a search; send it after stop", spec->name));
  if (!changes_during_search(spec->id)) ensure_idle();
  if (const std::string error = apply_option(*spec, value); !error.empty())
    return report_error(error);
  current = value.value;
}

void Session::set_tunable(const search::tune::Tunable& tunable,
                          const std::optional<std::string>& text) {
  // Checked as a spin option of the tunable's range would be (OptionId is only a label here).
  const OptionSpec spec{OptionId::Threads,     tunable.name, OptionType::Spin,
                        tunable.default_value, tunable.min,  tunable.max};
  const OptionValue value = check_option_value(spec, text);
  if (!value.error.empty()) return report_error(value.error);
  if (*tunable.value == int(value.value)) return;
  if (awaiting_bestmove())
    return report_error(
        fmt::format("option '{}' cannot change during a search; send it after stop", tunable.name));
  ensure_idle();
  *tunable.value = int(value.value);
}

// OpenBench's SPSA input, one line a tunable: "name, int, value, min, max, c_end, r_end". A
// normal build lists the defaults it was compiled with (and has no such options to set).
void Session::cmd_spsa(const Words&) {
  std::vector<std::string> lines;
  for (const search::tune::Tunable& t : search::tune::tunables())
    lines.push_back(search::tune::spsa_line(t));
  out_.lines(lines);
  if constexpr (!search::tune::kEnabled)
    info_string(
        "these constants are compiled in; a tune build (make TUNE=ON) sets them as options");
}

void Session::cmd_ucinewgame(const Words&) {
  ensure_idle();
  engine_.new_game();
}

// `position startpos|fen <FEN> [moves m1 m2 ...]`, rebuilt from scratch every time.
void Session::cmd_position(const Words& words) {
  const std::size_t moves_at = find_word(words, "moves", 1);
  std::string fen;
  if (words.size() >= 2 && words[1] == "startpos")
    fen = Position::kStartFen;
  else if (words.size() >= 2 && words[1] == "fen")
    fen = join_words(words, 2, moves_at);
  else
    return report_error("position needs 'startpos' or 'fen <FEN>'");

  std::vector<std::string> moves;
  if (moves_at < words.size()) moves.assign(words.begin() + long(moves_at) + 1, words.end());
  ensure_idle();
  if (const std::string error = engine_.set_position(fen, moves); !error.empty())
    report_error(error);
}

void Session::cmd_go(const Words& words) {
  ensure_idle();
  const Position& position = engine_.position();
  GoCommand go = parse_go(words, position);
  for (const std::string& error : go.errors) report_error(error);
  if (go.perft) {
    if (go.perft_depth > 0) run_perft(go.perft_depth);
    return;
  }
  {
    const std::lock_guard lock(root_mutex_);
    root_ = position;
  }
  limits_ = go.limits;
  bestmove_sent_.store(false, std::memory_order_release);
  engine_.go(go.limits);
}

void Session::cmd_stop(const Words&) {
  limits_ = search::SearchLimits{};
  // The Engine reports bestmove once per go; a stop while idle is simply dropped.
  if (engine_.searching()) engine_.stop();
}

void Session::cmd_ponderhit(const Words&) {
  limits_.ponder = false;
  if (engine_.searching()) engine_.ponderhit();
}

// Accepted for the protocol's sake; Tessera has no extra debug output to switch.
void Session::cmd_debug(const Words&) {}

void Session::cmd_display(const Words&) {
  std::vector<std::string> lines;
  std::istringstream text(engine_.position().pretty());
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  out_.lines(lines);
}

void Session::cmd_eval(const Words&) { out_.lines(eval_report(engine_, engine_.position())); }

void Session::cmd_bench(const Words& words) {
  int depth = 0;  // run_bench's default
  if (words.size() >= 2) {
    const std::optional<long long> n = parse_int(words[1]);
    if (!n || *n < 1 || *n > kMaxPly)
      return report_error(fmt::format("bench depth must be 1..{}, got '{}'", kMaxPly, words[1]));
    depth = int(*n);
  }
  ensure_idle();
  // The session's evaluation, so a network can be benched as it would play.
  const BenchEvaluation evaluation{option_values_[option_index(OptionId::UseNNUE)] != 0,
                                   option_texts_[option_index(OptionId::EvalFile)]};
  out_.with_stream(
      [depth, evaluation](std::ostream& os) { (void)run_bench(depth, os, evaluation); });
}

void Session::run_perft(int depth) {
  Position position = engine_.position();
  std::vector<std::string> lines;
  std::uint64_t total = 0;
  for (const auto& [move, count] : perft_divide(position, depth)) {
    lines.push_back(fmt::format("{}: {}", position.move_to_uci(move), count));
    total += count;
  }
  lines.emplace_back();
  lines.push_back(fmt::format("Nodes searched: {}", total));
  out_.lines(lines);
}

// ----- Engine control

std::string Session::apply_option(const OptionSpec& spec, const OptionValue& option) {
  const long long value = option.value;
  switch (spec.id) {
    case OptionId::Threads:
      return engine_.set_threads(int(value));
    case OptionId::Hash:
      return engine_.set_hash_mb(std::size_t(value));
    case OptionId::ClearHash:
      engine_.clear_hash();
      break;
    case OptionId::MultiPV:
      engine_.set_multipv(int(value));
      break;
    case OptionId::Ponder:
      engine_.set_ponder(value != 0);
      break;
    case OptionId::MoveOverhead:
      engine_.set_move_overhead_ms(int(value));
      break;
    case OptionId::Chess960:
      engine_.set_chess960(value != 0);
      break;
    case OptionId::OwnBook:
      engine_.set_own_book(value != 0);
      break;
    case OptionId::BookFile: {
      // A file that fails to load leaves no book, so the same name sent again is retried.
      std::string error = engine_.set_book_file(option.text);
      option_texts_[option_index(spec.id)] = error.empty() ? option.text : std::string();
      if (error.empty() && !option.text.empty())
        info_string(fmt::format("book '{}' loaded", option.text));
      return error;
    }
    case OptionId::BookBestMove:
      engine_.set_book_best_move(value != 0);
      break;
    case OptionId::BookDepth:
      engine_.set_book_depth(int(value));
      break;
    case OptionId::SyzygyPath:
      return apply_syzygy_path(option.text);
    case OptionId::SyzygyProbeDepth:
      engine_.set_syzygy_probe_depth(int(value));
      break;
    case OptionId::Syzygy50MoveRule:
      engine_.set_syzygy_50_move_rule(value != 0);
      break;
    case OptionId::SyzygyProbeLimit:
      engine_.set_syzygy_probe_limit(int(value));
      break;
    case OptionId::LimitStrength:
      engine_.set_limit_strength(value != 0);
      break;
    case OptionId::Elo:
      return engine_.set_elo(int(value));
    case OptionId::HashFile:
      engine_.set_hash_file(option.text);
      option_texts_[option_index(spec.id)] = option.text;
      break;
    case OptionId::SaveHashFile:
    case OptionId::LoadHashFile:
      return apply_hash_file(spec.id == OptionId::SaveHashFile);
    case OptionId::NeverClearHash:
      engine_.set_never_clear_hash(value != 0);
      break;
    case OptionId::ShowWDL:
      show_wdl_.store(value != 0, std::memory_order_relaxed);
      break;
    case OptionId::AnalyseMode:
      break;
    case OptionId::UseNNUE:
      engine_.set_use_network(value != 0);
      network_changed_ = true;
      break;
    case OptionId::EvalFile: {
      network_changed_ = true;  // refused or not, isready says what plays
      if (std::string error = engine_.set_eval_file(option.text); !error.empty()) return error;
      option_texts_[option_index(spec.id)] = option.text;
      break;
    }
  }
  return {};
}

// Loads the tables and says what was found. Tables that fail to load leave none, so the same
// path sent again is retried; a build without Fathom says so instead of naming an error.
std::string Session::apply_syzygy_path(const std::string& paths) {
  std::string& loaded = option_texts_[option_index(OptionId::SyzygyPath)];
  loaded.clear();
  if (!engine::Engine::syzygy_supported()) {
    if (!paths.empty()) info_string("Syzygy support not built");
    return {};
  }
  std::string error = engine_.set_syzygy_path(paths);
  if (!error.empty() || paths.empty()) return error;
  loaded = paths;
  const engine::Engine::SyzygyTables tables = engine_.syzygy_tables();
  info_string(fmt::format("Syzygy: found {} WDL and {} DTZ tables, up to {} pieces", tables.wdl,
                          tables.dtz, tables.max_pieces));
  return {};
}

// Saves or loads the table and says what was done.
std::string Session::apply_hash_file(bool save) {
  const search::HashFileResult r = save ? engine_.save_hash_file() : engine_.load_hash_file();
  if (!r.error.empty()) return r.error;
  std::string text = fmt::format("hash {} '{}': {} entries", save ? "saved to" : "loaded from",
                                 engine_.hash_file(), r.entries);
  if (r.rehashed)
    text +=
        fmt::format(", rehashed from a table of {} clusters ({} MB)", r.file_clusters, r.file_mb);
  info_string(text);
  return {};
}

// Commands that change the engine's state must not run under a search. A finite search is
// awaited; one that would only end on `stop` / `ponderhit` would never end while this thread
// waits, so a GUI that skipped `stop` gets it implied (with its one bestmove).
void Session::ensure_idle() {
  if (!engine_.searching()) return;
  if (is_unbounded(limits_) && awaiting_bestmove()) {
    info_string("stopping the running search first");
    engine_.stop();
  }
  engine_.wait();
  limits_ = search::SearchLimits{};
}

void Session::stop_and_wait() {
  if (engine_.searching()) engine_.stop();
  engine_.wait();
}

// End of input is `quit`, except that a search that will end by itself (depth, nodes, time)
// is allowed to finish and report its bestmove, as a script piping commands expects.
void Session::finish_at_end_of_input() {
  if (engine_.searching() && is_unbounded(limits_)) engine_.stop();
  engine_.wait();
}

// ----- Engine callbacks (search thread)

void Session::on_info(const search::SearchInfo& info) {
  std::string line;
  {
    const std::lock_guard lock(root_mutex_);
    line = format_info(info, root_, show_wdl_.load(std::memory_order_relaxed));
  }
  out_.line(line);
}

void Session::on_current_move(int depth, Move move, int number) {
  std::string line;
  {
    const std::lock_guard lock(root_mutex_);
    line = format_current_move(depth, move, number, root_);
  }
  out_.line(line);
}

void Session::on_bestmove(Move best, Move ponder) {
  std::string line;
  {
    const std::lock_guard lock(root_mutex_);
    line = format_bestmove(best, ponder, root_);
  }
  // Before the line: a GUI may answer the bestmove at once (with a setoption, say).
  bestmove_sent_.store(true, std::memory_order_release);
  out_.line(line);
}

}  // namespace

bool is_command(std::string_view name) { return Session::knows(name); }

int run(std::istream& in, std::ostream& out, std::vector<ExtraCommand> extra_commands) {
  Session session(out, std::move(extra_commands));
  return session.run(in);
}

}  // namespace tessera::uci
