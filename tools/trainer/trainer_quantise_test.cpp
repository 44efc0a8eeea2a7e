// The quantised network must score like the float one and as the engine does, clipping must not
// saturate, and the network must not care which colour is which.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/packed_position.h"
#include "dataset.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/network.h"
#include "eval/nnue/network_file.h"
#include "network.h"
#include "quantise.h"
#include "temp_dir.h"
#include "trainer.h"
#include "trainer_test_support.h"

namespace tessera::trainer {
namespace {

using namespace test_support;

// The integer forward pass of the contract, written out plainly: accumulators from the
// position's pieces in each side's king view, SCReLU in integers, the division order of the
// engine.
int integer_score(const QuantisedNetwork& q, const Position& pos) {
  const auto h = std::size_t(q.hidden);
  const Color stm = pos.side_to_move();
  const auto bucket =
      std::size_t(q.buckets == 1 ? 0 : eval::nnue::output_bucket(popcount(pos.pieces())));
  std::int64_t sum = 0;
  for (const Color view : {stm, ~stm}) {
    std::vector<std::int32_t> acc(q.ft_bias.begin(), q.ft_bias.end());
    const eval::nnue::KingView kv =
        eval::nnue::king_view(q.king_buckets, view, pos.king_square(view));
    for (int sq = 0; sq < 64; ++sq) {
      const Piece pc = pos.piece_on(Square(sq));
      if (pc.is_none()) continue;
      const auto f = std::size_t(feature_index(view, kv, pc, Square(sq)));
      for (std::size_t i = 0; i < h; ++i) acc[i] += q.ft_weights[f * h + i];
    }
    for (std::size_t i = 0; i < h; ++i) {
      EXPECT_LE(std::abs(acc[i]), 32767);  // the engine's int16 accumulator does not wrap
      const std::int64_t c = std::clamp(acc[i], 0, kQA);
      sum += c * c * q.out_weights[bucket * 2 * h + (view == stm ? 0 : h) + i];
    }
  }
  const std::int64_t value = sum / kQA + q.out_bias[bucket];
  return int(value * q.scale / (kQA * kQB));
}

void check_quantised_scores(int buckets,
                            const eval::nnue::KingBuckets& layout = eval::nnue::kSingleKingBucket,
                            bool factoriser = false, int hidden = 128) {
  const std::vector<Sample> train = material_samples(60, 100, 21);
  TrainOptions o = small_options(hidden, 2);
  o.buckets = buckets;
  o.king_buckets = layout;
  o.factoriser = factoriser;
  o.epochs = 2;
  o.tune_epochs = 1;
  Trainer trainer(o, train);
  while (trainer.epochs_done() < trainer.total_epochs()) (void)trainer.run_epoch();
  const QuantisedNetwork q = quantise(trainer.network(), 400);

  const std::vector<Position> positions = random_positions(40, 100, 99);
  ASSERT_GT(positions.size(), 3000u);
  Scratch scratch(hidden);
  double total = 0, signed_total = 0, worst = 0;
  for (const Position& pos : positions) {
    const Sample s = sample_from_position(pos);
    const double cp = double(evaluate(trainer.network(), s, scratch)) * 400.0;
    const int integer = integer_score(q, pos);
    ASSERT_EQ(quantised_eval(q, s), integer) << pos.fen();
    total += std::abs(cp - integer);
    signed_total += integer - cp;
    worst = std::max(worst, std::abs(cp - integer));
  }
  const double n = double(positions.size());
  // The engine reads back what was written, and its inference scores as the trainer's does.
  test::TempDir dir;
  std::string error;
  ASSERT_TRUE(write_network(q, dir.file("net.tnn"), error)) << error;
  const auto read = eval::nnue::read_network_file(dir.file("net.tnn"), error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(*read, q);
  EXPECT_EQ(read->king_buckets, layout);
  EXPECT_EQ(read->ft_weights.size(), std::size_t(layout.count) * kInputs * std::size_t(hidden));
  const auto engine_net = eval::nnue::Network::from_parameters(*read, error);
  ASSERT_TRUE(engine_net) << error;
  EXPECT_EQ(engine_net->hidden(), hidden);
  for (const Position& pos : positions) {
    eval::nnue::Accumulator acc;
    eval::nnue::refresh(*engine_net, pos, acc);
    ASSERT_EQ(eval::nnue::evaluate(*engine_net, acc, pos.side_to_move()), integer_score(q, pos))
        << pos.fen();
  }
  EXPECT_LT(total / n, 2.0);
  EXPECT_LT(std::abs(signed_total / n), 1.0);  // truncation toward zero: no large offset
  EXPECT_LT(worst, 8.0);
}

TEST(TrainerQuantise, IntegerScoresAreWithinAFewCentipawnsOfTheFloatNet) {
  check_quantised_scores(1);
}
TEST(TrainerQuantise, IntegerScoresMatchWithOutputBuckets) {
  check_quantised_scores(eval::nnue::kOutputBuckets);
}
TEST(TrainerQuantise, IntegerScoresMatchWithFactorisedKingBuckets) {
  check_quantised_scores(eval::nnue::kOutputBuckets, eval::nnue::kDefaultKingBuckets, true);
}
// A wider network than the default: the engine evaluates it with its kernels of that width.
TEST(TrainerQuantise, IntegerScoresMatchAtWidth256) {
  check_quantised_scores(eval::nnue::kOutputBuckets, eval::nnue::kDefaultKingBuckets, true, 256);
}

// A bucketed, factorised network after a few steps on a few hundred positions: the file is
// version 2 with the engine's layout and no factoriser, and the engine's evaluation (its own
// parser, network and accumulator) scores as the trainer's float network within rounding.
void check_engine_evaluates_as_the_trainer(int hidden) {
  const std::vector<Sample> train = material_samples(6, 60, 12);
  ASSERT_GT(train.size(), 300u);
  TrainOptions o = small_options(hidden, 2);
  o.king_buckets = eval::nnue::kDefaultKingBuckets;
  o.factoriser = true;
  o.batch = 64;
  o.epochs = 1;
  o.tune_epochs = 1;  // the output weights rounded, as a real run ends
  o.lr = 0.05f;
  o.tune_lr = 0.01f;
  Trainer trainer(o, train);
  (void)trainer.run_epoch();
  (void)trainer.run_epoch();
  const Network& net = trainer.network();
  // The buckets have moved apart: a position would score differently in another bucket.
  {
    const Network folded = fold(net);
    float spread = 0;
    const std::size_t block = std::size_t(kInputs) * std::size_t(hidden);
    for (std::size_t i = 0; i < block; ++i)
      spread = std::max(spread, std::abs(folded.params[i] - folded.params[3 * block + i]));
    EXPECT_GT(spread, 0.05f);
  }
  test::TempDir dir;
  std::string error;
  ASSERT_TRUE(write_network(quantise(net, int(o.scale)), dir.file("net.tnn"), error)) << error;
  const std::vector<std::uint8_t> bytes = test::read_bytes(dir.file("net.tnn"));
  ASSERT_GT(bytes.size(), 12u);
  EXPECT_EQ(bytes[8], eval::nnue::kKingBucketsFormatVersion);
  const auto params = eval::nnue::parse(bytes, error);
  ASSERT_TRUE(params) << error;
  EXPECT_EQ(params->king_buckets, eval::nnue::kDefaultKingBuckets);
  EXPECT_EQ(params->ft_weights.size(), std::size_t(4) * kInputs * std::size_t(hidden));
  const auto engine_net = eval::nnue::Network::from_bytes(bytes, error);
  ASSERT_TRUE(engine_net) << error;
  EXPECT_EQ(engine_net->hidden(), hidden);
  Scratch scratch(hidden);
  std::vector<Position> positions = random_positions(4, 40, 17);
  for (const char* fen : {"3K4/8/8/8/8/8/8/3k3r b - - 0 1", "8/8/8/8/8/8/5K2/2k4r w - - 0 1",
                          "8/8/8/2k5/8/8/1K5P/7q w - - 0 1", "8/5k2/8/8/3K4/8/8/R7 b - - 0 1"}) {
    positions.push_back(*Position::from_fen(fen, false, error));
  }
  for (const Position& pos : positions) {
    eval::nnue::Accumulator acc;
    eval::nnue::refresh(*engine_net, pos, acc);
    const int engine = eval::nnue::evaluate(*engine_net, acc, pos.side_to_move());
    const double trainer_cp = double(evaluate(net, sample_from_position(pos), scratch)) * o.scale;
    // Rounding: a few centipawns, and a little more on the large scores of so short a run.
    EXPECT_NEAR(engine, trainer_cp, 8.0 + 0.002 * std::abs(trainer_cp)) << pos.fen();
  }
  EXPECT_GT(positions.size(), 150u);
}

TEST(TrainerQuantise, EngineEvaluatesABucketedNetworkAsTheTrainer) {
  check_engine_evaluates_as_the_trainer(eval::nnue::kHidden);
}
TEST(TrainerQuantise, EngineEvaluatesABucketedNetworkOfWidth256AsTheTrainer) {
  check_engine_evaluates_as_the_trainer(256);
}

TEST(TrainerQuantise, TuningEpochsFreezeQuantisedOutputWeights) {
  const std::vector<Sample> train = material_samples(10, 60, 3);
  TrainOptions o = small_options(16, 2);
  o.epochs = 1;
  o.tune_epochs = 2;
  Trainer trainer(o, train);
  (void)trainer.run_epoch();
  const Network& net = trainer.network();
  const auto output = [&] {
    return std::vector<float>(net.params.begin() + std::ptrdiff_t(net.weight2_offset()),
                              net.params.begin() + std::ptrdiff_t(net.bias2_offset()));
  };
  const std::vector<float> first_layer_before(
      net.params.begin(), net.params.begin() + std::ptrdiff_t(net.weight2_offset()));
  (void)trainer.run_epoch();
  EXPECT_FLOAT_EQ(trainer.last_learning_rate(), o.tune_lr);
  const std::vector<float> tuned = output();
  for (const float w : tuned) EXPECT_EQ(w * float(kQB), std::round(w * float(kQB)));
  (void)trainer.run_epoch();
  EXPECT_EQ(output(), tuned);
  EXPECT_NE(std::vector<float>(net.params.begin(),
                               net.params.begin() + std::ptrdiff_t(net.weight2_offset())),
            first_layer_before);
}

// Fine-tuning starts from a network file: dequantising must give back a float network that
// quantises to the same integers, and whose float output is the integer one.
TEST(TrainerQuantise, DequantisedNetworkQuantisesToTheSameFile) {
  const std::vector<Sample> train = material_samples(10, 60, 5);
  TrainOptions o = small_options(128, 2);
  o.buckets = eval::nnue::kOutputBuckets;
  o.epochs = 1;
  o.tune_epochs = 1;
  Trainer trainer(o, train);
  (void)trainer.run_epoch();
  (void)trainer.run_epoch();
  const QuantisedNetwork q = quantise(trainer.network(), int(o.scale));
  const Network back = dequantise(q);
  EXPECT_EQ(back.hidden, 128);
  EXPECT_EQ(back.buckets, eval::nnue::kOutputBuckets);
  EXPECT_EQ(quantise(back, int(o.scale)), q);
  Scratch scratch(back.hidden);
  for (std::size_t i = 0; i < train.size(); i += 7)
    EXPECT_NEAR(evaluate(back, train[i], scratch) * o.scale, quantised_eval(q, train[i]), 2.0)
        << "sample " << i;
}

// A bucket row and its factoriser row may each be large, but not their sum: that is what the
// file holds.
TEST(TrainerQuantise, ClippedFactorisedWeightsDoNotSaturate) {
  Network net(8, 1, eval::nnue::kDefaultKingBuckets, true);
  for (std::size_t i = 0; i < net.params.size(); ++i) net.params[i] = i % 3 ? 100.0f : -100.0f;
  clip(net);
  const QuantisedNetwork q = quantise(net, 400);
  const auto limit = std::int16_t(std::lround(kMaxWeight1 * kQA));
  for (const std::int16_t w : q.ft_weights) EXPECT_LE(std::abs(w), limit);
  EXPECT_EQ(*std::max_element(q.ft_weights.begin(), q.ft_weights.end()), limit);
}

TEST(TrainerQuantise, ClippedWeightsDoNotSaturate) {
  Network net(8);
  for (float& p : net.params) p = 100.0f;
  clip(net);
  const QuantisedNetwork q = quantise(net, 400);
  EXPECT_EQ(q.ft_weights[0], std::int16_t(std::lround(kMaxWeight1 * kQA)));
  EXPECT_EQ(q.out_weights[0], 127);
  EXPECT_LT(kMaxWeight1 * kQA * (kMaxFeatures + 1), 32767.0f);
}

TEST(TrainerNetwork, ColourFlipScoresTheSame) {
  const std::vector<Sample> train = material_samples(30, 80, 21);
  Trainer trainer(small_options(32, 2), train);
  (void)trainer.run_epoch();
  Scratch scratch(32);
  int checked = 0;
  for (const Position& pos : random_positions(10, 80, 5)) {
    const PackedPosition packed = encode(pos);
    const Sample a = sample_from_packed(packed);
    const Sample b = sample_from_packed(flip_colors(packed));
    ASSERT_NE(a.side_to_move, b.side_to_move);
    const float x = evaluate(trainer.network(), a, scratch);
    const float y = evaluate(trainer.network(), b, scratch);
    EXPECT_NEAR(x, y, 1e-5f) << pos.fen();
    ++checked;
  }
  EXPECT_GT(checked, 500);
}

}  // namespace
}  // namespace tessera::trainer
