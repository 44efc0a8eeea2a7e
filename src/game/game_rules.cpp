#include "game/game_rules.h"

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
