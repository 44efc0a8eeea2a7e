// The trainer's features must be the contract's (king buckets included) and its gradient the
// loss's derivative (a factoriser's included).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/packed_position.h"
#include "datagen/record_file.h"
#include "dataset.h"
#include "eval/nnue/network.h"
#include "network.h"
#include "trainer.h"
#include "trainer_test_support.h"

namespace tessera::trainer {
namespace {

using namespace test_support;

// The loss of a network, in double precision, straight from the formulas of network.h, with
// each perspective's features taken from the position (its king's view, the engine's
// feature_index()) rather than from the sample.
struct Reference {
  int hidden;
  int buckets;
  std::vector<double> p;
  eval::nnue::KingBuckets layout = eval::nnue::kSingleKingBucket;
  bool factoriser = false;

  double output(const Position& pos) const {
    const auto h = std::size_t(hidden);
    const auto rows = std::size_t(layout.count) * kInputs;
    const Color stm = pos.side_to_move();
    const auto bucket =
        std::size_t(buckets == 1 ? 0 : eval::nnue::output_bucket(popcount(pos.pieces())));
    const std::size_t outputs = (rows + 1) * h + bucket * 2 * h;
    const std::size_t shared = (rows + 1) * h + std::size_t(buckets) * (2 * h + 1);
    double out = p[(rows + 1) * h + std::size_t(buckets) * 2 * h + bucket];
    for (const Color view : {stm, ~stm}) {
      const eval::nnue::KingView kv = eval::nnue::king_view(layout, view, pos.king_square(view));
      std::vector<double> acc(p.begin() + std::ptrdiff_t(rows * h),
                              p.begin() + std::ptrdiff_t((rows + 1) * h));
      for (int sq = 0; sq < 64; ++sq) {
        const Piece pc = pos.piece_on(Square(sq));
        if (pc.is_none()) continue;
        const auto f = std::size_t(feature_index(view, kv, pc, Square(sq)));
        // The factoriser's row: the same feature in bucket 0's numbering.
        const auto g = std::size_t(feature_index(view, {0, kv.mirrored}, pc, Square(sq)));
        for (std::size_t i = 0; i < h; ++i)
          acc[i] += p[f * h + i] + (factoriser ? p[shared + g * h + i] : 0.0);
      }
      const std::size_t w = outputs + (view == stm ? 0 : h);
      for (std::size_t i = 0; i < h; ++i) {
        const double c = std::clamp(acc[i], 0.0, 1.0);
        out += c * c * p[w + i];
      }
    }
    return out;
  }
  double loss(const std::vector<Position>& positions, const std::vector<double>& targets) const {
    double sum = 0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const double e = 1.0 / (1.0 + std::exp(-output(positions[i]))) - targets[i];
      sum += e * e;
    }
    return sum / double(positions.size());
  }
};

TEST(TrainerFeatures, BytesGiveThePositionsFeatures) {
  for (const Position& pos : random_positions(20, 80, 7)) {
    const Sample a = sample_from_packed(encode(pos));
    const Sample b = sample_from_position(pos);
    ASSERT_EQ(a.count, b.count) << pos.fen();
    ASSERT_EQ(a.side_to_move, b.side_to_move) << pos.fen();
    ASSERT_EQ(a.features, b.features) << pos.fen();
  }
}

TEST(TrainerFeatures, BlackFeatureIsTheContractsIndex) {
  for (int pc = 0; pc < kPieceCount; ++pc)
    for (int sq = 0; sq < 64; ++sq) {
      const Piece piece = Piece::from_index(pc);
      EXPECT_EQ(black_feature(feature_index(WHITE, piece, Square(sq))),
                feature_index(BLACK, piece, Square(sq)));
    }
  // The contract's examples: the white king on e1 and a black pawn on e7, from both sides.
  EXPECT_EQ(feature_index(WHITE, Piece(WHITE, KING), Square(4)), 5 * 64 + 4);
  EXPECT_EQ(feature_index(BLACK, Piece(WHITE, KING), Square(4)), 384 + 5 * 64 + 60);
  EXPECT_EQ(feature_index(BLACK, Piece(BLACK, PAWN), Square(52)), 12);
}

// Each perspective's rows are the engine's feature_index() in its king's view, from the kings
// that the sample recorded; with one bucket they are the one-bucket features of before.
TEST(TrainerFeatures, ActiveFeaturesAreTheEnginesIndices) {
  int bucketed = 0, mirrored_views = 0;
  for (const Position& pos : random_positions(20, 120, 9)) {
    const Sample s = sample_from_packed(encode(pos));
    for (const Color c : {WHITE, BLACK}) {
      ASSERT_EQ(Square(s.kings[c]), pos.king_square(c)) << pos.fen();
      std::array<std::uint16_t, kMaxFeatures> single{}, rows{};
      active_features(s, eval::nnue::kSingleKingBucket, c, single.data());
      for (int k = 0; k < s.count; ++k) {
        const int f = s.features[std::size_t(k)];
        ASSERT_EQ(single[std::size_t(k)], c == WHITE ? f : black_feature(f));
      }
      active_features(s, eval::nnue::kDefaultKingBuckets, c, rows.data());
      const eval::nnue::KingView view =
          eval::nnue::king_view(eval::nnue::kDefaultKingBuckets, c, pos.king_square(c));
      std::vector<int> expected, got(rows.begin(), rows.begin() + s.count);
      for (int sq = 0; sq < 64; ++sq)
        if (!pos.piece_on(Square(sq)).is_none())
          expected.push_back(feature_index(c, view, pos.piece_on(Square(sq)), Square(sq)));
      std::sort(expected.begin(), expected.end());
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, expected) << pos.fen();
      bucketed += view.bucket > 0;
      mirrored_views += view.mirrored;
    }
  }
  EXPECT_GT(bucketed, 100);
  EXPECT_GT(mirrored_views, 100);
}

