// The trainer's features must be the contract's (king buckets included), its gradient the
// loss's derivative (a factoriser's included), training must lower the loss, the quantised
// network must score like the float one and as the engine does, the network must not care which
// colour is which, a resumed run must end where an uninterrupted one does, and bad input must be
// refused with a message.
#include "trainer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cli.h"
#include "core/movegen.h"
#include "core/packed_position.h"
#include "datagen/record_file.h"
#include "dataset.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/network.h"
#include "eval/nnue/network_file.h"
#include "network.h"
#include "quantise.h"
#include "temp_dir.h"

namespace tessera::trainer {
namespace {

// Positions of random games from the start position.
std::vector<Position> random_positions(int games, int plies, std::uint64_t seed) {
  std::vector<Position> out;
  std::mt19937_64 rng(seed);
  for (int g = 0; g < games; ++g) {
    Position pos = Position::startpos();
    for (int ply = 0; ply < plies; ++ply) {
      const MoveList<GenType::All> moves(pos);
      if (moves.empty()) break;
      pos.make_move(moves[rng() % moves.size()]);
      out.push_back(pos);
    }
  }
  return out;
}

// Material from the side to move's view, in centipawns: a target that the network can learn.
int material(const Position& pos) {
  constexpr int kValue[] = {100, 300, 300, 500, 900, 0};
  int sum = 0;
  for (int t = PAWN; t <= QUEEN; ++t)
    sum += kValue[t] * (pos.count(WHITE, PieceType(t)) - pos.count(BLACK, PieceType(t)));
  return pos.side_to_move() == WHITE ? sum : -sum;
}

std::vector<Sample> material_samples(int games, int plies, std::uint64_t seed) {
  std::vector<Sample> out;
  for (const Position& pos : random_positions(games, plies, seed)) {
    Sample s = sample_from_position(pos);
    s.score = std::int16_t(material(pos));
    s.result = s.score > 0 ? 2 : s.score < 0 ? 0 : 1;
    out.push_back(s);
  }
  return out;
}

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

TrainOptions small_options(int hidden, int threads) {
  TrainOptions o;
  o.hidden = hidden;
  o.threads = threads;
  o.batch = 256;
  o.epochs = 4;
  o.lr = 0.01f;
  o.final_lr = 0.001f;
  o.lambda = 0.0f;
  o.seed = 9;
  return o;
}

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
  // Only before the first epoch, and only a network of the run's shape.
  EXPECT_FALSE(trainer.set_initial_network(donor.network(), error));
  Trainer wide(small_options(32, 2), train);
  EXPECT_FALSE(wide.set_initial_network(donor.network(), error));
  EXPECT_NE(error.find("--hidden 32"), std::string::npos) << error;
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

// A record file of random-game positions with material scores.
void write_records(const std::string& path, int games) {
  datagen::RecordWriter writer;
  std::string error;
  ASSERT_TRUE(writer.open(path, false, error)) << error;
  std::mt19937_64 rng(1);
  for (int g = 0; g < games; ++g) {
    Position pos = Position::startpos();
    for (int ply = 0; ply < 60; ++ply) {
      const MoveList<GenType::All> moves(pos);
      if (moves.empty()) break;
      pos.make_move(moves[rng() % moves.size()]);
      datagen::TrainingRecord r;
      r.position = encode(pos);
      const int m = material(pos);
      r.score_white = std::int16_t(pos.side_to_move() == WHITE ? m : -m);
      r.flags =
          pos.in_check() ? datagen::TrainingRecord::kInCheck : datagen::TrainingRecord::kQuiet;
      r.ply = std::uint16_t(ply + 1);
      writer.write(r);
    }
    writer.flush();
  }
  ASSERT_TRUE(writer.close()) << writer.error();
}

TEST(TrainerData, LoaderFiltersAndSplitsByGame) {
  test::TempDir dir;
  write_records(dir.file("a.bin.zst"), 50);
  LoadOptions options;
  options.min_ply = 10;
  options.max_score = 800;
  options.validation = 0.2;
  Dataset data;
  LoadStats stats;
  std::string error;
  ASSERT_TRUE(load_file(dir.file("a.bin.zst"), options, data, stats, error)) << error;

  // The same counts, straight from the records.
  LoadStats expected;
  datagen::RecordReader reader;
  ASSERT_TRUE(reader.open(dir.file("a.bin.zst"), error)) << error;
  datagen::TrainingRecord r;
  while (reader.next(r)) {
    ++expected.records;
    if (r.in_check())
      ++expected.in_check;
    else if (r.ply < 10)
      ++expected.early;
    else if (std::abs(r.score_white) > 800)
      ++expected.extreme;
    else
      ++expected.kept;
  }
  EXPECT_EQ(stats.games, 50u);
  EXPECT_EQ(stats.records, expected.records);
  EXPECT_EQ(stats.in_check, expected.in_check);
  EXPECT_EQ(stats.early, expected.early);
  EXPECT_EQ(stats.extreme, expected.extreme);
  EXPECT_GT(stats.extreme, 0u);
  EXPECT_EQ(stats.kept, expected.kept);
  EXPECT_EQ(stats.kept, data.train.size() + data.validation.size());
  EXPECT_GT(data.validation.size(), 0u);
  EXPECT_GT(data.train.size(), 2 * data.validation.size());
  for (const Sample& s : data.train) EXPECT_LE(std::abs(s.score), 800);
}

TEST(TrainerData, BadFilesAreRefused) {
  test::TempDir dir;
  Dataset data;
  LoadStats stats;
  std::string error;
  EXPECT_FALSE(load_file(dir.file("missing.bin.zst"), {}, data, stats, error));
  EXPECT_NE(error.find("missing.bin.zst"), std::string::npos) << error;
  std::ofstream(dir.file("text.bin.zst")) << "not a record file\n";
  error.clear();
  EXPECT_FALSE(load_file(dir.file("text.bin.zst"), {}, data, stats, error));
  EXPECT_FALSE(error.empty());
}

// Runs the command line with `args`, returning its exit code and what it wrote to stderr.
int run(std::vector<std::string> args, std::string& err) {
  args.insert(args.begin(), "tessera-train");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  const int code = run_cli(int(argv.size()), argv.data());
  (void)::testing::internal::GetCapturedStdout();
  err = ::testing::internal::GetCapturedStderr();
  return code;
}

TEST(TrainerCli, BadInputFailsWithAMessage) {
  test::TempDir dir;
  write_records(dir.file("a.bin.zst"), 10);
  const std::string data = dir.file("a.bin.zst"), out = dir.file("net.tnn");
  std::string err;
  EXPECT_EQ(run({"--data", dir.file("none.bin.zst"), "--output", out}, err), 1);
  EXPECT_NE(err.find("error: cannot open"), std::string::npos) << err;
  EXPECT_EQ(run({"--data", data, "--output", out, "--min-ply", "1000"}, err), 1);
  EXPECT_NE(err.find("error: no training positions"), std::string::npos) << err;
  EXPECT_EQ(run({"--output", out}, err), 2);
  EXPECT_NE(err.find("error: need at least one --data"), std::string::npos) << err;
  EXPECT_EQ(run({"--data", data}, err), 2);
  EXPECT_NE(err.find("error: need --output"), std::string::npos) << err;
  for (const auto& [flag, value] :
       std::vector<std::pair<std::string, std::string>>{{"--hidden", "abc"},
                                                        {"--hidden", "0"},
                                                        {"--buckets", "3"},
                                                        {"--king-buckets", "3"},
                                                        {"--king-buckets", "0"},
                                                        {"--wdl", "1.5"},
                                                        {"--lr", "-1"},
                                                        {"--threads", "2x"},
                                                        {"--validation", "1"},
                                                        {"--lr-schedule", "linear"}}) {
    EXPECT_EQ(run({"--data", data, "--output", out, flag, value}, err), 2) << flag << value;
    EXPECT_NE(err.find("error: " + flag), std::string::npos) << err;
  }
  EXPECT_EQ(run({"--data", data, "--output", out, "--resume", dir.file("none.ckpt")}, err), 1);
  EXPECT_NE(err.find("error: cannot open the checkpoint"), std::string::npos) << err;
  EXPECT_EQ(run({"--data", data, "--output", out, "--epochs"}, err), 2);
  EXPECT_NE(err.find("error: "), std::string::npos) << err;
}

TEST(TrainerCli, TrainsAndWritesTheNetwork) {
  test::TempDir dir;
  write_records(dir.file("a.bin.zst"), 30);
  const std::string out = dir.file("net.tnn");
  std::string err;
  ASSERT_EQ(run({"--data", dir.file("a.bin.zst"), "--output", out, "--epochs", "2", "--hidden",
                 "128", "--batch", "512", "--progress", "0", "--scale", "300"},
                err),
            0)
      << err;
  const auto net = eval::nnue::read_network_file(out, err);
  ASSERT_TRUE(net) << err;
  EXPECT_EQ(net->hidden, 128u);
  EXPECT_EQ(net->scale, 300);
  EXPECT_EQ(net->buckets, 1u);
  EXPECT_TRUE(std::ifstream(out + ".ckpt").good());
  // With output buckets: the file has eight, and the checkpoint of a one-bucket run is refused.
  ASSERT_EQ(run({"--data", dir.file("a.bin.zst"), "--output", out, "--epochs", "1", "--buckets",
                 "8", "--batch", "512", "--progress", "0", "--resume", out + ".ckpt"},
                err),
            1);
  EXPECT_NE(err.find("--buckets 1"), std::string::npos) << err;
  ASSERT_EQ(run({"--data", dir.file("a.bin.zst"), "--output", out, "--epochs", "1", "--buckets",
                 "8", "--batch", "512", "--progress", "0"},
                err),
            0)
      << err;
  const auto bucketed = eval::nnue::read_network_file(out, err);
  ASSERT_TRUE(bucketed) << err;
  EXPECT_EQ(bucketed->buckets, std::uint32_t(eval::nnue::kOutputBuckets));
  EXPECT_TRUE(eval::nnue::Network::from_parameters(*bucketed, err)) << err;
  // With king buckets, factorised or not: a version-2 file of the engine's layout.
  for (const bool factorised : {true, false}) {
    std::vector<std::string> args = {"--data",         dir.file("a.bin.zst"),
                                     "--output",       out,
                                     "--epochs",       "1",
                                     "--king-buckets", "4",
                                     "--batch",        "512",
                                     "--progress",     "0",
                                     "--mirror"};
    if (!factorised) args.push_back("--no-factoriser");
    ASSERT_EQ(run(args, err), 0) << err;
    const auto kings = eval::nnue::read_network_file(out, err);
    ASSERT_TRUE(kings) << err;
    EXPECT_EQ(kings->king_buckets, eval::nnue::kDefaultKingBuckets);
    EXPECT_EQ(test::read_bytes(out)[8], eval::nnue::kKingBucketsFormatVersion);
    EXPECT_TRUE(eval::nnue::Network::from_parameters(*kings, err)) << err;
  }
}

// --init: a run of no epochs writes back the very file it started from; a file of another
// shape or scale, a missing file and --init with --resume are refused.
TEST(TrainerCli, InitStartsFromANetworkFile) {
  test::TempDir dir;
  write_records(dir.file("a.bin.zst"), 30);
  const std::string data = dir.file("a.bin.zst"), first = dir.file("first.tnn"),
                    again = dir.file("again.tnn");
  const std::vector<std::string> common = {
      "--data", data, "--batch", "512", "--progress", "0", "--buckets", "8", "--validation", "0"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  std::string err;
  ASSERT_EQ(run(with({"--output", first, "--epochs", "2"}), err), 0) << err;
  ASSERT_EQ(
      run(with({"--output", again, "--epochs", "0", "--tune-epochs", "0", "--init", first}), err),
      0)
      << err;
  EXPECT_EQ(test::read_bytes(again), test::read_bytes(first));

  EXPECT_EQ(run(with({"--output", again, "--buckets", "1", "--init", first}), err), 1);
  EXPECT_NE(err.find("--buckets 1"), std::string::npos) << err;
  EXPECT_EQ(run(with({"--output", again, "--scale", "300", "--init", first}), err), 1);
  EXPECT_NE(err.find("--scale 300"), std::string::npos) << err;
  EXPECT_EQ(run(with({"--output", again, "--init", dir.file("none.tnn")}), err), 1);
  EXPECT_NE(err.find("none.tnn"), std::string::npos) << err;
  EXPECT_EQ(run(with({"--output", again, "--init", first, "--resume", first + ".ckpt"}), err), 2);
  EXPECT_NE(err.find("error: --init and --resume"), std::string::npos) << err;
  // A one-bucket file seeds a king-bucketed run.
  ASSERT_EQ(run(with({"--output", again, "--epochs", "0", "--tune-epochs", "0", "--king-buckets",
                      "4", "--init", first}),
                err),
            0)
      << err;
  const std::optional<QuantisedNetwork> grown = eval::nnue::read_network_file(again, err);
  ASSERT_TRUE(grown) << err;
  EXPECT_EQ(grown->king_buckets, eval::nnue::kDefaultKingBuckets);
  // A king-bucketed file: into a factorised run (a zero factoriser) and back, the same bytes;
  // a run without king buckets refuses it.
  ASSERT_EQ(run(with({"--output", first, "--epochs", "1", "--king-buckets", "4"}), err), 0) << err;
  ASSERT_EQ(run(with({"--output", again, "--epochs", "0", "--tune-epochs", "0", "--king-buckets",
                      "4", "--init", first}),
                err),
            0)
      << err;
  EXPECT_EQ(test::read_bytes(again), test::read_bytes(first));
  EXPECT_EQ(run(with({"--output", again, "--init", first}), err), 1);
  EXPECT_NE(err.find("--king-buckets 1"), std::string::npos) << err;
}

}  // namespace
}  // namespace tessera::trainer
