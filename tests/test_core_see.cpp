// Static exchange evaluation on textbook positions. Each position's true exchange value is
// worked out in the comment; see_ge must be true at that threshold and false one above it.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "core/movegen.h"
#include "core/position.h"
#include "test_core_support.h"

namespace tessera {
namespace {

struct SeeCase {
  const char* name;
  const char* fen;
  const char* move;
  int value;  // the exchange's result for the mover, in kSeeValue units
};

// Values: pawn 100, knight 300, bishop 300, rook 500, queen 900.
const SeeCase kSeeCases[] = {
    // exd5 exd5: wins a knight for a pawn.
    {"pawn takes defended knight", "4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 200},
    // The same for black: exd4 exd4.
    {"black pawn takes defended knight", "4k3/8/8/4p3/3N4/4P3/8/4K3 b - - 0 1", "e5d4", 200},
    // Qxd5 exd5: a pawn for the queen.
    {"queen takes defended pawn", "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", -800},
    // Rxd5 Rxd5 Rxd5: the rook behind recaptures through the first one (x-ray), so black does
    // best not to recapture; without the x-ray the value would be -400.
    {"rook battery x-ray", "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},
    // exd5 Nxd5 Bxd5: the bishop behind the pawn joins once the pawn has moved, so black does
    // not recapture and the pawn is simply won; without it the value would be 0.
    {"bishop behind pawn x-ray", "4k3/8/5n2/3p4/4P3/5B2/8/4K3 w - - 0 1", "e4d5", 100},
    // Nxd5 Nxd5 Rxd5 Rxd5 Rxd5: white's second rook joins only once the first has recaptured
    // (an x-ray behind a recapturing piece); without it the value would be -200.
    {"x-ray behind a recapture", "3rk3/8/5n2/3p4/1N6/8/3R4/3RK3 w - - 0 1", "b4d5", 100},
    // Nxd5 exd5: an even trade.
    {"knight trade", "4k3/8/4p3/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5", 0},
    // Rxd5 with nothing to recapture.
    {"undefended knight", "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5", 300},
    // Rxd5 Rxd5: the defending rook has a queen behind it; white loses the exchange of rook for
    // pawn (-400) and cannot continue.
    {"defender battery", "3qk3/3r4/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", -400},
    // Quiet move onto a square a pawn attacks: the queen is lost.
    {"queen to attacked square", "4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1", "d1d4", -900},
    // Quiet move to a safe square.
    {"quiet safe move", "4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1", "d1d2", 0},
    // Bxf7+ Kxf7: the king recaptures a bishop that took a pawn.
    {"king recaptures", "4k3/5p2/8/8/2B5/8/8/4K3 w - - 0 1", "c4f7", -200},
    // Bxf7: the king cannot recapture a defended bishop (the rook guards f7).
    {"king cannot recapture defended piece", "4k3/5p2/8/8/2B5/8/8/4KR2 w - - 0 1", "c4f7", 100},
    // Rxe5 dxe5 Qxe5: the queen behind the rook recaptures, so white gets two pawns for the
    // rook (-300) rather than one (-400).
    {"queen behind rook", "4k3/8/3p4/4p3/8/8/4R3/4QK2 w - - 0 1", "e2e5", -300},
};

void PrintTo(const SeeCase& c, std::ostream* os) { *os << c.name << " (" << c.fen << ")"; }

class SeeTest : public ::testing::TestWithParam<SeeCase> {};

TEST_P(SeeTest, ThresholdsAroundTheTrueValue) {
  const SeeCase& c = GetParam();
  const Position pos = test::parse(c.fen);
  const Move m = test::uci(pos, c.move);
  EXPECT_TRUE(pos.see_ge(m, c.value)) << c.fen << " " << c.move << " >= " << c.value;
  EXPECT_FALSE(pos.see_ge(m, c.value + 1)) << c.fen << " " << c.move << " >= " << c.value + 1;
  // Far-away thresholds on both sides.
  EXPECT_TRUE(pos.see_ge(m, c.value - 1000));
  EXPECT_FALSE(pos.see_ge(m, c.value + 1000));
}

INSTANTIATE_TEST_SUITE_P(Core, SeeTest, ::testing::ValuesIn(kSeeCases),
                         [](const ::testing::TestParamInfo<SeeCase>& param_info) {
                           std::string name = param_info.param.name;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(CoreSee, MonotoneInTheThreshold) {
  // For every move of a few busy positions, see_ge(m, t) true implies see_ge(m, t - 1) true:
  // the answers describe a single value.
  for (const char* fen :
       {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"}) {
    const Position pos = test::parse(fen);
    for (const Move m : MoveList<GenType::All>(pos)) {
      bool previous = true;
      for (int t = -2000; t <= 2000; t += 50) {
        const bool now = pos.see_ge(m, t);
        EXPECT_FALSE(now && !previous) << fen << " " << pos.move_to_uci(m) << " at " << t;
        previous = now;
      }
    }
  }
}

}  // namespace
}  // namespace tessera
