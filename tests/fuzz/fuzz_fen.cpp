// libFuzzer target: Position::from_fen on arbitrary bytes.
//
// The first byte's low bit picks Chess960 parsing, the rest is the FEN text. An accepted FEN
// must survive a round trip through fen() (same text, same keys), and every legal move must
// keep the incremental keys equal to the recomputed ones, agree with gives_check(), and be
// undone exactly by unmake_move.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/movegen.h"
#include "core/position.h"

namespace {

using tessera::Move;
using tessera::MoveList;
using tessera::Position;

// libFuzzer records the input of any crash; abort() makes a broken invariant one.
void require(bool condition) {
  if (!condition) std::abort();
}

[[nodiscard]] bool keys_consistent(const Position& pos) {
  return pos.key() == pos.compute_key() && pos.pawn_key() == pos.compute_pawn_key() &&
         pos.material_key() == pos.compute_material_key();
}

void check_round_trip(const Position& pos) {
  std::string error;
  const std::string fen = pos.fen();
  const auto again = Position::from_fen(fen, pos.chess960(), error);
  require(again.has_value());
  require(again->fen() == fen);
  require(again->key() == pos.key());
  require(again->pawn_key() == pos.pawn_key());
  require(again->material_key() == pos.material_key());
}

void check_moves(Position& pos) {
  const std::string fen = pos.fen();
  const tessera::Key key = pos.key();
  for (const Move m : MoveList<>(pos)) {
    require(pos.is_legal_move(m));
    const bool check = pos.gives_check(m);
    pos.make_move(m);
    require(keys_consistent(pos));
    require(pos.in_check() == check);
    pos.unmake_move(m);
    require(pos.key() == key);
  }
  require(pos.fen() == fen);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool chess960 = (data[0] & 1) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string error;
  auto pos = Position::from_fen(text, chess960, error);
  if (!pos) {
    require(!error.empty());  // a refusal always says why
    return 0;
  }
  require(keys_consistent(*pos));
  check_round_trip(*pos);
  check_moves(*pos);
  (void)pos->is_draw(0);
  (void)pos->pretty();
  return 0;
}
