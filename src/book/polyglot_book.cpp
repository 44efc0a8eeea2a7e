#include "book/polyglot_book.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/movegen.h"
#include "core/polyglot_key.h"

namespace tessera::book {

namespace {

[[nodiscard]] std::uint64_t read_be(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

[[nodiscard]] std::uint16_t square_code(Square s) { return std::uint16_t(s.rank() * 8 + s.file()); }

}  // namespace

std::uint16_t encode_move(Move m) {
  // Tessera's castling move already goes to the own rook's square, as Polyglot's does.
  std::uint16_t code = std::uint16_t(square_code(m.to()) | (square_code(m.from()) << 6));
  if (m.kind() == MoveKind::Promotion)
    code = std::uint16_t(code | ((m.promotion() - KNIGHT + 1) << 12));
  return code;
}

namespace {

// Matching against the generated legal moves, rather than building a Move from the code,
// means no malformed code can ever reach make_move.
[[nodiscard]] Move match(const MoveList<GenType::All>& legal, bool chess960, std::uint16_t code) {
  for (const Move m : legal) {
    if (encode_move(m) == code) return m;
    // Some books written by other tools store standard castling as the king's own move
    // (e1g1); in standard chess that code means nothing else, so it is read as castling.
    if (m.kind() == MoveKind::Castling && !chess960) {
      const int king_file = m.to().file() > m.from().file() ? 6 : 2;
      const Square king_to(king_file, m.from().rank());
      if (std::uint16_t(square_code(king_to) | (square_code(m.from()) << 6)) == code) return m;
    }
  }
  return Move::none();
}

}  // namespace

Move decode_move(const Position& pos, std::uint16_t code) {
  return match(MoveList<GenType::All>(pos), pos.chess960(), code);
}

namespace {

// The size rules shared by files and memory: "" when the size can hold a book.
[[nodiscard]] std::string size_error(std::size_t size, const std::string& name) {
  if (size == 0) return fmt::format("book file '{}' is empty", name);
  if (size % kEntrySize != 0)
    return fmt::format(
        "book file '{}' is truncated: {} bytes is not a whole number of {}-byte "
        "entries",
        name, size, kEntrySize);
  return {};
}

// Entries holding the file's raw bytes become host-order values.
void decode_in_place(std::vector<PolyglotEntry>& entries) {
  static_assert(sizeof(PolyglotEntry) == kEntrySize);
  for (PolyglotEntry& e : entries) {
    unsigned char raw[kEntrySize];
    std::memcpy(raw, &e, kEntrySize);
    e.key = read_be(raw, 8);
    e.move = std::uint16_t(read_be(raw + 8, 2));
    e.weight = std::uint16_t(read_be(raw + 10, 2));
    e.learn = std::uint32_t(read_be(raw + 12, 4));
  }
}

[[nodiscard]] std::string order_error(const std::vector<PolyglotEntry>& entries,
                                      const std::string& name) {
  const auto unsorted = std::is_sorted_until(
      entries.begin(), entries.end(),
      [](const PolyglotEntry& a, const PolyglotEntry& b) { return a.key < b.key; });
  if (unsorted == entries.end()) return {};
  return fmt::format("book file '{}' is not sorted by key (entry {} is out of order)", name,
                     unsorted - entries.begin());
}

}  // namespace

std::optional<PolyglotBook> PolyglotBook::load(const std::string& path, std::string& error) {
  if (path.empty()) {
    error = "no book file given";
    return std::nullopt;
  }
  // A directory opens as a stream on Linux and then reads as empty: name the real problem.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = fmt::format("book file '{}' is a directory", path);
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = fmt::format("cannot open book file '{}'", path);
    return std::nullopt;
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0 || !in) {
    error = fmt::format("cannot read book file '{}'", path);
    return std::nullopt;
  }
  error = size_error(static_cast<std::size_t>(size), path);
  if (!error.empty()) return std::nullopt;
  // Large books run to hundreds of megabytes: one read straight into the entries, decoded in
  // place, so the file is never held twice.
  PolyglotBook book;
  book.path_ = path;
  book.entries_.resize(static_cast<std::size_t>(size) / kEntrySize);
  if (!in.read(reinterpret_cast<char*>(book.entries_.data()), size)) {
    error = fmt::format("cannot read book file '{}'", path);
    return std::nullopt;
  }
  decode_in_place(book.entries_);
  error = order_error(book.entries_, path);
  if (!error.empty()) return std::nullopt;
  return book;
}

std::optional<PolyglotBook> PolyglotBook::from_bytes(std::span<const unsigned char> bytes,
                                                     const std::string& name, std::string& error) {
  error = size_error(bytes.size(), name);
  if (!error.empty()) return std::nullopt;
  PolyglotBook book;
  book.path_ = name;
  book.entries_.resize(bytes.size() / kEntrySize);
  std::memcpy(book.entries_.data(), bytes.data(), bytes.size());
  decode_in_place(book.entries_);
  error = order_error(book.entries_, name);
  if (!error.empty()) return std::nullopt;
  return book;
}

std::span<const PolyglotEntry> PolyglotBook::entries(std::uint64_t key) const {
  const auto by_key = [](const PolyglotEntry& e, std::uint64_t k) { return e.key < k; };
  const auto first = std::lower_bound(entries_.begin(), entries_.end(), key, by_key);
  auto last = first;
  while (last != entries_.end() && last->key == key) ++last;
  return {first, last};
}

std::vector<BookMove> PolyglotBook::moves(const Position& pos) const {
  std::vector<BookMove> result;
  const std::span<const PolyglotEntry> found = entries(polyglot_key(pos));
  if (found.empty()) return result;
  const MoveList<GenType::All> legal(pos);
  for (const PolyglotEntry& e : found) {
    const Move m = match(legal, pos.chess960(), e.move);
    if (!m) continue;  // illegal here: a collision or a damaged entry
    const bool seen =
        std::any_of(result.begin(), result.end(), [m](const BookMove& b) { return b.move == m; });
    if (!seen) result.push_back({m, e.weight});
  }
  return result;
}

Move weighted_choice(const std::vector<BookMove>& moves, std::mt19937_64& rng) {
  if (moves.empty()) return Move::none();
  std::uint64_t total = 0;
  for (const BookMove& b : moves) total += b.weight;
  const bool all_zero = total == 0;
  if (all_zero) total = moves.size();
  // The modulo bias is below total / 2^64: invisible next to book weights. mt19937_64 is fully
  // specified, so a fixed seed gives the same choices with every standard library.
  std::uint64_t r = rng() % total;
  for (const BookMove& b : moves) {
    const std::uint64_t w = all_zero ? 1 : b.weight;
    if (r < w) return b.move;
    r -= w;
  }
  return moves.back().move;  // not reached
}

Move PolyglotBook::pick(const Position& pos, bool best, std::mt19937_64& rng) const {
  const std::vector<BookMove> candidates = moves(pos);
  if (candidates.empty()) return Move::none();
  if (!best) return weighted_choice(candidates, rng);
  const auto top =
      std::max_element(candidates.begin(), candidates.end(),
                       [](const BookMove& a, const BookMove& b) { return a.weight < b.weight; });
  return top->move;
}

}  // namespace tessera::book
