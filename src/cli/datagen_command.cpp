#include "cli/datagen_command.h"

#include <cstdint>

#include "cli/flags.h"
#include "core/types.h"

namespace tessera::cli {

using datagen::kSoftNodeCap;

void add_datagen_options(cxxopts::Options& options) {
  options.add_options("datagen")("output", "datagen, datagen-convert: the file to write (zstd)",
                                 cxxopts::value<std::string>())(
      "format", "datagen, datagen-convert: chains (game chains, default) or records (32 bytes)",
      cxxopts::value<std::string>())(
      "soft-nodes", "datagen: end a search after the iteration that passes N nodes (cap 8N)",
      cxxopts::value<std::string>())(
      "chess960-starts", "datagen: each game from a random Chess960 start (implies --chess960)")(
      "opening-bound", "datagen: redraw an opening scored beyond CP (400)",
      cxxopts::value<std::string>())(
      "nnue", "datagen: search with the evaluation network (default: hand-crafted)")(
      "eval-file", "datagen: with --nnue, this network file instead of the embedded one",
      cxxopts::value<std::string>())("append",
                                     "datagen: add to the end of --output instead of replacing it")(
      "first-game", "datagen: index of the first game (0); resumes a stopped run with --append",
      cxxopts::value<std::string>())(
      "openings", "datagen: EPD/FEN file (or PGN: each game's last position) of starts",
      cxxopts::value<std::string>());
}

bool read_format(const cxxopts::ParseResult& parsed, datagen::DataFormat& format,
                 std::string& error) {
  if (parsed.count("format") == 0) return true;
  const std::string text = parsed["format"].as<std::string>();
  if (text == "chains" || text == "chain") {
    format = datagen::DataFormat::Chains;
  } else if (text == "records" || text == "record") {
    format = datagen::DataFormat::Records;
  } else {
    error = fmt::format("--format wants chains or records, got '{}'", text);
    return false;
  }
  return true;
}

std::optional<datagen::DatagenConfig> datagen_config(const cxxopts::ParseResult& parsed,
                                                     std::string& error) {
  datagen::DatagenConfig c;
  constexpr std::uint64_t kU64Max = ~std::uint64_t(0);
  const auto given = [&](const char* name) { return parsed.count(name) > 0; };
  if (int(given("nodes")) + int(given("depth")) + int(given("soft-nodes")) > 1) {
    error = "datagen takes one of --nodes, --soft-nodes and --depth";
    return std::nullopt;
  }
  bool ok = read_flag(parsed, "games", 1, 100000000, c.games, error) &&
            read_flag<std::uint64_t>(parsed, "nodes", 1, kU64Max, c.nodes, error) &&
            read_flag(parsed, "threads", 1, 256, c.threads, error) &&
            read_flag(parsed, "first-game", 0, 2'000'000'000, c.first_game, error) &&
            read_flag<std::size_t>(parsed, "hash", 1, std::size_t(1) << 20, c.hash_mb, error) &&
            read_flag<std::uint64_t>(parsed, "seed", 0, kU64Max, c.seed, error) &&
            read_flag(parsed, "max-plies", 1, 100000, c.max_plies, error) &&
            read_flag<std::uint64_t>(parsed, "soft-nodes", 1, kU64Max / kSoftNodeCap, c.soft_nodes,
                                     error) &&
            read_flag(parsed, "opening-bound", 0, 30000, c.opening_bound, error) &&
            read_format(parsed, c.format, error);
  if (!ok) return std::nullopt;
  if (given("depth")) {
    c.depth = parsed["depth"].as<int>();
    if (c.depth < 1 || c.depth >= kMaxPly) {
      error = fmt::format("--depth wants an integer from 1 to {}, got {}", kMaxPly - 1, c.depth);
      return std::nullopt;
    }
  }
  if (given("openings")) {
    c.openings = parsed["openings"].as<std::string>();
    if (c.openings.empty()) {
      error = "--openings wants a file name";
      return std::nullopt;
    }
  }
  c.random_plies = c.openings.empty() ? 8 : 0;
  if (!read_flag(parsed, "random-plies", 0, 1000, c.random_plies, error)) return std::nullopt;
  if (!given("output") || parsed["output"].as<std::string>().empty()) {
    error = "datagen needs --output FILE";
    return std::nullopt;
  }
  c.output = parsed["output"].as<std::string>();
  c.append = given("append");
  c.chess960 = given("chess960");
  c.chess960_starts = given("chess960-starts");
  c.use_network = given("nnue");
  if (given("eval-file")) {
    c.eval_file = parsed["eval-file"].as<std::string>();
    if (!c.use_network || c.eval_file.empty()) {
      error = "--eval-file wants a file name and goes with --nnue";
      return std::nullopt;
    }
  }
  if (c.chess960_starts && !c.openings.empty()) {
    error = "--chess960-starts draws its own start positions and takes no --openings";
    return std::nullopt;
  }
  return c;
}

std::optional<datagen::ConvertConfig> convert_config(const cxxopts::ParseResult& parsed,
                                                     const std::vector<std::string>& inputs,
                                                     std::string& error) {
  datagen::ConvertConfig c;
  c.inputs = inputs;
  if (c.inputs.empty()) {
    error = "usage: tessera datagen-convert INPUT... --output FILE [--format chains|records]";
    return std::nullopt;
  }
  if (parsed.count("output") == 0 || parsed["output"].as<std::string>().empty()) {
    error = "datagen-convert needs --output FILE";
    return std::nullopt;
  }
  c.output = parsed["output"].as<std::string>();
  c.append = parsed.count("append") > 0;
  if (!read_format(parsed, c.format, error)) return std::nullopt;
  return c;
}

}  // namespace tessera::cli
