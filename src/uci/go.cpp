#include "uci/go.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>
#include <string_view>

namespace tessera::uci {

namespace {

constexpr std::array<std::string_view, 13> kKeywords = {
    "wtime", "btime",    "winc",     "binc",   "movestogo",   "depth", "nodes",
    "mate",  "movetime", "infinite", "ponder", "searchmoves", "perft"};

[[nodiscard]] bool is_keyword(std::string_view word) {
  return std::find(kKeywords.begin(), kKeywords.end(), word) != kKeywords.end();
}

// Walks the words once; each parameter has its own small handler.
class GoParser {
 public:
  GoParser(const Words& words, const Position& root) : words_(words), root_(root) {}

  [[nodiscard]] GoCommand parse() {
    while (at_ < words_.size()) parameter(words_[at_++]);
    return std::move(cmd_);
  }

 private:
  void parameter(const std::string& key) {
    search::SearchLimits& l = cmd_.limits;
    if (key == "wtime" || key == "btime") {
      if (const auto t = number(key, LLONG_MIN, LLONG_MAX)) l.time[key == "btime"] = *t;
    } else if (key == "winc" || key == "binc") {
      if (const auto t = number(key, LLONG_MIN, LLONG_MAX)) l.increment[key == "binc"] = *t;
    } else if (key == "movestogo") {
      if (const auto n = number(key, 0, INT_MAX)) l.movestogo = int(*n);
    } else if (key == "depth") {
      if (const auto n = number(key, 1, kMaxPly)) l.depth = int(*n);
    } else if (key == "mate") {
      if (const auto n = number(key, 1, kMaxPly)) l.mate = int(*n);
    } else if (key == "movetime") {
      // 0 would mean "no movetime" to the engine; a GUI asking for 0 or less wants a move now.
      if (const auto t = number(key, LLONG_MIN, LLONG_MAX)) l.movetime = std::max<long long>(*t, 1);
    } else if (key == "nodes") {
      nodes();
    } else if (key == "perft") {
      cmd_.perft = true;
      if (const auto n = number(key, 1, kMaxPerftDepth)) cmd_.perft_depth = int(*n);
    } else if (key == "infinite") {
      l.infinite = true;
    } else if (key == "ponder") {
      l.ponder = true;
    } else if (key == "searchmoves") {
      searchmoves();
    } else {
      error(fmt::format("unknown go parameter '{}'", key));
    }
  }

  // The word after `key` as an integer in [lo, hi]. A keyword there is left for the next
  // round, so `go depth wtime 100` still reads the wtime.
  [[nodiscard]] std::optional<long long> number(std::string_view key, long long lo, long long hi) {
    if (at_ == words_.size() || is_keyword(words_[at_])) {
      error(fmt::format("go {} needs a number", key));
      return std::nullopt;
    }
    const std::string& text = words_[at_++];
    const std::optional<long long> n = parse_int(text);
    if (!n) {
      error(fmt::format("go {}: '{}' is not an integer", key, text));
      return std::nullopt;
    }
    if (*n < lo || *n > hi) {
      error(fmt::format("go {}: {} is outside {}..{}", key, *n, lo, hi));
      return std::nullopt;
    }
    return n;
  }

  void nodes() {
    if (at_ == words_.size() || is_keyword(words_[at_])) {
      error("go nodes needs a number");
      return;
    }
    const std::string& text = words_[at_++];
    const auto n = parse_uint(text);
    if (!n)
      error(fmt::format("go nodes: '{}' is not a non-negative integer", text));
    else if (*n == 0)  // the engine's "no node limit": never what `go nodes 0` meant
      error("go nodes: 0 is not a node limit (at least 1)");
    else
      cmd_.limits.nodes = *n;
  }

  // The spec puts searchmoves last; stopping at the next keyword also accepts it mid-line.
  void searchmoves() {
    std::vector<Move>& moves = cmd_.limits.searchmoves;
    for (; at_ < words_.size() && !is_keyword(words_[at_]); ++at_) {
      const Move m = root_.parse_uci_move(engine::lowercase_promotion(words_[at_]));
      if (m.is_none())
        error(fmt::format("searchmoves: '{}' is not a legal move", words_[at_]));
      else if (std::find(moves.begin(), moves.end(), m) == moves.end())
        moves.push_back(m);
    }
  }

  void error(std::string message) { cmd_.errors.push_back(std::move(message)); }

  const Words& words_;
  const Position& root_;
  std::size_t at_ = 1;  // words_[0] is "go"
  GoCommand cmd_;
};

}  // namespace

GoCommand parse_go(const Words& words, const Position& root) {
  GoCommand go = GoParser(words, root).parse();
  // Whatever limit the GUI meant is lost with the bad value; searching without one would
  // never answer, so the search is kept minimal instead.
  if (!go.perft && !go.errors.empty() && is_unbounded(go.limits) && !go.limits.infinite &&
      !go.limits.ponder) {
    go.limits.depth = kFallbackDepth;
    go.errors.push_back(
        fmt::format("no valid limit left in this go: searching to depth {}", kFallbackDepth));
  }
  return go;
}

bool is_unbounded(const search::SearchLimits& l) {
  if (l.infinite || l.ponder) return true;
  // `mate` alone does not bound a search: the mate may not exist.
  const bool clock = l.time[0].has_value() || l.time[1].has_value();
  return !clock && l.depth == 0 && l.nodes == 0 && l.movetime == 0;
}

}  // namespace tessera::uci
