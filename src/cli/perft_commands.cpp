#include "cli/perft_commands.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <fstream>
#include <ostream>
#include <sstream>

#include "core/perft.h"
#include "core/position.h"

namespace tessera::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int run_perft(int depth, const std::string& fen, bool chess960, std::ostream& out,
              std::ostream& err) {
  std::string error;
  auto pos = Position::from_fen(fen, chess960, error);
  if (!pos) {
    fmt::print(err, "error: bad FEN: {}\n", error);
    return 2;
  }
  if (depth < 1 || depth > 20) {
    fmt::print(err, "error: perft depth must be from 1 to 20\n");
    return 2;
  }
  const auto start = Clock::now();
  std::uint64_t total = 0;
  for (const auto& [move, nodes] : perft_divide(*pos, depth)) {
    fmt::print(out, "{}: {}\n", pos->move_to_uci(move), nodes);
    total += nodes;
  }
  const double secs = seconds_since(start);
  fmt::print(out, "\nNodes searched: {}\nTime: {:.3f} s\nSpeed: {:.1f} Mnps\n", total, secs,
             secs > 0 ? double(total) / secs / 1e6 : 0.0);
  out.flush();
  return 0;
}

int run_perft_suite(const std::string& path, int depth, bool chess960, std::ostream& out,
                    std::ostream& err) {
  std::ifstream file(path);
  if (!file) {
    fmt::print(err, "error: cannot open perft suite '{}'\n", path);
    return 2;
  }
  const auto start = Clock::now();
  int positions = 0, failures = 0, skipped = 0, line_number = 0;
  std::uint64_t total = 0;
  std::string line;
  while (std::getline(file, line)) {
    ++line_number;
    const auto semicolon = line.find(';');
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string fen = line.substr(0, semicolon);
    std::string error;
    auto pos = Position::from_fen(fen, chess960, error);
    if (!pos) {
      fmt::print(out, "line {}: bad FEN: {}\n", line_number, error);
      ++failures;
      continue;
    }
    // Pick the deepest listed count not beyond `depth`.
    int best_depth = 0;
    std::uint64_t expected = 0;
    std::istringstream counts(semicolon == std::string::npos ? "" : line.substr(semicolon));
    std::string token;
    while (std::getline(counts, token, ';')) {
      int d = 0;
      unsigned long long n = 0;
      if (std::sscanf(token.c_str(), " D%d %llu", &d, &n) == 2 && d <= depth && d > best_depth) {
        best_depth = d;
        expected = n;
      }
    }
    if (best_depth == 0) {
      // Said, not silently dropped: a suite whose counts all lie deeper tests less than it seems.
      fmt::print(out, "skip line {}: no count at depth {} or less\n", line_number, depth);
      ++skipped;
      continue;
    }
    const std::uint64_t nodes = perft(*pos, best_depth);
    total += nodes;
    ++positions;
    if (nodes != expected) {
      ++failures;
      fmt::print(out, "FAIL line {}: {} depth {}: expected {}, got {}\n", line_number, fen,
                 best_depth, expected, nodes);
    }
  }
  const double secs = seconds_since(start);
  fmt::print(out, "{} positions, {} failures, {} skipped, {} nodes in {:.2f} s ({:.1f} Mnps)\n",
             positions, failures, skipped, total, secs,
             secs > 0 ? double(total) / secs / 1e6 : 0.0);
  if (positions == 0) {
    fmt::print(err, "error: no position of '{}' has a count at depth {} or less\n", path, depth);
    return 2;
  }
  return failures ? 1 : 0;
}

}  // namespace tessera::cli
