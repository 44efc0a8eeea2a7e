// Helpers of the UCI protocol tests: a `tessera` child process spoken to as a GUI speaks to it,
// and small readers of its reply lines. Every read has a timeout (kAnswer), so an engine that
// hangs fails a test rather than the whole run.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"
#include "uci/tokens.h"
#include "uci_child_process.h"

namespace tessera::test {

using namespace std::chrono_literals;
using uci::split_words;
using uci::Words;

// How long a reply may be waited for before the engine is deemed hung. Generous on purpose:
// sanitizer builds on a busy machine are slow, and this detects hangs, not slowness.
inline constexpr Millis kAnswer = 30s;
inline constexpr std::string_view kFoolsMate =
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";  // white is mated
inline constexpr std::string_view kStalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
inline constexpr std::string_view kMateInOne = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";

[[nodiscard]] inline bool starts_with(std::string_view line, std::string_view prefix) {
  return line.substr(0, prefix.size()) == prefix;
}
[[nodiscard]] inline bool is_bestmove(const std::string& line) {
  return starts_with(line, "bestmove");
}
[[nodiscard]] inline bool is_search_info(const std::string& line) {
  return starts_with(line, "info ") && !starts_with(line, "info string");
}
[[nodiscard]] inline std::size_t count_if_line(const std::vector<std::string>& lines,
                                               bool (*pred)(const std::string&)) {
  return std::size_t(std::count_if(lines.begin(), lines.end(), pred));
}

// The value after `key` in an info line, or nullopt.
[[nodiscard]] inline std::optional<std::string> field(const std::string& line,
                                                      std::string_view key) {
  const Words words = split_words(line);
  for (std::size_t i = 0; i + 1 < words.size(); ++i)
    if (words[i] == key) return words[i + 1];
  return std::nullopt;
}

[[nodiscard]] inline Position position_after(std::string_view fen,
                                             const std::vector<std::string>& moves,
                                             bool chess960 = false) {
  std::string error;
  std::optional<Position> pos = Position::from_fen(fen, chess960, error);
  EXPECT_TRUE(pos.has_value()) << error;
  if (!pos) return Position::startpos();
  for (const std::string& text : moves) {
    const Move m = pos->parse_uci_move(text);
    EXPECT_FALSE(m.is_none()) << text;
    if (m.is_none()) break;
    pos->make_move(m);
  }
  return *pos;
}

// A `tessera` process plus the small conversations every test needs.
class Uci {
 public:
  Uci() : process_(TESSERA_BINARY) {}

  void send(std::string_view line) { EXPECT_TRUE(process_.send(line)) << line; }
  [[nodiscard]] ChildProcess& process() { return process_; }

  // `uci` ... `uciok`: every line of the reply.
  std::vector<std::string> handshake() {
    send("uci");
    auto reply = process_.read_until([](const std::string& l) { return l == "uciok"; }, kAnswer);
    EXPECT_TRUE(reply.found) << "no uciok";
    return reply.lines;
  }

  // `isready` ... `readyok`: the lines that came before readyok.
  std::vector<std::string> sync() {
    send("isready");
    auto reply = process_.read_until([](const std::string& l) { return l == "readyok"; }, kAnswer);
    EXPECT_TRUE(reply.found) << "no readyok";
    if (reply.found) reply.lines.pop_back();
    return reply.lines;
  }

  // Reads to the next bestmove line; returns every line up to and including it.
  std::vector<std::string> until_bestmove(Millis timeout = kAnswer) {
    auto reply = process_.read_until(is_bestmove, timeout);
    EXPECT_TRUE(reply.found) << "no bestmove";
    return reply.lines;
  }

  // `go ...` then the bestmove's move (second word), "" when none came.
  std::string search(std::string_view go, std::vector<std::string>* lines = nullptr) {
    send(go);
    std::vector<std::string> got = until_bestmove();
    if (lines != nullptr) *lines = got;
    if (got.empty() || !is_bestmove(got.back())) return {};
    const Words words = split_words(got.back());
    return words.size() >= 2 ? words[1] : std::string();
  }

  // `go perft N`: divide lines as move -> count, and the total line's number.
  std::map<std::string, std::uint64_t> perft(int depth, std::uint64_t* total) {
    send("go perft " + std::to_string(depth));
    auto reply = process_.read_until(
        [](const std::string& l) { return starts_with(l, "Nodes searched: "); }, kAnswer);
    EXPECT_TRUE(reply.found);
    std::map<std::string, std::uint64_t> divide;
    for (const std::string& line : reply.lines) {
      const std::size_t colon = line.find(": ");
      if (colon == std::string::npos || starts_with(line, "Nodes")) continue;
      divide[line.substr(0, colon)] = std::stoull(line.substr(colon + 2));
    }
    if (reply.found) *total = std::stoull(reply.lines.back().substr(16));
    return divide;
  }

  // Lines of `info string` that a command produced before the following readyok.
  std::vector<std::string> info_strings_after(std::string_view command) {
    send(command);
    std::vector<std::string> strings;
    for (const std::string& line : sync())
      if (starts_with(line, "info string")) strings.push_back(line);
    return strings;
  }

 private:
  ChildProcess process_;
};

}  // namespace tessera::test
