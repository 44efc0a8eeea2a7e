#include "cli/cli.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cxxopts.hpp>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>
#if TESSERA_DATAGEN && __has_include(<unistd.h>)
#include <unistd.h>  // isatty: the datagen progress line rewrites itself on a terminal
#endif

#include "cli/build_commit.h"
#include "cli/datagen_command.h"
#include "cli/perft_commands.h"
#include "cli/selfplay.h"
#if TESSERA_DATAGEN
#include "datagen/genfens.h"
#endif
#include "core/parse.h"
#include "core/position.h"
#include "engine/engine.h"
#include "eval/nnue/network.h"
#include "uci/bench.h"
#include "uci/eval_report.h"
#include "uci/uci.h"

namespace tessera::cli {

namespace {

constexpr const char* kCommandHelp = R"(Commands:
  (none)                      speak UCI on standard input and output
  bench [DEPTH]               search the bench positions to a fixed depth; prints the node count
  perft DEPTH                 count leaf nodes (divide per root move) of --fen or the start position
  perft-suite FILE            check every position of an EPD perft suite up to --depth
  eval                        the evaluation of --fen (or the start position) term by term
  selfplay                    play Tessera against itself, checking every move and the clocks
                              (--games, --tc or --nodes, --threads, --hash, --seed, --fen)
  datagen --output FILE       self-play training data, zstd-compressed game chains (or
                              --format records); see `tessera datagen --help`
  datagen-stats FILE          check a data file (chains or records): positions, results, scores
  datagen-convert IN... --output FILE
                              record, chain and match-runner PGN files (also .pgn.bz2 and a
                              .tar of them) into one data file
  "UCI COMMAND" ...           run each argument as a UCI command, then quit, as OpenBench does:
                              tessera "genfens 10 seed 1 book None" quit
)";

// The flags each command reads: any other flag given with it is refused, so that a flag
// meant for another command (`selfplay --output`) is not silently ignored.
struct CommandFlags {
  std::string_view command;
  std::string_view usage;
  std::vector<std::string_view> flags;
};

const std::vector<CommandFlags>& command_flags() {
  static const std::vector<CommandFlags> table = {
      {"", "tessera (speaks UCI on standard input and output)", {}},
      {"bench", "tessera bench [DEPTH]", {}},
      {"perft", "tessera perft DEPTH [--fen FEN] [--chess960]", {"fen", "chess960"}},
      {"perft-suite", "tessera perft-suite FILE [--depth N] [--chess960]", {"depth", "chess960"}},
      {"eval", "tessera eval [--fen FEN] [--chess960]", {"fen", "chess960"}},
      {"selfplay",
       "tessera selfplay [flags]",
       {"games", "tc", "nodes", "threads", "hash", "seed", "random-plies", "max-plies",
        "clock-margin", "tt-key-bits", "fen", "chess960", "pgn"}},
      {"datagen",
       "tessera datagen --output FILE [flags]",
       {"games", "nodes", "soft-nodes", "depth", "threads", "hash", "seed", "random-plies",
        "max-plies", "output", "format", "append", "openings", "chess960", "chess960-starts",
        "opening-bound", "nnue", "eval-file", "first-game"}},
      {"datagen-stats", "tessera datagen-stats FILE", {}},
      {"datagen-convert",
       "tessera datagen-convert INPUT... --output FILE [--format chains|records] [--append]",
       {"output", "format", "append"}},
  };
  return table;
}

[[nodiscard]] const CommandFlags* find_command(std::string_view command) {
  for (const CommandFlags& c : command_flags())
    if (c.command == command) return &c;
  return nullptr;
}

// The first flag given that `command` does not read, or "".
[[nodiscard]] std::string foreign_flag(const CommandFlags& command,
                                       const cxxopts::ParseResult& parsed) {
  for (const auto& kv : parsed.arguments()) {
    const std::string& key = kv.key();
    if (key == "command" || key == "args" || key == "help" || key == "version") continue;
    if (std::find(command.flags.begin(), command.flags.end(), key) == command.flags.end())
      return key;
  }
  return "";
}

// `tessera CMD --help`: the command's usage and its flags only.
[[nodiscard]] std::string command_help(const cxxopts::Options& options,
                                       const CommandFlags& command) {
  std::string text = fmt::format("Usage: {}\n", command.usage);
  if (command.flags.empty()) return text + "(no flags)\n";
  text += "\nFlags:\n";
  for (const std::string& group : options.groups())
    for (const auto& option : options.group_help(group).options) {
      const std::string name = option.l.empty() ? option.s : option.l.front();
      if (std::find(command.flags.begin(), command.flags.end(), name) == command.flags.end())
        continue;
      text += fmt::format("  --{:<16} {}\n", name + (option.is_boolean ? "" : " ARG"),
                          std::string(option.desc));
    }
  return text;
}

// The version, the commit it was built from and what the build contains, for bug reports.
std::string version_text() {
#ifdef TESSERA_USE_PEXT
  constexpr const char* sliders = "PEXT";
#else
  constexpr const char* sliders = "magic bitboards";
#endif
#if TESSERA_SYZYGY
  constexpr const char* syzygy = "yes";
#else
  constexpr const char* syzygy = "no";
#endif
#if TESSERA_DATAGEN
  constexpr const char* datagen = "yes";
#else
  constexpr const char* datagen = "no";
#endif
  engine::Engine engine(search::EngineCallbacks{});
  return fmt::format(
      "Tessera {} (commit {})\nbuild: {} slider attacks, NNUE kernels {}, Syzygy {}, datagen {}\n"
      "evaluation: {}\n",
      TESSERA_VERSION, build_commit(), sliders, eval::nnue::simd_kernel_name(), syzygy, datagen,
      engine.network_description());
}

bool parse_positive(const std::string& text, int& value) {
  const std::optional<int> n = parse_integer<int>(text);
  if (!n || *n <= 0) return false;
  value = *n;
  return true;
}

int run_datagen_command(const std::string& command, const std::vector<std::string>& args,
                        const cxxopts::ParseResult& parsed) {
#if TESSERA_DATAGEN
  if (command == "datagen-convert") {
    std::string error;
    const auto config = convert_config(parsed, args, error);
    if (!config) {
      std::cerr << "error: " << error << '\n';
      return 2;
    }
    return datagen::run_convert(*config, std::cout, std::cerr);
  }
  if (command == "datagen-stats") {
    if (args.size() != 1) {
      std::cerr << "error: usage: tessera datagen-stats FILE\n";
      return 2;
    }
    return datagen::run_datagen_stats(args[0], std::cout, std::cerr);
  }
  std::string error;
  auto config = args.empty() ? datagen_config(parsed, error) : std::nullopt;
  if (!config) {
    std::cerr << "error: " << (error.empty() ? "datagen takes no arguments" : error) << '\n';
    return 2;
  }
#if __has_include(<unistd.h>)
  config->progress_in_place = isatty(STDERR_FILENO) != 0;
#endif
  return datagen::run_datagen(*config, std::cout, std::cerr);
#else
  (void)args;
  (void)parsed;
  std::cerr << "error: " << command << " is not built (configure with TESSERA_DATAGEN=ON; "
            << "it needs zstd, the Debian package libzstd-dev)\n";
  return 2;
#endif
}

// The commands the UCI loop gets from this layer: `genfens` (data generation's openings).
[[nodiscard]] std::vector<uci::ExtraCommand> uci_extra_commands() {
  uci::ExtraCommand genfens{"genfens", [](const std::vector<std::string>& words,
                                          const std::function<void(const std::string&)>& print) {
#if TESSERA_DATAGEN
                              std::string error;
                              const auto request = datagen::parse_genfens(
                                  std::vector<std::string>(words.begin() + 1, words.end()), error);
                              if (!request || !datagen::run_genfens(*request, print, error))
                                print("info string error: " + error);
#else
                              (void)words;
                              print("info string error: genfens is not built (TESSERA_DATAGEN)");
#endif
                            }};
  return {genfens};
}

// Whether the line starts with a command of the UCI loop (its own or an extra one), so that
// `tessera "go depth 5"` runs it while a mistyped subcommand (`tessera bnech`) is an error.
[[nodiscard]] bool is_uci_command_line(const std::string& text) {
  const std::string_view first = std::string_view(text).substr(0, text.find(' '));
  if (uci::is_command(first)) return true;
  const auto extra = uci_extra_commands();
  return std::any_of(extra.begin(), extra.end(),
                     [&](const uci::ExtraCommand& c) { return c.name == first; });
}

}  // namespace

