#include "datagen/genfens.h"

#include <fmt/format.h>

#include <cstdlib>
#include <exception>

#include "core/parse.h"
#include "core/position.h"
#include "datagen/openings.h"
#include "datagen/searcher.h"
#include "game/game_rules.h"

namespace tessera::datagen {

namespace {

constexpr int kTriesPerPosition = 64;

template <typename T>
[[nodiscard]] bool read_number(const std::vector<std::string>& words, std::size_t at,
                               const char* name, T min, T max, T& value, std::string& error) {
  const std::optional<T> n = at < words.size() ? parse_integer<T>(words[at]) : std::nullopt;
  if (!n || *n < min || *n > max) {
    error = fmt::format("genfens: {} wants an integer from {} to {}{}", name, min, max,
                        at < words.size() ? fmt::format(", got '{}'", words[at]) : "");
    return false;
  }
  value = *n;
  return true;
}

// A position's start, drawn with its generator: a line of the book, a Chess960 start (under
// `dfrc` white's back rank first, then black's) or the start position.
[[nodiscard]] std::string draw_start(const GenfensRequest& request,
                                     const std::vector<std::string>& book, std::mt19937_64& rng) {
  if (!book.empty()) return book[std::size_t(rng() % book.size())];
  switch (request.starts) {
    case GenfensStarts::Chess960:
      return game::chess960_start_fen(int(rng() % 960));
    case GenfensStarts::DoubleChess960: {
      const int white = int(rng() % 960);
      const int black = int(rng() % 960);
      return game::double_chess960_start_fen(white, black);
    }
    case GenfensStarts::Standard:
      break;
  }
  return std::string(Position::kStartFen);
}

}  // namespace

std::optional<GenfensRequest> parse_genfens(const std::vector<std::string>& words,
                                            std::string& error) {
  GenfensRequest r;
  if (words.size() < 5 || words[1] != "seed" || words[3] != "book") {
    error =
        "usage: genfens N seed S book <None|FILE.epd|FILE.pgn> [plies P] [bound CP] [nodes N] "
        "[frc|dfrc]";
    return std::nullopt;
  }
  if (!read_number(words, 0, "N", 1, 10'000'000, r.count, error) ||
      !read_number<std::uint64_t>(words, 2, "seed", 0, ~std::uint64_t(0), r.seed, error))
    return std::nullopt;
  if (words[4] != "None" && words[4] != "none") r.book = words[4];
  for (std::size_t i = 5; i < words.size(); ++i) {
    const std::string& key = words[i];
    bool ok = true;
    if (key == "plies") {
      ok = read_number(words, ++i, "plies", 0, 100, r.random_plies, error);
    } else if (key == "bound") {
      ok = read_number(words, ++i, "bound", 0, 30000, r.bound, error);
    } else if (key == "nodes") {
      ok = read_number<std::uint64_t>(words, ++i, "nodes", 1, 100'000'000, r.nodes, error);
    } else if (key == "frc" || key == "chess960" || key == "dfrc") {
      const GenfensStarts starts =
          key == "dfrc" ? GenfensStarts::DoubleChess960 : GenfensStarts::Chess960;
      if (r.starts != GenfensStarts::Standard && r.starts != starts) {
        error = "genfens: frc and dfrc exclude each other";
        return std::nullopt;
      }
      r.starts = starts;
    } else {
      error = fmt::format("genfens: unknown argument '{}' (plies, bound, nodes, frc or dfrc)", key);
      return std::nullopt;
    }
    if (!ok) return std::nullopt;
  }
  if (r.starts != GenfensStarts::Standard && !r.book.empty()) {
    error =
        "genfens: frc and dfrc draw their own starts and take no book (a book whose name holds "
        "FRC, 960 or FISCHER is read as Chess960)";
    return std::nullopt;
  }
  r.chess960 = r.starts != GenfensStarts::Standard || (!r.book.empty() && is_chess960_book(r.book));
  return r;
}

bool run_genfens(const GenfensRequest& request, const std::function<void(const std::string&)>& line,
                 std::string& error) {
  std::vector<std::string> book;
  std::string warning;
  if (!request.book.empty() &&
      !load_openings(request.book, request.chess960, book, error, &warning))
    return false;
  if (!warning.empty()) line("info string warning: " + warning);
  Searcher searcher;
  if (std::string e = searcher.configure({request.chess960, 16, false, {}}); !e.empty()) {
    error = e;
    return false;
  }
  search::SearchLimits limits;
  limits.nodes = request.nodes;
  try {
    for (int index = 0; index < request.count; ++index) {
      std::mt19937_64 rng = game::game_generator(request.seed, index);
      bool found = false;
      for (int attempt = 0; attempt < kTriesPerPosition && !found; ++attempt) {
        const std::string start = draw_start(request, book, rng);
        std::string why;
        Position pos = *Position::from_fen(start, request.chess960, why);  // checked when loaded
        std::vector<std::string> moves;
        const int plies = request.random_plies + int(rng() % 2);
        game::play_random_plies(pos, rng, plies, moves);
        if (int(moves.size()) < plies || game::rules_verdict(pos, 0, 1000)) continue;
        searcher.new_game();
        const SearchResult s = searcher.search(start, moves, pos, limits);
        if (s.mate || std::abs(s.score) > request.bound) continue;
        line("info string genfens " + pos.fen());
        found = true;
      }
      if (!found)
        line(fmt::format("info string warning: genfens found no playable position {} in {} tries",
                         index, kTriesPerPosition));
    }
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  return true;
}

}  // namespace tessera::datagen
