// Legal move generation.
//
// The generator is fully legal: it works from the check mask and the pin rays of the side to
// move, so every move it emits can be made without a further test. One template serves all
// kinds: Noisy (captures, en passant and queen promotions), Quiet (everything else, including
// castling and under-promotions) and All (the union). Noisy and Quiet partition All.
#pragma once

#include <array>
#include <cstddef>

#include "core/position.h"
#include "core/types.h"

namespace tessera {

enum class GenType { Noisy, Quiet, All };

// Writes the legal moves of kind T to `out` and returns the end of the written range.
template <GenType T>
Move* generate(const Position& pos, Move* out);

// A fixed-capacity list of legal moves.
template <GenType T = GenType::All>
class MoveList {
 public:
  explicit MoveList(const Position& pos) : end_(generate<T>(pos, moves_.data())) {}
  [[nodiscard]] const Move* begin() const { return moves_.data(); }
  [[nodiscard]] const Move* end() const { return end_; }
  [[nodiscard]] std::size_t size() const { return std::size_t(end_ - moves_.data()); }
  [[nodiscard]] bool empty() const { return end_ == moves_.data(); }
  [[nodiscard]] bool contains(Move m) const {
    for (const Move x : *this)
      if (x == m) return true;
    return false;
  }
  [[nodiscard]] Move operator[](std::size_t i) const { return moves_[i]; }

 private:
  std::array<Move, kMaxMoves> moves_;
  Move* end_;
};

// The number of legal moves, without writing them out.
[[nodiscard]] std::size_t count_legal_moves(const Position& pos);
[[nodiscard]] bool has_legal_move(const Position& pos);

}  // namespace tessera
