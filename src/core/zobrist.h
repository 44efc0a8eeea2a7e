// Zobrist keys, drawn once at compile time from a fixed-seed splitmix64 stream, so the keys are
// the same in every run and every build.
//
// Layout of the stream: piece[12][64], the four single castling rights, ep_file[8], side, then
// the material-count keys material[12][16]. castle[r] is the XOR of the single-right keys in r,
// so castle[0] = 0 and a change of rights is one XOR of castle[old ^ new].
#pragma once

#include <array>
#include <cstdint>

#include "core/types.h"

namespace tessera {

struct ZobristKeys {
  std::array<std::array<Key, 64>, kPieceCount> piece{};
  std::array<Key, 16> castle{};
  std::array<Key, 8> ep_file{};
  Key side = 0;
  // material[p][n]: toggled when the count of piece p goes between n and n + 1.
  std::array<std::array<Key, 16>, kPieceCount> material{};
};

[[nodiscard]] constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

inline constexpr std::uint64_t kZobristSeed = 0x7E55E7A2026ULL;

[[nodiscard]] constexpr ZobristKeys build_zobrist_keys() {
  ZobristKeys z;
  std::uint64_t state = kZobristSeed;
  for (auto& squares : z.piece)
    for (auto& k : squares) k = splitmix64(state);
  std::array<Key, 4> single{};
  for (auto& k : single) k = splitmix64(state);
  for (int r = 0; r < 16; ++r)
    for (int bit = 0; bit < 4; ++bit)
      if (r & (1 << bit)) z.castle[r] ^= single[bit];
  for (auto& k : z.ep_file) k = splitmix64(state);
  z.side = splitmix64(state);
  for (auto& counts : z.material)
    for (auto& k : counts) k = splitmix64(state);
  return z;
}

inline constexpr ZobristKeys kZobrist = build_zobrist_keys();

}  // namespace tessera
