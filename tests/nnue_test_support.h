// Shared helpers for the network inference tests: random quantised parameters of any king-bucket
// layout, within the limits a valid file allows, and the FENs of a position's colour-flipped and
// horizontally mirrored twins.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "eval/nnue/architecture.h"
#include "eval/nnue/network.h"
#include "eval/nnue/network_file.h"

namespace tessera::eval::nnue::nnue_test {

// Random quantised parameters: first-layer weights within +-ft_range, biases in a trained-like
// range, output weights anywhere in +-kMaxOutputWeight, every output bucket different (so that
// a wrong bucket shows in any comparison of evaluations) and every king bucket different (so
// that a wrong king bucket or mirror half shows too).
[[nodiscard]] inline NetworkParameters random_parameters(
    std::uint64_t seed, int ft_range = 200, const KingBuckets& king_buckets = kSingleKingBucket) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](int lo, int hi) {
    return std::int16_t(lo + int(rng() % std::uint64_t(hi - lo + 1)));
  };
  auto p = NetworkParameters::zeros(kHidden, kOutputBuckets, king_buckets);
  for (auto& v : p.ft_weights) v = uniform(-ft_range, ft_range);
  for (auto& v : p.ft_bias) v = uniform(-100, 300);
  for (auto& v : p.out_weights) v = uniform(-kMaxOutputWeight, kMaxOutputWeight);
  for (auto& v : p.out_bias) v = uniform(-20000, 20000);
  p.scale = 400;
  return p;
}

// The position with ranks mirrored, colours swapped and the other side to move.
[[nodiscard]] inline std::string flip_fen(const std::string& fen) {
  std::vector<std::string> fields;
  for (std::size_t at = 0; at <= fen.size();) {
    const std::size_t space = std::min(fen.find(' ', at), fen.size());
    fields.push_back(fen.substr(at, space - at));
    at = space + 1;
  }
  auto swap_case = [](char c) {
    return char(std::isupper(static_cast<unsigned char>(c))
                    ? std::tolower(static_cast<unsigned char>(c))
                    : std::toupper(static_cast<unsigned char>(c)));
  };
  std::vector<std::string> ranks;
  for (std::size_t at = 0; at <= fields[0].size();) {
    const std::size_t slash = std::min(fields[0].find('/', at), fields[0].size());
    ranks.push_back(fields[0].substr(at, slash - at));
    at = slash + 1;
  }
  std::string board;
  for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
    if (!board.empty()) board += '/';
    for (const char c : *it) board += swap_case(c);
  }
  std::string upper, lower;
  for (const char c : fields[2])
    if (c != '-') (std::isupper(static_cast<unsigned char>(c)) ? lower : upper) += swap_case(c);
  const std::string castling = upper + lower == "" ? "-" : upper + lower;
  std::string ep = fields[3];
  if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
  return board + (fields[1] == "w" ? " b " : " w ") + castling + " " + ep + " " + fields[4] + " " +
         fields[5];
}

[[nodiscard]] inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at <= s.size();) {
    const std::size_t end = std::min(s.find(sep, at), s.size());
    out.push_back(s.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// The position with files mirrored (a <-> h), without castling rights (which a mirrored
// standard position cannot keep).
[[nodiscard]] inline std::string mirror_fen(const std::string& fen) {
  const std::vector<std::string> fields = split(fen, ' ');
  std::string board;
  for (const std::string& rank : split(fields[0], '/')) {
    if (!board.empty()) board += '/';
    board.append(rank.rbegin(), rank.rend());
  }
  std::string ep = fields[3];
  if (ep != "-") ep[0] = char('a' + 'h' - ep[0]);
  return board + " " + fields[1] + " - " + ep + " " + fields[4] + " " + fields[5];
}

// The network of `p`, failing the test (and falling back to zeros) when it is refused.
[[nodiscard]] inline Network build(const NetworkParameters& p) {
  std::string error;
  auto net = Network::from_parameters(p, error);
  EXPECT_TRUE(net) << error;
  return net ? *net : *Network::from_parameters(NetworkParameters::zeros(), error);
}

// A FEN to start random games from, and whether it is a Chess960 position.
struct StartFen {
  const char* fen;
  bool chess960;
};

// The positions of `games` random legal games of up to `plies` plies, game g starting from
// starts[g % size], one after another.
[[nodiscard]] inline std::vector<Position> random_positions(std::span<const StartFen> starts,
                                                            std::uint64_t seed, int games,
                                                            int plies) {
  std::mt19937_64 rng(seed);
  std::vector<Position> out;
  for (int g = 0; g < games; ++g) {
    const StartFen& start = starts[std::size_t(g) % starts.size()];
    std::string error;
    auto parsed = Position::from_fen(start.fen, start.chess960, error);
    EXPECT_TRUE(parsed) << start.fen << ": " << error;
    if (!parsed) continue;
    Position pos = *parsed;
    for (int ply = 0; ply < plies; ++ply) {
      out.push_back(pos);
      const MoveList moves(pos);
      if (moves.empty()) break;
      pos.make_move(moves[rng() % moves.size()]);
    }
  }
  return out;
}

}  // namespace tessera::eval::nnue::nnue_test