cxxopts::Options make_cli_options() {
  cxxopts::Options options("tessera", "Tessera, a UCI chess engine");
  options.custom_help("[command] [arguments] [options]");
  options.positional_help("");
  options.add_options()("h,help", "print this help and exit")("v,version",
                                                              "print the version and exit")(
      "fen", "start position (FEN) for perft, eval and selfplay", cxxopts::value<std::string>())(
      "chess960", "read castling as Chess960 and write king-takes-rook moves")(
      "depth", "perft-suite: depth (5); datagen: a fixed depth instead of --nodes",
      cxxopts::value<int>()->default_value("5"))("command", "", cxxopts::value<std::string>())(
      "args", "", cxxopts::value<std::vector<std::string>>());
  add_selfplay_options(options);
  add_datagen_options(options);
  options.parse_positional({"command", "args"});
  return options;
}

std::string cli_help() {
  return make_cli_options().help({"", "selfplay and datagen", "datagen"}) + '\n' + kCommandHelp;
}

int run_cli(int argc, char** argv) {
  cxxopts::Options options = make_cli_options();
  cxxopts::ParseResult parsed;
  try {
    parsed = options.parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\nTry 'tessera --help'.\n";
    return 2;
  }
  const std::string given_command =
      parsed.count("command") ? parsed["command"].as<std::string>() : "";
  const CommandFlags* known = find_command(given_command);
  if (parsed.count("help")) {
    std::cout << (known && !given_command.empty() ? command_help(options, *known) : cli_help());
    return 0;
  }
  if (known) {
    if (const std::string flag = foreign_flag(*known, parsed); !flag.empty()) {
      std::cerr << "error: --" << flag << " does not apply to "
                << (given_command.empty() ? std::string("UCI mode") : given_command)
                << "\nTry 'tessera " << given_command << (given_command.empty() ? "" : " ")
                << "--help'.\n";
      return 2;
    }
  }
  if (parsed.count("version")) {
    std::cout << version_text();
    return 0;
  }
  const std::string command = parsed.count("command") ? parsed["command"].as<std::string>() : "";
  const auto args = parsed.count("args") ? parsed["args"].as<std::vector<std::string>>()
                                         : std::vector<std::string>{};
  const bool chess960 = parsed.count("chess960") > 0;

  if (command.empty()) {
    return uci::run(std::cin, std::cout, uci_extra_commands());
  }
  // Each argument a UCI command (OpenBench: `./engine "genfens N seed S book None" quit`); the
  // loop ends after the last as at the end of input, letting a bounded search finish.
  if (!known && is_uci_command_line(command)) {
    std::string lines = command + '\n';
    for (const std::string& arg : args) lines += arg + '\n';
    std::istringstream in(lines);
    return uci::run(in, std::cout, uci_extra_commands());
  }
  if (command == "perft") {
    int depth = 0;
    if (args.size() != 1 || !parse_positive(args[0], depth)) {
      std::cerr << "error: usage: tessera perft DEPTH [--fen FEN] [--chess960]\n";
      return 2;
    }
    const std::string fen =
        parsed.count("fen") ? parsed["fen"].as<std::string>() : std::string(Position::kStartFen);
    return run_perft(depth, fen, chess960, std::cout, std::cerr);
  }
  if (command == "perft-suite") {
    if (args.size() != 1) {
      std::cerr << "error: usage: tessera perft-suite FILE [--depth N] [--chess960]\n";
      return 2;
    }
    return run_perft_suite(args[0], parsed["depth"].as<int>(), chess960, std::cout, std::cerr);
  }
  if (command == "eval") {
    const std::string fen =
        parsed.count("fen") ? parsed["fen"].as<std::string>() : std::string(Position::kStartFen);
    std::string error;
    const auto pos = args.empty() ? Position::from_fen(fen, chess960, error) : std::nullopt;
    if (!pos) {
      std::cerr << "error: " << (error.empty() ? "usage: tessera eval [--fen FEN]" : error) << '\n';
      return 2;
    }
    const engine::Engine engine(search::EngineCallbacks{});
    for (const std::string& line : uci::eval_report(engine, *pos)) std::cout << line << '\n';
    return 0;
  }
  if (command == "bench") {
    int depth = 0;
    if (args.size() > 1 || (args.size() == 1 && !parse_positive(args[0], depth))) {
      std::cerr << "error: usage: tessera bench [DEPTH]\n";
      return 2;
    }
    return uci::run_bench(depth, std::cout);
  }
  if (command == "selfplay") {
    std::string error;
    const auto config = args.empty() ? selfplay_config(parsed, error) : std::nullopt;
    if (!config) {
      std::cerr << "error: " << (error.empty() ? "selfplay takes no arguments" : error) << '\n';
      return 2;
    }
    return run_selfplay(*config, std::cout, std::cerr);
  }
  if (command == "datagen" || command == "datagen-stats" || command == "datagen-convert")
    return run_datagen_command(command, args, parsed);
  std::cerr << "error: unknown command '" << command << "'\nTry 'tessera --help'.\n";
  return 2;
}

}  // namespace tessera::cli
