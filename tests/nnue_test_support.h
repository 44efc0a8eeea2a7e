// Shared helpers for the network inference tests: random quantised parameters of any width and
// king-bucket layout, within the limits a valid file allows, the FENs of a position's
// colour-flipped and horizontally mirrored twins, and a perft walk that keeps the accumulators
// as the search does and checks them against a full refresh at every node.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/architecture.h"
#include "eval/nnue/move_delta.h"
#include "eval/nnue/network.h"
#include "eval/nnue/network_file.h"
#include "test_core_support.h"

namespace tessera::eval::nnue::nnue_test {

// Random quantised parameters: first-layer weights within +-ft_range, biases in a trained-like
// range, output weights anywhere in +-kMaxOutputWeight, every output bucket different (so that
// a wrong bucket shows in any comparison of evaluations) and every king bucket different (so
// that a wrong king bucket or mirror half shows too), `hidden` wide.
[[nodiscard]] inline NetworkParameters random_parameters(
    std::uint64_t seed, int ft_range = 200, const KingBuckets& king_buckets = kSingleKingBucket,
    int hidden = kHidden) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](int lo, int hi) {
    return std::int16_t(lo + int(rng() % std::uint64_t(hi - lo + 1)));
  };
  auto p = NetworkParameters::zeros(std::uint32_t(hidden), kOutputBuckets, king_buckets);
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

// Perspective c's half of `acc` as a vector, for comparisons and failure messages.
[[nodiscard]] inline std::vector<std::int16_t> half(const Accumulator& acc, Color c) {
  const auto h = acc.half(c);
  return {h.begin(), h.end()};
}

// Kings next to the boundaries of the default layout: the files d/e (the mirror line) and the
// ranks 1/2, 2/3 and 4/5 (the buckets), with castling on both wings (the long one crosses the
// mirror line) and in Chess960 (where the king may castle across it, or not move at all).
inline constexpr StartFen kKingBoundaryFens[] = {
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false},
    {"r7/2p5/3k4/8/3P4/4K3/5N2/7R w - - 0 1", false},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
    {"8/8/4k3/3p4/4P3/3K4/8/8 b - - 0 1", false},
    {"4k3/3ppp2/8/8/8/8/3PPP2/3K4 w - - 0 1", false},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    {"1rk2r2/8/8/8/8/8/8/1RK2R2 w FBfb - 0 1", true},
};

// A perft walk that keeps the accumulators as the search does (the best kernel and the scalar
// reference, each with its own cache), checked against a full scalar refresh at every node.
struct PerftWalk {
  const Network& net;
  std::vector<Accumulator> fast = std::vector<Accumulator>(8);
  std::vector<Accumulator> ref = std::vector<Accumulator>(8);
  std::unique_ptr<AccumulatorCache> fast_cache = std::make_unique<AccumulatorCache>();
  std::unique_ptr<AccumulatorCache> ref_cache = std::make_unique<AccumulatorCache>();
  std::uint64_t nodes = 0, bucket_changes = 0, mirror_changes = 0, castle_rebuilds = 0,
                king_moves_in_view = 0;
  int failures = 0;

  void run(Position& pos, int depth, int ply) {
    if (depth == 0) return;
    for (const Move m : MoveList<GenType::All>(pos)) {
      const std::string before = pos.fen() + " " + pos.move_to_uci(m);
      const Color us = pos.side_to_move();
      const bool king_move = pos.moved_piece(m).type() == KING;
      MoveDelta delta;
      pos.make_move(m, delta);
      delta.apply(net, pos, fast[std::size_t(ply)], fast[std::size_t(ply) + 1], *fast_cache);
      delta.apply_reference(net, pos, ref[std::size_t(ply)], ref[std::size_t(ply) + 1], *ref_cache);
      ++nodes;
      const KingView was = fast[std::size_t(ply)].views[us];
      const KingView now = fast[std::size_t(ply) + 1].views[us];
      bucket_changes += was.bucket != now.bucket;
      mirror_changes += was.mirrored != now.mirrored;
      castle_rebuilds += m.kind() == MoveKind::Castling && was != now;
      king_moves_in_view += king_move && was == now;
      Accumulator fresh;
      scalar::refresh(net, pos, fresh);
      const Accumulator& child = fast[std::size_t(ply) + 1];
      const bool ok = fresh == child && fresh == ref[std::size_t(ply) + 1] &&
                      fresh.hidden == net.hidden() &&
                      evaluate(net, child, pos.side_to_move()) ==
                          scalar::evaluate(net, fresh, pos.side_to_move());
      if (!ok && ++failures <= 5) ADD_FAILURE() << "differs from a refresh after " << before;
      run(pos, depth - 1, ply + 1);
      pos.unmake_move(m);
    }
  }

  void tree(const std::string& fen, bool chess960, int depth) {
    Position pos = test::parse(fen, chess960);
    refresh(net, pos, fast[0]);
    scalar::refresh(net, pos, ref[0]);
    run(pos, depth, 0);
  }
  // The trees of every kKingBoundaryFens position.
  void boundary_trees(int depth) {
    for (const StartFen& t : kKingBoundaryFens) tree(t.fen, t.chess960, depth);
  }
  // No node differed, and the trees crossed every kind of king-view boundary many times.
  void expect_boundaries_crossed() const {
    EXPECT_EQ(failures, 0);
    EXPECT_GT(bucket_changes, 100u);
    EXPECT_GT(mirror_changes, 100u);
    EXPECT_GT(castle_rebuilds, 10u);
    EXPECT_GT(king_moves_in_view, 100u);
  }
};

}  // namespace tessera::eval::nnue::nnue_test
