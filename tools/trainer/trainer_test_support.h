// Helpers shared by the trainer's tests: positions from random games, a material target that a
// network can learn, and training options small enough for a test.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "core/movegen.h"
#include "dataset.h"
#include "trainer.h"

namespace tessera::trainer::test_support {

// Positions of random games from the start position.
inline std::vector<Position> random_positions(int games, int plies, std::uint64_t seed) {
  std::vector<Position> out;
  std::mt19937_64 rng(seed);
  for (int g = 0; g < games; ++g) {
    Position pos = Position::startpos();
    for (int ply = 0; ply < plies; ++ply) {
      const MoveList<GenType::All> moves(pos);
      if (moves.empty()) break;
      pos.make_move(moves[rng() % moves.size()]);
      out.push_back(pos);
    }
  }
  return out;
}

// Material from the side to move's view, in centipawns: a target that the network can learn.
inline int material(const Position& pos) {
  constexpr int kValue[] = {100, 300, 300, 500, 900, 0};
  int sum = 0;
  for (int t = PAWN; t <= QUEEN; ++t)
    sum += kValue[t] * (pos.count(WHITE, PieceType(t)) - pos.count(BLACK, PieceType(t)));
  return pos.side_to_move() == WHITE ? sum : -sum;
}

inline std::vector<Sample> material_samples(int games, int plies, std::uint64_t seed) {
  std::vector<Sample> out;
  for (const Position& pos : random_positions(games, plies, seed)) {
    Sample s = sample_from_position(pos);
    s.score = std::int16_t(material(pos));
    s.result = s.score > 0 ? 2 : s.score < 0 ? 0 : 1;
    out.push_back(s);
  }
  return out;
}

// Few epochs on a narrow network: enough to see the loss fall, quick enough for a test.
inline TrainOptions small_options(int hidden, int threads) {
  TrainOptions o;
  o.hidden = hidden;
  o.threads = threads;
  o.batch = 256;
  o.epochs = 4;
  o.lr = 0.01f;
  o.final_lr = 0.001f;
  o.lambda = 0.0f;
  o.seed = 9;
  return o;
}

}  // namespace tessera::trainer::test_support
