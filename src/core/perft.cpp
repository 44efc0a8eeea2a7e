#include "core/perft.h"

#include "core/movegen.h"

namespace tessera {

std::uint64_t perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return count_legal_moves(pos);  // bulk counting at the last ply
  const MoveList<GenType::All> moves(pos);
  std::uint64_t nodes = 0;
  for (const Move m : moves) {
    pos.make_move(m);
    nodes += perft(pos, depth - 1);
    pos.unmake_move(m);
  }
  return nodes;
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth) {
  std::vector<std::pair<Move, std::uint64_t>> result;
  for (const Move m : MoveList<GenType::All>(pos)) {
    pos.make_move(m);
    result.emplace_back(m, perft(pos, depth - 1));
    pos.unmake_move(m);
  }
  return result;
}

}  // namespace tessera
