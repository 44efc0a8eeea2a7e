// The correction histories: an evaluation error learnt for one pawn structure, material balance,
// previous move or placement of one colour's pieces corrects later evaluations that share it,
// and only those; the side to move
// keeps its own tables; the correction never leaves the bounds of an evaluation; a missing
// previous move neither reads nor writes the continuation table.
#include <gtest/gtest.h>

#include <memory>

#include "search/history.h"

namespace tessera::search {
namespace {

class CorrectionHistoryTest : public ::testing::Test {
 protected:
  void SetUp() override { h->clear(); }

  // Repeats one observation until the running average has settled on it.
  void learn(Color us, const CorrectionKeys& k, int error) {
    for (int i = 0; i < 200; ++i) update_correction(*h, us, k, error, 15);
  }

  std::unique_ptr<Histories> h = std::make_unique<Histories>();
};

TEST_F(CorrectionHistoryTest, EmptyTablesLeaveTheEvaluationAlone) {
  const CorrectionKeys k{0x1234, 0x5678, 100};
  EXPECT_EQ(corrected_eval(*h, WHITE, k, 37), 37);
  EXPECT_EQ(corrected_eval(*h, BLACK, k, -250), -250);
}

TEST_F(CorrectionHistoryTest, AllTablesTogetherCorrectTowardsTheError) {
  const CorrectionKeys k{0x1111, 0x2222, 7 * 64 + 12, {0x3333, 0x4444}};
  learn(WHITE, k, 60);
  const int corrected = corrected_eval(*h, WHITE, k, 0);
  // Their weighted sum corrects by more than half of the error and never by more than twice
  // it (see the next test for how close it settles).
  EXPECT_GT(corrected, 30);
  EXPECT_LE(corrected, 120);
  // Negative errors correct downwards as much.
  h->clear();
  learn(WHITE, k, -60);
  EXPECT_EQ(corrected_eval(*h, WHITE, k, 0), -corrected);
}

// The tables learn the residual, not each the whole error: together they settle on the error
// instead of overshooting it by their summed weights (6/4 of it when each chased it alone).
TEST_F(CorrectionHistoryTest, TheTablesTogetherSettleOnTheErrorNotBeyondIt) {
  for (const int previous_move : {7 * 64 + 12, -1}) {
    h->clear();
    const CorrectionKeys k{0x1111, 0x2222, previous_move, {0x3333, 0x4444}};
    learn(WHITE, k, 60);
    EXPECT_GE(corrected_eval(*h, WHITE, k, 0), 56) << previous_move;
    EXPECT_LE(corrected_eval(*h, WHITE, k, 0), 60) << previous_move;
  }
}

TEST_F(CorrectionHistoryTest, EachTableAloneCorrectsPositionsThatShareItsKey) {
  const CorrectionKeys learnt{0x1111, 0x2222, 3 * 64 + 40, {0x3333, 0x4444}};
  learn(WHITE, learnt, 100);
  const CorrectionKeys same_pawns{0x1111, 0x9999, -1, {0x5555, 0x6666}};
  const CorrectionKeys same_material{0x7777, 0x2222, -1, {0x5555, 0x6666}};
  const CorrectionKeys same_previous_move{0x7777, 0x9999, 3 * 64 + 40, {0x5555, 0x6666}};
  const CorrectionKeys same_white_pieces{0x7777, 0x9999, -1, {0x3333, 0x6666}};
  const CorrectionKeys same_black_pieces{0x7777, 0x9999, -1, {0x5555, 0x4444}};
  const CorrectionKeys nothing_shared{0x7777, 0x9999, 5 * 64 + 1, {0x5555, 0x6666}};
  EXPECT_GT(corrected_eval(*h, WHITE, same_pawns, 0), 0);
  EXPECT_GT(corrected_eval(*h, WHITE, same_material, 0), 0);
  EXPECT_GT(corrected_eval(*h, WHITE, same_previous_move, 0), 0);
  EXPECT_GT(corrected_eval(*h, WHITE, same_white_pieces, 0), 0);
  EXPECT_GT(corrected_eval(*h, WHITE, same_black_pieces, 0), 0);
  EXPECT_EQ(corrected_eval(*h, WHITE, nothing_shared, 0), 0);
  // The pawn structure weighs most.
  EXPECT_GT(corrected_eval(*h, WHITE, same_pawns, 0), corrected_eval(*h, WHITE, same_material, 0));
  EXPECT_GT(corrected_eval(*h, WHITE, same_pawns, 0),
            corrected_eval(*h, WHITE, same_white_pieces, 0));
}

// The two colours' piece tables are separate: white's pieces standing where black's stood in
// another position (the same key value in the other slot) share nothing.
TEST_F(CorrectionHistoryTest, EachColoursPiecesHaveTheirOwnTable) {
  learn(WHITE, CorrectionKeys{0x1111, 0x2222, -1, {0x3333, 0x4444}}, 100);
  EXPECT_EQ(corrected_eval(*h, WHITE, CorrectionKeys{0x7777, 0x9999, -1, {0x4444, 0x3333}}, 0), 0);
}

TEST_F(CorrectionHistoryTest, SidesKeepTheirOwnTables) {
  const CorrectionKeys k{0x1111, 0x2222, 64};
  learn(BLACK, k, -80);
  EXPECT_LT(corrected_eval(*h, BLACK, k, 0), 0);
  EXPECT_EQ(corrected_eval(*h, WHITE, k, 0), 0);
}

TEST_F(CorrectionHistoryTest, NoPreviousMoveLeavesTheContinuationTableUntouched) {
  learn(WHITE, CorrectionKeys{0x1111, 0x2222, -1, {0x3333, 0x4444}}, 90);
  for (const auto& side : h->continuation_correction)
    for (const std::int16_t c : side) ASSERT_EQ(c, 0);
}

TEST_F(CorrectionHistoryTest, ErrorsAreClampedAndScoresStayInRange) {
  const CorrectionKeys k{0x1111, 0x2222, 64};
  learn(WHITE, k, 100000);
  const int from_huge = corrected_eval(*h, WHITE, k, 0);
  h->clear();
  learn(WHITE, k, 256);
  EXPECT_EQ(from_huge, corrected_eval(*h, WHITE, k, 0));
  EXPECT_EQ(corrected_eval(*h, WHITE, k, 19990), 20000);
}

TEST_F(CorrectionHistoryTest, DeeperSearchesTeachFaster) {
  const CorrectionKeys k{0x1111, 0x2222, 64};
  update_correction(*h, WHITE, k, 200, 1);
  const int shallow = corrected_eval(*h, WHITE, k, 0);
  h->clear();
  update_correction(*h, WHITE, k, 200, 12);
  EXPECT_GT(corrected_eval(*h, WHITE, k, 0), shallow);
}

// The weight of a result keeps growing past depth 15, where it used to stop.
TEST_F(CorrectionHistoryTest, DeeperSearchesTeachFasterBeyondDepthFifteen) {
  const CorrectionKeys k{0x1111, 0x2222, 64};
  update_correction(*h, WHITE, k, 200, 15);
  const int at_fifteen = corrected_eval(*h, WHITE, k, 0);
  h->clear();
  update_correction(*h, WHITE, k, 200, 30);
  EXPECT_GT(corrected_eval(*h, WHITE, k, 0), at_fifteen);
}

}  // namespace
}  // namespace tessera::search
