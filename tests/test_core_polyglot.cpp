// Polyglot book keys: polyglot_key() must reproduce the reference keys published with the
// format (start position and the documented move sequences, which cover castling-rights loss,
// a hashed en-passant file and a king move).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/polyglot_key.h"
#include "core/position.h"
#include "test_core_support.h"

namespace tessera {
namespace {

struct Reference {
  const char* moves;
  std::uint64_t key;
};

// From the Polyglot format documentation (see /work/shared/data/README.md).
constexpr Reference kReferences[] = {
    {"", 0x463b96181691fc9cULL},
    {"e2e4", 0x823c9b50fd114196ULL},
    {"e2e4 d7d5", 0x0756b94461c50fb0ULL},
    {"e2e4 d7d5 e4e5", 0x662fafb965db29d4ULL},
    {"e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78ULL},
    {"e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1ULL},
    {"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9ULL},
    {"a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637ULL},
    {"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560ULL},
};

void PrintTo(const Reference& r, std::ostream* os) { *os << "moves '" << r.moves << "'"; }

class PolyglotReference : public ::testing::TestWithParam<Reference> {};

TEST_P(PolyglotReference, KeyMatchesThePublishedValue) {
  const Reference& ref = GetParam();
  Position pos = Position::startpos();
  test::play(pos, ref.moves);
  EXPECT_EQ(polyglot_key(pos), ref.key) << std::hex << "after '" << ref.moves << "': got 0x"
                                        << polyglot_key(pos) << ", want 0x" << ref.key;
  // The same position from its FEN gives the same key (the key depends on the position only).
  EXPECT_EQ(polyglot_key(test::parse(pos.fen())), ref.key) << pos.fen();
}

INSTANTIATE_TEST_SUITE_P(Core, PolyglotReference, ::testing::ValuesIn(kReferences));

TEST(CorePolyglot, KeyIsIndependentOfTheEngineKeyButTracksPositions) {
  // Transpositions share a Polyglot key; different positions (here: side to move) do not.
  Position a = Position::startpos();
  Position b = Position::startpos();
  test::play(a, "g1f3 g8f6 b1c3");
  test::play(b, "b1c3 g8f6 g1f3");
  EXPECT_EQ(polyglot_key(a), polyglot_key(b));
  EXPECT_NE(polyglot_key(Position::startpos()),
            polyglot_key(test::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")));
}

}  // namespace
}  // namespace tessera