TEST(TrainerFeatures, MirrorIsTheReflectedPosition) {
  int mirrorable = 0;
  for (const Position& pos : random_positions(20, 120, 8)) {
    const PackedPosition packed = encode(pos);
    const Sample s = sample_from_packed(packed);
    ASSERT_EQ((s.flags & Sample::kNoCastling) != 0, !has_castling_rooks(packed)) << pos.fen();
    if (has_castling_rooks(packed)) continue;
    ++mirrorable;
    Sample a = mirrored(s), b = sample_from_packed(mirror_files(packed));
    std::sort(a.features.begin(), a.features.begin() + a.count);
    std::sort(b.features.begin(), b.features.begin() + b.count);
    ASSERT_EQ(a.features, b.features) << pos.fen();
    ASSERT_EQ(a.side_to_move, b.side_to_move);
    ASSERT_EQ(a.kings, b.kings) << pos.fen();
    // With mirrored king buckets the reflection activates the very same rows: --mirror would
    // train the same gradient twice, so the trainer ignores it there.
    for (const Color c : {WHITE, BLACK}) {
      std::array<std::uint16_t, kMaxFeatures> original{}, reflected{};
      active_features(s, eval::nnue::kDefaultKingBuckets, c, original.data());
      active_features(mirrored(s), eval::nnue::kDefaultKingBuckets, c, reflected.data());
      ASSERT_EQ(original, reflected) << pos.fen();
    }
  }
  EXPECT_GT(mirrorable, 100);
}

TEST(TrainerFeatures, RecordIsTurnedToTheSideToMove) {
  std::string error;
  const Position pos = *Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", false, error);
  datagen::TrainingRecord r;
  r.position = encode(pos);
  r.score_white = 250;
  r.result = datagen::GameResult::WhiteWins;
  const Sample s = sample_from_record(r);
  EXPECT_EQ(s.side_to_move, BLACK);
  EXPECT_EQ(s.score, -250);
  EXPECT_EQ(s.result, 0);
}

