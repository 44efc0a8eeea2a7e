#include "game/game_rules.h"

#include <array>
#include <stdexcept>

#include "core/movegen.h"
#include "core/zobrist.h"

namespace tessera::game {

namespace {

[[nodiscard]] std::uint64_t mix(std::uint64_t x) { return splitmix64(x); }

[[nodiscard]] std::string_view draw_reason(const Position& pos) {
  if (pos.rule50() >= 100) return "fifty-move rule";
  if (pos.has_insufficient_material()) return "insufficient material";
  return "repetition";
}

}  // namespace

std::optional<Verdict> rules_verdict(const Position& pos, int plies, int max_plies) {
  if (!has_legal_move(pos)) {
    if (!pos.in_check()) return Verdict{Result::Draw, "stalemate"};
    return Verdict{pos.side_to_move() == WHITE ? Result::BlackWins : Result::WhiteWins,
                   "checkmate"};
  }
  if (pos.is_draw(0)) return Verdict{Result::Draw, draw_reason(pos)};
  if (plies >= max_plies) return Verdict{Result::Draw, "move cap"};
  return std::nullopt;
}

std::mt19937_64 game_generator(std::uint64_t seed, int index) {
  return std::mt19937_64(mix(seed ^ mix(std::uint64_t(index))));
}

std::string chess960_back_rank(int index) {
  if (index < 0 || index > 959) throw std::out_of_range("a Chess960 start is numbered 0 to 959");
  std::array<char, 8> rank{};
  // The n-th empty file, counting from a.
  const auto place = [&](int n, char piece) {
    for (std::size_t file = 0; file < rank.size(); ++file)
      if (rank[file] == 0 && n-- == 0) {
        rank[file] = piece;
        return;
      }
  };
  int n = index;
  rank[std::size_t(2 * (n % 4) + 1)] = 'B';  // the light-squared bishop: b, d, f or h
  n /= 4;
  rank[std::size_t(2 * (n % 4))] = 'B';  // the dark-squared one: a, c, e or g
  n /= 4;
  place(n % 6, 'Q');
  n /= 6;
  // The two knights on the five files left, the ten ways in order.
  static constexpr std::array<std::array<int, 2>, 10> kKnights = {
      {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}};
  place(kKnights[std::size_t(n)][1], 'N');  // the later one first, so the earlier one's n holds
  place(kKnights[std::size_t(n)][0], 'N');
  place(0, 'R');
  place(0, 'K');
  place(0, 'R');
  return std::string(rank.begin(), rank.end());
}

std::string double_chess960_start_fen(int white, int black) {
  const std::string ranks[2] = {chess960_back_rank(white), chess960_back_rank(black)};
  std::string castling;  // per side the king-side rook's file, then the queen-side one's
  for (const std::string& rank : ranks) {
    castling += char('A' + rank.rfind('R'));
    castling += char('A' + rank.find('R'));
  }
  castling[2] = char(castling[2] - 'A' + 'a');
  castling[3] = char(castling[3] - 'A' + 'a');
  std::string black_rank = ranks[1];
  for (char& c : black_rank) c = char(c - 'A' + 'a');
  return black_rank + "/pppppppp/8/8/8/8/PPPPPPPP/" + ranks[0] + " w " + castling + " - 0 1";
}

std::string chess960_start_fen(int index) { return double_chess960_start_fen(index, index); }

void play_random_plies(Position& pos, std::mt19937_64& rng, int plies,
                       std::vector<std::string>& moves) {
  for (int i = 0; i < plies; ++i) {
    const MoveList<> legal(pos);
    if (legal.empty()) return;
    const Move m = legal[std::size_t(rng() % legal.size())];
    moves.push_back(pos.move_to_uci(m));
    pos.make_move(m);
  }
}

}  // namespace tessera::game
