// Polyglot opening books (.bin): loading, looking a position up and choosing a move.
//
// Policy. A book is trusted only as far as it can be checked. Loading rejects, with a one-line
// reason, a file that is missing, unreadable, empty, truncated (its size is not a multiple of
// 16) or not sorted by key, because a binary search over such a file silently misses
// positions. An entry whose move is not legal in the position it is filed under (a hash
// collision, a damaged or foreign book) is skipped, never played. Among the legal entries the
// choice is the highest weight or a weighted random draw; entries of weight zero are kept out
// of the draw unless every entry of the position has weight zero, in which case all count
// equally. The random generator belongs to the caller, so tests can fix its seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/types.h"

namespace tessera::book {

// One 16-byte record, all fields big-endian in the file.
struct PolyglotEntry {
  std::uint64_t key = 0;
  std::uint16_t move = 0;
  std::uint16_t weight = 0;
  std::uint32_t learn = 0;
};

inline constexpr std::size_t kEntrySize = 16;

// A book move found for a position: the legal Tessera move and the entry's weight.
struct BookMove {
  Move move;
  std::uint16_t weight = 0;
};

// The Polyglot 16-bit code of a Tessera move (castling as king to own rook square).
[[nodiscard]] std::uint16_t encode_move(Move m);

// The legal move of `pos` that a Polyglot move code stands for, or Move::none().
[[nodiscard]] Move decode_move(const Position& pos, std::uint16_t code);

class PolyglotBook {
 public:
  // Reads the whole file. On failure returns nullopt and sets `error` to a one-line reason.
  [[nodiscard]] static std::optional<PolyglotBook> load(const std::string& path,
                                                        std::string& error);
  // The same checks on bytes already in memory; `name` only labels error messages.
  [[nodiscard]] static std::optional<PolyglotBook> from_bytes(std::span<const unsigned char> bytes,
                                                              const std::string& name,
                                                              std::string& error);

  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  [[nodiscard]] const std::string& path() const { return path_; }

  // All entries filed under `key`, in file order.
  [[nodiscard]] std::span<const PolyglotEntry> entries(std::uint64_t key) const;

  // The legal book moves of `pos`, in file order, without duplicates.
  [[nodiscard]] std::vector<BookMove> moves(const Position& pos) const;

  // The move to play from `pos`, or Move::none() when the book has no legal move for it.
  // best: the highest weight (the first one on a tie); otherwise a weighted draw from `rng`.
  [[nodiscard]] Move pick(const Position& pos, bool best, std::mt19937_64& rng) const;

 private:
  PolyglotBook() = default;
  std::vector<PolyglotEntry> entries_;
  std::string path_;
};

// A weighted draw from `moves` (see the policy above); Move::none() when `moves` is empty.
[[nodiscard]] Move weighted_choice(const std::vector<BookMove>& moves, std::mt19937_64& rng);

}  // namespace tessera::book
