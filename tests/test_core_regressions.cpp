// Positions that once exposed a bug in the rules core, kept so the bug stays fixed.
#include <gtest/gtest.h>

#include <string>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/position.h"

namespace tessera {
namespace {

// The black king on e5 is checked by the bishop on f6, and the white queen on h8 stands behind
// both on the same diagonal. The pawn on g7 is not pinned (the bishop shields it), so g7xf6
// is legal. A blocker computation that ignored enemy sliders called it pinned, and the
// generator skips pinned pieces in check: fischer.epd line 596 was 2 nodes short at depth 6.
TEST(CoreRegressions, CheckingSliderInFrontOfAnotherDoesNotPinThePieceBehind) {
  std::string error;
  const auto pos = Position::from_fen(
      "rbbqn1rQ/pppp1pp1/5B2/4k3/2PpP3/8/PP3PPP/RB2NKRN b GA - 3 11", true, error);
  ASSERT_TRUE(pos) << error;
  const MoveList<GenType::All> moves(*pos);
  EXPECT_EQ(moves.size(), 7u);
  EXPECT_TRUE(moves.contains(pos->parse_uci_move("g7f6")));
  EXPECT_EQ(count_legal_moves(*pos), 7u);
}

}  // namespace
}  // namespace tessera
