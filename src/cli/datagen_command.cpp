#include "cli/datagen_command.h"

#include <cstdint>

#include "cli/flags.h"
#include "core/types.h"

namespace tessera::cli {

void add_datagen_options(cxxopts::Options& options) {
  options.add_options("datagen")("output", "datagen: the record file to write (zstd)",
                                 cxxopts::value<std::string>())(
      "append", "datagen: add to the end of --output instead of replacing it")(
      "openings", "datagen: EPD/FEN file of start positions, one drawn per game",
      cxxopts::value<std::string>());
}

std::optional<datagen::DatagenConfig> datagen_config(const cxxopts::ParseResult& parsed,
                                                     std::string& error) {
  datagen::DatagenConfig c;
  constexpr std::uint64_t kU64Max = ~std::uint64_t(0);
  const auto given = [&](const char* name) { return parsed.count(name) > 0; };
  if (given("nodes") && given("depth")) {
    error = "datagen takes --nodes or --depth, not both";
    return std::nullopt;
  }
  bool ok = read_flag(parsed, "games", 1, 100000000, c.games, error) &&
            read_flag<std::uint64_t>(parsed, "nodes", 1, kU64Max, c.nodes, error) &&
            read_flag(parsed, "threads", 1, 256, c.threads, error) &&
            read_flag<std::size_t>(parsed, "hash", 1, std::size_t(1) << 20, c.hash_mb, error) &&
            read_flag<std::uint64_t>(parsed, "seed", 0, kU64Max, c.seed, error) &&
            read_flag(parsed, "max-plies", 1, 100000, c.max_plies, error);
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
  return c;
}

}  // namespace tessera::cli
