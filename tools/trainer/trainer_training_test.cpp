// Training must lower the loss, be reproducible from its seed, resume where it stopped, start
// from a given network (one bucket seeding king buckets and a narrower network seeding a wider
// one included), and refuse checkpoints of other runs.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "dataset.h"
#include "eval/nnue/network.h"
#include "network.h"
#include "quantise.h"
#include "temp_dir.h"
#include "trainer.h"
#include "trainer_test_support.h"

namespace tessera::trainer {
namespace {

using namespace test_support;

void check_loss_falls(const eval::nnue::KingBuckets& layout, bool factoriser) {
  const std::vector<Sample> samples = material_samples(60, 100, 21);
  ASSERT_GT(samples.size(), 5000u);
  TrainOptions o = small_options(16, 2);
  o.epochs = 6;
  o.king_buckets = layout;
  o.factoriser = factoriser;
  Trainer trainer(o, samples);
  const double before = mean_loss(trainer.network(), samples, o.lambda, o.scale, 2);
  double last_epoch = 0;
  for (int e = 0; e < o.epochs; ++e) last_epoch = trainer.run_epoch();
  const double after = mean_loss(trainer.network(), samples, o.lambda, o.scale, 2);
  EXPECT_LT(after, before * 0.3) << "before " << before << ", after " << after;
  EXPECT_LT(last_epoch, before * 0.5);
}

TEST(TrainerTraining, LowersTheLossOnSyntheticData) {
  check_loss_falls(eval::nnue::kSingleKingBucket, false);
}
// With king buckets every batch is visited grouped by king views: still every position, once.
TEST(TrainerTraining, LowersTheLossWithKingBuckets) {
  check_loss_falls(eval::nnue::kDefaultKingBuckets, true);
  check_loss_falls(eval::nnue::kDefaultKingBuckets, false);
}

TEST(TrainerTraining, LearningRateSchedules) {
  const std::vector<Sample> samples = material_samples(3, 40, 4);
  TrainOptions o = small_options(8, 1);
  o.epochs = 10;
  o.lr = 0.01f;
  o.final_lr = 0.001f;
  Trainer cosine(o, samples);
  EXPECT_FLOAT_EQ(cosine.learning_rate(0), 0.01f);
  EXPECT_FLOAT_EQ(cosine.learning_rate(5), 0.0055f);
  EXPECT_FLOAT_EQ(cosine.learning_rate(10), 0.001f);
  o.schedule = Schedule::Step;
  o.step_epochs = 4;
  o.gamma = 0.5f;
  Trainer step(o, samples);
  EXPECT_FLOAT_EQ(step.learning_rate(3.9), 0.01f);
  EXPECT_FLOAT_EQ(step.learning_rate(4.0), 0.005f);
  EXPECT_FLOAT_EQ(step.learning_rate(9.5), 0.0025f);
  // The last step of the last scheduled epoch is the schedule's, not the tuning epochs'.
  o.schedule = Schedule::Cosine;
  o.epochs = 1;
  Trainer one(o, samples);
  (void)one.run_epoch();
  EXPECT_FLOAT_EQ(one.last_learning_rate(), 0.001f);
}

TEST(TrainerTraining, SameSeedAndThreadsGiveTheSameWeights) {
  const std::vector<Sample> samples = material_samples(20, 60, 4);
  TrainOptions o = small_options(8, 2);
  o.mirror = true;
  Trainer a(o, samples), b(o, samples);
  for (int e = 0; e < 2; ++e) {
    (void)a.run_epoch();
    (void)b.run_epoch();
  }
  EXPECT_EQ(a.network().params, b.network().params);
  TrainOptions other = o;
  other.seed = 10;
  Trainer c(other, samples);
  (void)c.run_epoch();
  (void)c.run_epoch();
  EXPECT_NE(a.network().params, c.network().params);
}

void check_resumed_run(const eval::nnue::KingBuckets& layout, bool factoriser) {
  test::TempDir dir;
  const std::vector<Sample> samples = material_samples(20, 60, 4);
  TrainOptions o = small_options(8, 2);
  o.mirror = true;
  o.king_buckets = layout;
  o.factoriser = factoriser;
  Trainer whole(o, samples);
  for (int e = 0; e < o.epochs; ++e) (void)whole.run_epoch();

  std::string error;
  {
    Trainer first(o, samples);
    (void)first.run_epoch();
    (void)first.run_epoch();
    ASSERT_TRUE(first.save_checkpoint(dir.file("run.ckpt"), error)) << error;
  }
  Trainer second(o, samples);
  ASSERT_TRUE(second.load_checkpoint(dir.file("run.ckpt"), error)) << error;
  EXPECT_EQ(second.epochs_done(), 2);
  while (second.epochs_done() < o.epochs) (void)second.run_epoch();
  EXPECT_EQ(second.network().params, whole.network().params);
  EXPECT_EQ(second.network().params.size(),
            Network::parameter_count(8, 1, layout.count, factoriser));
}

TEST(TrainerTraining, ResumedRunEndsLikeAnUninterruptedOne) {
  check_resumed_run(eval::nnue::kSingleKingBucket, false);
}
TEST(TrainerTraining, ResumedRunWithKingBucketsKeepsTheFactoriser) {
  check_resumed_run(eval::nnue::kDefaultKingBuckets, true);
  check_resumed_run(eval::nnue::kDefaultKingBuckets, false);
}

TEST(TrainerTraining, CheckpointRefusesOtherRunsAndDamage) {
  test::TempDir dir;
  const std::vector<Sample> samples = material_samples(5, 40, 4);
  const TrainOptions o = small_options(8, 1);
  Trainer t(o, samples);
  (void)t.run_epoch();
  std::string error;
  ASSERT_TRUE(t.save_checkpoint(dir.file("a.ckpt"), error)) << error;

  TrainOptions wider = o;
  wider.hidden = 16;
  Trainer w(wider, samples);
  EXPECT_FALSE(w.load_checkpoint(dir.file("a.ckpt"), error));
  EXPECT_NE(error.find("--hidden 8"), std::string::npos) << error;
  // Another king-bucket layout, or the factoriser on one side only.
  TrainOptions bucketed = o;
  bucketed.king_buckets = eval::nnue::kDefaultKingBuckets;
  bucketed.factoriser = true;
  Trainer k(bucketed, samples);
  EXPECT_FALSE(k.load_checkpoint(dir.file("a.ckpt"), error));
  EXPECT_NE(error.find("--king-buckets 1, "), std::string::npos) << error;
  (void)k.run_epoch();
  ASSERT_TRUE(k.save_checkpoint(dir.file("k.ckpt"), error)) << error;
  TrainOptions plain = bucketed;
  plain.factoriser = false;
  Trainer p(plain, samples);
  EXPECT_FALSE(p.load_checkpoint(dir.file("k.ckpt"), error));
  EXPECT_NE(error.find("--king-buckets 4, "), std::string::npos) << error;
  EXPECT_NE(error.find("--king-buckets 4 --no-factoriser"), std::string::npos) << error;
  TrainOptions unmirrored = bucketed;
  unmirrored.king_buckets.mirrored = false;
  Trainer unmirrored_run(unmirrored, samples);
  EXPECT_FALSE(unmirrored_run.load_checkpoint(dir.file("k.ckpt"), error));
  EXPECT_NE(error.find("--king-buckets 4 --no-king-mirror, "), std::string::npos) << error;
  Trainer again(bucketed, samples);
  EXPECT_TRUE(again.load_checkpoint(dir.file("k.ckpt"), error)) << error;

  // One flipped byte in the weights.
  {
    std::fstream f(dir.file("a.ckpt"), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x55');
  }
  Trainer u(o, samples);
  EXPECT_FALSE(u.load_checkpoint(dir.file("a.ckpt"), error));
  EXPECT_NE(error.find("damaged"), std::string::npos) << error;
  EXPECT_FALSE(u.load_checkpoint(dir.file("none.ckpt"), error));
  EXPECT_EQ(u.epochs_done(), 0);
}

TEST(TrainerTraining, InitialNetworkReplacesTheRandomStart) {
  const std::vector<Sample> train = material_samples(20, 80, 6);
  TrainOptions o = small_options(16, 2);
  Trainer donor(o, train);
  for (int e = 0; e < o.epochs; ++e) (void)donor.run_epoch();
  const double donor_loss = mean_loss(donor.network(), train, o.lambda, o.scale, 2);

  TrainOptions other = o;
  other.seed = 77;
  other.lr = 0.001f;
  other.final_lr = 0.0005f;
  Trainer trainer(other, train);
  std::string error;
  ASSERT_TRUE(trainer.set_initial_network(donor.network(), error)) << error;
  EXPECT_EQ(trainer.network().params, donor.network().params);
  // Another epoch at a small learning rate keeps what the donor learnt.
  (void)trainer.run_epoch();
  EXPECT_LT(mean_loss(trainer.network(), train, o.lambda, o.scale, 2), donor_loss * 1.05);
  // Only before the first epoch, and only a network of the run's shape or a narrower one.
  EXPECT_FALSE(trainer.set_initial_network(donor.network(), error));
  Trainer narrow(small_options(8, 2), train);
  EXPECT_FALSE(narrow.set_initial_network(donor.network(), error));
  EXPECT_NE(error.find("--hidden 8"), std::string::npos) << error;
}

// A trained narrower network seeds a wider run (--init with a larger --hidden): the run starts
// from the donor's function, the old lanes as they were and the new ones silent (zero output
// weights), and the new lanes learn from the first epoch on.
TEST(TrainerTraining, NarrowerNetworkSeedsAWiderRun) {
  const std::vector<Sample> train = material_samples(20, 80, 6);
  TrainOptions o = small_options(16, 2);
  o.buckets = eval::nnue::kOutputBuckets;
  Trainer donor(o, train);
  (void)donor.run_epoch();
  const Network& narrow = donor.network();

  TrainOptions wider = o;
  wider.hidden = 32;
  Trainer run(wider, train);
  std::string error;
  ASSERT_TRUE(run.set_initial_network(narrow, error)) << error;
  const Network& wide = run.network();
  ASSERT_EQ(wide.hidden, 32);
  Scratch narrow_scratch(16);
  Scratch wide_scratch(32);
  for (const Sample& s : train)
    EXPECT_NEAR(evaluate(wide, s, wide_scratch), evaluate(narrow, s, narrow_scratch), 1e-5f);
  // Old lanes copied, new lanes with input weights and silent outputs.
  EXPECT_EQ(wide.row(5)[3], narrow.row(5)[3]);
  EXPECT_EQ(wide.bias1()[15], narrow.bias1()[15]);
  float new_inputs = 0;
  float new_outputs = 0;
  for (int f = 0; f < wide.input_rows(); ++f)
    for (int i = 16; i < 32; ++i) new_inputs += std::abs(wide.row(f)[i]);
  for (int b = 0; b < wide.buckets; ++b) {
    EXPECT_EQ(wide.weight2(b)[32 + 7], narrow.weight2(b)[16 + 7]);  // the other side's half
    EXPECT_EQ(wide.bias2(b), narrow.bias2(b));
    for (int i = 16; i < 32; ++i)
      new_outputs += std::abs(wide.weight2(b)[i]) + std::abs(wide.weight2(b)[32 + i]);
  }
  EXPECT_GT(new_inputs, 0.0f);
  EXPECT_EQ(new_outputs, 0.0f);
  (void)run.run_epoch();
  float learnt = 0;
  for (int b = 0; b < run.network().buckets; ++b)
    for (int i = 16; i < 32; ++i) learnt += std::abs(run.network().weight2(b)[i]);
  EXPECT_GT(learnt, 0.0f);

  // Widened and spread over king buckets at once: the donor's function where no king is
  // mirrored.
  wider.king_buckets = eval::nnue::kDefaultKingBuckets;
  wider.factoriser = true;
  Trainer bucketed(wider, train);
  ASSERT_TRUE(bucketed.set_initial_network(narrow, error)) << error;
  int unmirrored = 0;
  for (const Sample& s : train) {
    if ((s.kings[WHITE] & 7) < 4 || (s.kings[BLACK] & 7) < 4) continue;
    EXPECT_NEAR(evaluate(bucketed.network(), s, wide_scratch), evaluate(narrow, s, narrow_scratch),
                1e-5f);
    ++unmirrored;
  }
  EXPECT_GT(unmirrored, 100);
}

// Every king bucket starts from the same weights, with a factoriser or without: the one-bucket
// network of the same seed, seen through the mirror when a king stands on files a-d. Folding
// gives the same function, and the folded network has no factoriser left.
TEST(TrainerNetwork, KingBucketsStartAsOneBucket) {
  const Network one = random_network(16, 3, eval::nnue::kOutputBuckets);
  const Network copies =
      random_network(16, 3, eval::nnue::kOutputBuckets, eval::nnue::kDefaultKingBuckets, false);
  const Network factorised =
      random_network(16, 3, eval::nnue::kOutputBuckets, eval::nnue::kDefaultKingBuckets, true);
  const Network folded = fold(factorised);
  EXPECT_FALSE(folded.factoriser);
  EXPECT_EQ(folded.params.size(), copies.params.size());
  EXPECT_EQ(with_factoriser(folded, true).params.size(), factorised.params.size());
  Scratch scratch(16);
  int unmirrored = 0;
  for (const Sample& s : material_samples(4, 80, 2)) {
    const float x = evaluate(copies, s, scratch);
    EXPECT_NEAR(evaluate(factorised, s, scratch), x, 1e-5f);
    EXPECT_NEAR(evaluate(folded, s, scratch), x, 1e-5f);
    if ((s.kings[WHITE] & 7) < 4 || (s.kings[BLACK] & 7) < 4) continue;
    EXPECT_FLOAT_EQ(evaluate(one, s, scratch), x);
    ++unmirrored;
  }
  EXPECT_GT(unmirrored, 100);
}

// A trained one-bucket network seeds a king-bucketed run (--init): with a factoriser or
// without, the run starts from that network's function wherever no king is mirrored, and
// from the two layouts' same function everywhere; a bucketed network cannot seed a run of
// another layout.
TEST(TrainerTraining, OneBucketNetworkSeedsKingBuckets) {
  const std::vector<Sample> train = material_samples(20, 80, 6);
  TrainOptions o = small_options(16, 2);
  Trainer donor(o, train);
  (void)donor.run_epoch();
  const Network& one = donor.network();

  TrainOptions bucketed = o;
  bucketed.king_buckets = eval::nnue::kDefaultKingBuckets;
  bucketed.factoriser = true;
  Trainer factorised(bucketed, train);
  bucketed.factoriser = false;
  Trainer copies(bucketed, train);
  std::string error;
  ASSERT_TRUE(factorised.set_initial_network(one, error)) << error;
  ASSERT_TRUE(copies.set_initial_network(one, error)) << error;
  EXPECT_TRUE(factorised.network().factoriser);
  EXPECT_EQ(fold(factorised.network()).params, copies.network().params);

  Scratch scratch(16);
  int unmirrored = 0;
  for (const Sample& s : train) {
    const float x = evaluate(copies.network(), s, scratch);
    EXPECT_NEAR(evaluate(factorised.network(), s, scratch), x, 1e-5f);
    if ((s.kings[WHITE] & 7) < 4 || (s.kings[BLACK] & 7) < 4) continue;
    EXPECT_FLOAT_EQ(evaluate(one, s, scratch), x);
    ++unmirrored;
  }
  EXPECT_GT(unmirrored, 100);

  // Without the mirror (--no-king-mirror) the run starts from the donor's function everywhere.
  bucketed.king_buckets.mirrored = false;
  bucketed.factoriser = true;
  Trainer unmirrored_run(bucketed, train);
  ASSERT_TRUE(unmirrored_run.set_initial_network(one, error)) << error;
  for (const Sample& s : train)
    EXPECT_NEAR(evaluate(unmirrored_run.network(), s, scratch), evaluate(one, s, scratch), 1e-5f);

  // Only from one bucket: a bucketed network does not seed a one-bucket run.
  Trainer plain(o, train);
  EXPECT_FALSE(plain.set_initial_network(copies.network(), error));
}

}  // namespace
}  // namespace tessera::trainer
