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

}  // namespace

std::optional<GenfensRequest> parse_genfens(const std::vector<std::string>& words,
                                            std::string& error) {
  GenfensRequest r;
  if (words.size() < 5 || words[1] != "seed" || words[3] != "book") {
    error = "usage: genfens N seed S book <None|FILE.epd> [plies P] [bound CP] [nodes N] [dfrc]";
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
    } else if (key == "dfrc" || key == "chess960") {
      r.chess960 = true;
    } else {
      error = fmt::format("genfens: unknown argument '{}' (plies, bound, nodes or dfrc)", key);
      return std::nullopt;
    }
    if (!ok) return std::nullopt;
  }
  if (r.chess960 && !r.book.empty()) {
    error = "genfens: dfrc draws its own starts and takes no book";
    return std::nullopt;
  }
  return r;
}

bool run_genfens(const GenfensRequest& request, const std::function<void(const std::string&)>& line,
                 std::string& error) {
  std::vector<std::string> book;
  if (!request.book.empty() && !load_openings(request.book, false, book, error)) return false;
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
        const std::string start = !book.empty()      ? book[std::size_t(rng() % book.size())]
                                  : request.chess960 ? game::chess960_start_fen(int(rng() % 960))
                                                     : std::string(Position::kStartFen);
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
