// libFuzzer target: the 24-byte packed position decoder.
//
// The input, cut or zero-padded to 24 bytes, is decoded. A refusal must say why; an accepted
// record must re-encode to the same bytes (the codec is a bijection), its colour flip must be an
// involution that decodes to a position with as many legal moves, the canonical form must be
// idempotent, and every legal move of the decoded position must make and unmake cleanly.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/movegen.h"
#include "core/packed_position.h"
#include "core/position.h"

namespace {

using tessera::PackedPosition;

void require(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  PackedPosition record;
  std::copy_n(data, std::min(size, PackedPosition::kSize), record.bytes.begin());
  std::string error;
  auto pos = tessera::decode(record, error);
  const PackedPosition flipped = tessera::flip_colors(record);
  const PackedPosition canon = tessera::canonical(record);
  require(tessera::canonical(canon) == canon);
  if (!pos) {
    require(!error.empty());
    return 0;
  }
  require(tessera::encode(*pos) == record);
  require(tessera::flip_colors(flipped) == record);
  const auto flipped_pos = tessera::decode(flipped, error);
  require(flipped_pos.has_value());
  require(tessera::count_legal_moves(*flipped_pos) == tessera::count_legal_moves(*pos));
  require(pos->key() == pos->compute_key());
  const tessera::Key key = pos->key();
  for (const tessera::Move m : tessera::MoveList<>(*pos)) {
    pos->make_move(m);
    require(pos->key() == pos->compute_key());
    require(tessera::decode(tessera::encode(*pos), error).has_value());
    pos->unmake_move(m);
  }
  require(pos->key() == key);
  return 0;
}