// The analytic gradient against central differences of the double-precision reference.
void check_gradient(int hidden, int buckets = 1,
                    const eval::nnue::KingBuckets& layout = eval::nnue::kSingleKingBucket,
                    bool factoriser = false) {
  std::vector<Position> positions = random_positions(2, 12, 3);
  // Fewer pieces, for other output buckets: 3 (bucket 0), 12 (bucket 2) and 22 (bucket 5).
  std::vector<const char*> fens = {"8/8/8/4k3/8/8/3Q4/4K3 b - - 0 1",
                                   "r3k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1",
                                   "rn2k3/pppppppp/8/8/8/8/PPPPPPPP/RN2K3 b - - 0 1"};
  // Kings off their first rank and on files a-d, for every king bucket and mirrored views (3
  // and 4 pieces: output bucket 0).
  if (layout.count > 1)
    fens.insert(fens.end(), {"3K4/8/8/8/8/8/8/3k3r b - - 0 1", "8/8/8/8/8/8/5K2/2k4r w - - 0 1",
                             "8/8/8/2k5/8/8/1K5P/7q w - - 0 1"});
  for (const char* fen : fens) {
    std::string error;
    positions.push_back(*Position::from_fen(fen, false, error));
  }
  std::vector<Sample> samples;
  std::vector<double> targets;
  for (const Position& pos : positions) {
    samples.push_back(sample_from_position(pos));
    targets.push_back(0.2 + 0.6 * double(samples.size() % 3) / 2.0);
  }
  Network net = random_network(hidden, 11, buckets, layout, factoriser);
  // Spread the accumulators over both sides of the clamp's range (a factoriser and its bucket
  // rows each a little less, so that their sum spreads as far).
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<float> wide(-0.3f, 0.3f);
  const float first_scale = factoriser ? 0.7f : 1.0f;
  for (std::size_t i = 0; i < net.weight2_offset(); ++i) net.params[i] = first_scale * wide(rng);
  for (std::size_t i = net.weight2_offset(); i < net.factoriser_offset(); ++i)
    net.params[i] = 3.0f * wide(rng);
  for (std::size_t i = net.factoriser_offset(); i < net.params.size(); ++i)
    net.params[i] = first_scale * wide(rng);

  Gradient grad(net);
  Scratch scratch(hidden);
  for (std::size_t i = 0; i < samples.size(); ++i)
    (void)add_gradient(net, samples[i], float(targets[i]), 1.0f / float(samples.size()), grad,
                       scratch);

  Reference ref{hidden, buckets, std::vector<double>(net.params.begin(), net.params.end()), layout,
                factoriser};
  const auto h = std::size_t(hidden);
  const std::size_t king_e1 = std::size_t(feature_index(WHITE, Piece(WHITE, KING), Square(4)));
  const std::size_t black_queen_d8 =
      std::size_t(feature_index(BLACK, Piece(BLACK, QUEEN), Square(59)));
  // The output layers of the buckets that these positions use (the others' gradient is zero,
  // checked below).
  std::vector<std::size_t> used;
  for (const Sample& s : samples)
    if (std::find(used.begin(), used.end(), std::size_t(net.bucket(s))) == used.end())
      used.push_back(std::size_t(net.bucket(s)));
  // With king buckets: the first two rows that occur in each bucket, and their factoriser rows.
  std::vector<std::size_t> rows = {king_e1, black_queen_d8}, shared;
  for (int b = 1; b < layout.count; ++b) {
    int taken = 0;
    for (const std::uint16_t r : grad.rows)
      if (r / kInputs == b && taken++ < 2) rows.push_back(r);
    EXPECT_EQ(taken >= 2, true) << "king bucket " << b << " occurs in no position";
  }
  if (factoriser)
    for (const std::size_t r : rows) shared.push_back(net.factoriser_offset() + r % kInputs * h);
  std::vector<std::size_t> checked;
  for (std::size_t i = 0; i < h; i += std::max<std::size_t>(1, h / 8)) {
    for (const std::size_t r : rows) checked.push_back(r * h + i);
    for (const std::size_t r : shared) checked.push_back(r + i);
    checked.push_back(net.bias1_offset() + i);
    for (const std::size_t b : used) {
      checked.push_back(net.weight2_offset() + b * 2 * h + i);
      checked.push_back(net.weight2_offset() + b * 2 * h + h + i);
    }
  }
  for (const std::size_t b : used) checked.push_back(net.bias2_offset() + b);
  int nonzero = 0, nonzero_shared = 0;
  for (const std::size_t i : checked) {
    const double step = 2e-6;  // below the accumulators' distance from the clamp's corners
    const double original = ref.p[i];
    ref.p[i] = original + step;
    const double up = ref.loss(positions, targets);
    ref.p[i] = original - step;
    const double down = ref.loss(positions, targets);
    ref.p[i] = original;
    const double numeric = (up - down) / (2 * step);
    EXPECT_NEAR(grad.values[i], numeric, 2e-5 + 2e-3 * std::abs(numeric)) << "parameter " << i;
    nonzero += std::abs(numeric) > 1e-6;
    nonzero_shared += i >= net.factoriser_offset() && std::abs(numeric) > 1e-6;
  }
  EXPECT_GT(nonzero, int(checked.size()) / 2);  // the check is not one of zeros
  if (factoriser) {
    EXPECT_GT(nonzero_shared, int(shared.size()) * 8 / 2);
  }
  // A white queen on a8 occurs in none of these positions: its row has no gradient.
  const auto absent = std::size_t(feature_index(WHITE, Piece(WHITE, QUEEN), Square(56)));
  for (std::size_t i = 0; i < h; ++i) EXPECT_EQ(grad.values[absent * h + i], 0.0f);
  EXPECT_EQ(std::count(grad.rows.begin(), grad.rows.end(), std::uint16_t(absent)), 0);
  if (factoriser) {
    // The trainer's way: the folded network's gradient, then the factoriser's as a sum over the
    // buckets, is the same gradient.
    const Network folded = fold(net);
    Gradient fast(net);
    for (std::size_t i = 0; i < samples.size(); ++i)
      (void)add_gradient(folded, samples[i], float(targets[i]), 1.0f / float(samples.size()), fast,
                         scratch);
    add_factoriser_gradient(net, fast);
    for (std::size_t i = 0; i < grad.values.size(); ++i)
      ASSERT_NEAR(fast.values[i], grad.values[i], 1e-6 + 1e-4 * std::abs(grad.values[i]))
          << "parameter " << i;
  }
  if (buckets == 1) return;
  // Only the buckets of these positions (0, 2, 5, 7) train: bucket 1's output layer has no
  // gradient.
  EXPECT_EQ(used.size(), 4u);
  EXPECT_EQ(std::count(used.begin(), used.end(), 1u), 0);
  EXPECT_EQ(grad.values[net.bias2_offset() + 1], 0.0f);
  for (std::size_t i = 0; i < 2 * h; ++i)
    EXPECT_EQ(grad.values[net.weight2_offset() + 2 * h + i], 0.0f);
}

TEST(TrainerGradient, MatchesFiniteDifferencesTinyNet) { check_gradient(8); }
TEST(TrainerGradient, MatchesFiniteDifferencesFullWidth) { check_gradient(128); }
TEST(TrainerGradient, MatchesFiniteDifferencesWithOutputBuckets) {
  check_gradient(8, eval::nnue::kOutputBuckets);
  check_gradient(128, eval::nnue::kOutputBuckets);
}
TEST(TrainerGradient, MatchesFiniteDifferencesWithKingBuckets) {
  check_gradient(8, 1, eval::nnue::kDefaultKingBuckets);
  check_gradient(8, eval::nnue::kOutputBuckets, eval::nnue::kDefaultKingBuckets);
}
TEST(TrainerGradient, MatchesFiniteDifferencesWithAFactoriser) {
  check_gradient(8, 1, eval::nnue::kDefaultKingBuckets, true);
  check_gradient(128, eval::nnue::kOutputBuckets, eval::nnue::kDefaultKingBuckets, true);
}

}  // namespace
}  // namespace tessera::trainer
