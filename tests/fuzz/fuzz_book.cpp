// libFuzzer target: the Polyglot book reader on arbitrary file contents.
//
// A refused file must say why. An accepted one must hold whole entries, and every move it offers
// must be legal: the target walks a short line from the start position (book moves while there
// are any, then a fixed sequence), asking the book for its moves and a pick at every ply, and
// decodes every entry's move code against the current position.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <span>
#include <string>

#include "book/polyglot_book.h"
#include "core/movegen.h"
#include "core/polyglot_key.h"
#include "core/position.h"

namespace {

using tessera::Move;
using tessera::Position;
namespace book = tessera::book;

void require(bool condition) {
  if (!condition) std::abort();
}

void check_position(const book::PolyglotBook& b, const Position& pos, std::mt19937_64& rng) {
  for (const book::BookMove& bm : b.moves(pos)) require(pos.is_legal_move(bm.move));
  for (const bool best : {true, false}) {
    const Move m = b.pick(pos, best, rng);
    require(m.is_none() || pos.is_legal_move(m));
  }
  for (const book::PolyglotEntry& e : b.entries(tessera::polyglot_key(pos))) {
    const Move m = book::decode_move(pos, e.move);
    require(m.is_none() || pos.is_legal_move(m));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string error;
  const auto b = book::PolyglotBook::from_bytes(std::span(data, size), "fuzz.bin", error);
  if (!b) {
    require(!error.empty());
    return 0;
  }
  require(b->size() * book::kEntrySize == size);
  std::mt19937_64 rng(size);
  Position pos = Position::startpos();
  constexpr const char* kFallback[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"};
  for (int ply = 0; ply < 12; ++ply) {
    check_position(*b, pos, rng);
    Move next = b->pick(pos, true, rng);
    if (next.is_none() && ply < 6) next = pos.parse_uci_move(kFallback[ply]);
    if (next.is_none()) break;
    pos.make_move(next);
  }
  return 0;
}
