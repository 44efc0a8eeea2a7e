// Evaluation network inference (eval/nnue): the feature index, a network small enough to work
// out by hand, incremental accumulator updates against full refreshes along random games, the
// build's SIMD kernel against the scalar reference bit for bit, colour symmetry, agreement with
// the floating-point formula the trainer optimises, and the embedded default network.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/embedded.h"
#include "eval/nnue/move_delta.h"
#include "eval/nnue/network.h"
#include "eval/nnue/network_file.h"
#include "nnue_test_support.h"

namespace tessera::eval::nnue {
namespace {

// Standard chess positions with castling, en passant and promotions close at hand, and one
// Chess960 position (castling with the king and rook on unusual squares).
using nnue_test::StartFen;
constexpr StartFen kFens[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
    {"8/P1k5/K7/8/8/8/6p1/8 w - - 0 1", false},
    {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
};

[[nodiscard]] Position from_fen(const std::string& fen, bool chess960 = false) {
  std::string error;
  auto pos = Position::from_fen(fen, chess960, error);
  EXPECT_TRUE(pos) << fen << ": " << error;
  return pos ? *pos : Position::startpos();
}

using nnue_test::build;
using nnue_test::flip_fen;
using nnue_test::random_parameters;

// Positions reached by random legal moves from each test FEN.
[[nodiscard]] std::vector<Position> random_positions(std::uint64_t seed, int games, int plies) {
  return nnue_test::random_positions(kFens, seed, games, plies);
}

TEST(NnueFeatures, IndexFollowsTheContract) {
  const Piece white_pawn(WHITE, PAWN);
  const Piece black_king(BLACK, KING);
  EXPECT_EQ(feature_index(WHITE, white_pawn, Square(0)), 0);
  EXPECT_EQ(feature_index(BLACK, white_pawn, Square(0)), 384 + 56);
  EXPECT_EQ(feature_index(WHITE, black_king, Square(63)), 767);
  EXPECT_EQ(feature_index(BLACK, black_king, Square(63)), 5 * 64 + 7);
  EXPECT_EQ(feature_index(WHITE, Piece(WHITE, QUEEN), Square(3)), 4 * 64 + 3);
  // Every (perspective, piece, square) has its own index in range.
  std::vector<int> seen(kInputs, 0);
  for (const Color p : {WHITE, BLACK}) {
    std::fill(seen.begin(), seen.end(), 0);
    for (int pc = 0; pc < kPieceCount; ++pc)
      for (int sq = 0; sq < 64; ++sq)
        ++seen[std::size_t(feature_index(p, Piece::from_index(pc), Square(sq)))];
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  }
}

// A network whose output is worked out by hand from the formula: hidden lane 0 saturates in
// both perspectives (bias 255 = 1.0), lane 1 is at 0.5 in both (bias 128 minus nothing), lane 2
// is negative (clamped to 0).
TEST(NnueEvaluate, HandComputedNetwork) {
  auto p = NetworkParameters::zeros();
  p.ft_bias[0] = 255;
  p.ft_bias[1] = 128;
  p.ft_bias[2] = -50;
  p.out_weights[0] = 64;             // us, lane 0: weight 1.0
  p.out_weights[kHidden + 1] = -32;  // them, lane 1: weight -0.5
  p.out_weights[2] = 127;            // lane 2: clamped away
  p.out_bias[0] = 255 * 64 / 4;      // 0.25
  p.scale = 400;
  const Network net = build(p);
  Accumulator acc;
  refresh(net, Position::startpos(), acc);  // no feature weights: only the biases
  // sum = 255^2*64 - 128^2*32 = 4161600 - 524288 = 3637312; /255 = 14264 (truncated);
  // + 4080 = 18344; * 400 / 16320 = 449 (truncated). The float formula gives
  // (1 - 0.5 * (128/255)^2 + 0.25) * 400 = 449.6.
  EXPECT_EQ(evaluate(net, acc, WHITE), 449);
  EXPECT_EQ(scalar::evaluate(net, acc, WHITE), 449);
  // A feature weight moves the accumulator: a white pawn's row adds to lane 2 in white's view.
  p.ft_weights[std::size_t(feature_index(WHITE, Piece(WHITE, PAWN), Square(8))) * kHidden + 2] =
      100;
  const Network net2 = build(p);
  refresh(net2, Position::startpos(), acc);
  EXPECT_EQ(acc.half(WHITE)[2], 50);
  // In black's view the black pawn on a7 is that same feature (own pawn, second rank).
  EXPECT_EQ(acc.half(BLACK)[2], 50);
  // Lane 2 (c = 50) counts only in the side to move's half: 50 * 50 * 127 more in the sum.
  EXPECT_EQ(evaluate(net2, acc, WHITE),
            int((std::int64_t(3637312 + 50 * 50 * 127) / 255 + 4080) * 400 / 16320));
  EXPECT_EQ(evaluate(net2, acc, WHITE), evaluate(net2, acc, BLACK));
  // Remove black's a7 pawn: lane 2 drops back to -50 in black's view only.
  remove_piece(net2, acc, {Piece(BLACK, PAWN), Square(48)});
  EXPECT_EQ(acc.half(WHITE)[2], 50);
  EXPECT_EQ(acc.half(BLACK)[2], -50);
  EXPECT_EQ(evaluate(net2, acc, BLACK), 449);
}

// Bucket b's output bias is b units of the scale and every weight is zero, so the score names
// the bucket that evaluate() used.
TEST(NnueEvaluate, OutputBucketFollowsThePieceCount) {
  auto p = NetworkParameters::zeros(kHidden, kOutputBuckets);
  for (int b = 0; b < kOutputBuckets; ++b) p.out_bias[std::size_t(b)] = b * kQA * kQB;
  p.scale = 100;
  const Network net = build(p);
  const auto score = [&](const std::string& fen) {
    Accumulator acc;
    refresh(net, from_fen(fen), acc);
    return evaluate(net, acc, WHITE);
  };
  EXPECT_EQ(score(std::string(Position::kStartFen)), 100 * output_bucket(32));
  EXPECT_EQ(score("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"), 100 * output_bucket(3));
  EXPECT_EQ(score("8/8/8/4k3/8/8/8/RN1QK3 w - - 0 1"), 100 * output_bucket(5));
  EXPECT_EQ(score("8/8/8/3qk3/8/8/8/RN1QK3 w - - 0 1"), 100 * output_bucket(6));
  EXPECT_EQ(score("r3k3/pppppppp/8/8/8/8/PPPPPPPP/R3K3 w - - 0 1"), 100 * output_bucket(20));
  EXPECT_EQ(output_bucket(5), 0);
  EXPECT_EQ(output_bucket(6), 1);
  EXPECT_EQ(output_bucket(29), 6);
  EXPECT_EQ(output_bucket(30), 7);
  // The piece count follows the incremental updates: a capture moves 6 pieces (bucket 1) to 5
  // (bucket 0), in both kernels.
  const Position six = from_fen("8/8/8/3qk3/8/8/8/RN1QK3 w - - 0 1");
  for (const bool reference : {false, true}) {
    Accumulator acc;
    reference ? scalar::refresh(net, six, acc) : refresh(net, six, acc);
    EXPECT_EQ(acc.pieces, 6);
    const Accumulator parent = acc;
    (reference ? scalar::add_sub_sub : add_sub_sub)(
        net, parent, acc, {Piece(WHITE, QUEEN), Square(35)}, {Piece(WHITE, QUEEN), Square(3)},
        {Piece(BLACK, QUEEN), Square(35)});
    EXPECT_EQ(acc.pieces, 5);
    EXPECT_EQ((reference ? scalar::evaluate : evaluate)(net, acc, BLACK), 0);
    (reference ? scalar::add_piece : add_piece)(net, acc, {Piece(BLACK, ROOK), Square(63)});
    EXPECT_EQ((reference ? scalar::evaluate : evaluate)(net, acc, BLACK), 100);
  }
}

// A file with one output layer serves every bucket with it.
TEST(NnueNetwork, OneBucketServesEveryBucket) {
  auto p = random_parameters(5);
  NetworkParameters one = NetworkParameters::zeros(kHidden, 1);
  one.ft_weights = p.ft_weights;
  one.ft_bias = p.ft_bias;
  one.out_weights.assign(p.out_weights.begin(), p.out_weights.begin() + 2 * kHidden);
  one.out_bias = {p.out_bias[0]};
  const Network net = build(one);
  for (std::size_t b = 0; b < std::size_t(kOutputBuckets); ++b) {
    EXPECT_EQ(net.weights().out_bias[b], p.out_bias[0]);
    EXPECT_TRUE(std::equal(one.out_weights.begin(), one.out_weights.end(),
                           net.weights().out_weights.begin() + std::ptrdiff_t(b * 2 * kHidden)));
  }
  std::string error;
  NetworkParameters three = NetworkParameters::zeros(kHidden, 3);
  EXPECT_FALSE(Network::from_parameters(three, error));
  EXPECT_NE(error.find("output buckets"), std::string::npos) << error;
}

TEST(NnueEvaluate, ClampedToTheEvaluationRange) {
  auto p = NetworkParameters::zeros();
  p.out_bias[0] = 2000000000;
  const Network net = build(p);
  Accumulator acc;
  refresh(net, Position::startpos(), acc);
  EXPECT_EQ(evaluate(net, acc, WHITE), kMaxEvalCp);
  p.out_bias[0] = -2000000000;
  const Network neg = build(p);
  EXPECT_EQ(evaluate(neg, acc, BLACK), -kMaxEvalCp);
}

TEST(NnueNetwork, RejectsOtherArchitecturesAndInvalidParameters) {
  std::string error;
  EXPECT_FALSE(Network::from_parameters(NetworkParameters::zeros(64), error));
  EXPECT_NE(error.find("wrong architecture"), std::string::npos) << error;
  auto p = NetworkParameters::zeros();
  p.out_weights[0] = -128;
  EXPECT_FALSE(Network::from_parameters(p, error));
  EXPECT_NE(error.find("invalid network"), std::string::npos) << error;
  EXPECT_FALSE(Network::from_bytes({}, error));
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;
}

TEST(NnueNetwork, WeightsAreAlignedForTheKernels) {
  const Network net = build(random_parameters(3));
  for (const int f : {0, 1, 383, 767})
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(net.row(f)) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(net.weights().out_weights.data()) % 64, 0u);
  const auto p = random_parameters(3);
  EXPECT_EQ(net.row(5)[7], p.ft_weights[5 * kHidden + 7]);
  EXPECT_EQ(net.weights().out_weights[kHidden + 3], p.out_weights[kHidden + 3]);
}

// Along random games: the accumulator updated move by move (best kernel and reference) equals
// a refresh of the position reached, and both kernels evaluate it identically. Castling, en
// passant and promotions must all have been played for the test to count.
void check_games(const Network& net, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  int castles = 0, en_passants = 0, promotions = 0, captures = 0, checked = 0;
  for (int game = 0; game < 70; ++game) {
    const StartFen& start = kFens[std::size_t(game) % std::size(kFens)];
    Position pos = from_fen(start.fen, start.chess960);
    Accumulator acc, ref_acc;
    const auto cache = std::make_unique<AccumulatorCache>();
    const auto ref_cache = std::make_unique<AccumulatorCache>();
    refresh(net, pos, acc);
    scalar::refresh(net, pos, ref_acc);
    ASSERT_EQ(acc, ref_acc) << pos.fen();
    for (int ply = 0; ply < 120; ++ply) {
      const MoveList moves(pos);
      if (moves.empty()) break;
      // Prefer the rare kinds now and then so that they come up often enough.
      Move m = moves[rng() % moves.size()];
      if (rng() % 3 == 0)
        for (const Move x : moves)
          if (x.kind() != MoveKind::Normal || pos.is_capture(x)) m = x;
      castles += m.kind() == MoveKind::Castling;
      en_passants += m.kind() == MoveKind::EnPassant;
      promotions += m.kind() == MoveKind::Promotion;
      captures += pos.is_capture(m);
      Accumulator child, ref_child;
      const std::string before = pos.fen() + " " + pos.move_to_uci(m);
      MoveDelta delta;
      pos.make_move(m, delta);
      delta.apply(net, pos, acc, child, *cache);
      delta.apply_reference(net, pos, ref_acc, ref_child, *ref_cache);
      Accumulator fresh;
      scalar::refresh(net, pos, fresh);
      ASSERT_EQ(child, fresh) << before;
      ASSERT_EQ(ref_child, fresh) << before;
      ASSERT_EQ(evaluate(net, child, pos.side_to_move()),
                scalar::evaluate(net, fresh, pos.side_to_move()))
          << pos.fen();
      ++checked;
      acc = child;
      ref_acc = ref_child;
    }
  }
  EXPECT_GT(checked, 3000);
  EXPECT_GT(castles, 10);
  EXPECT_GT(en_passants, 0);
  EXPECT_GT(promotions, 10);
  EXPECT_GT(captures, 100);
}

TEST(NnueAccumulator, IncrementalUpdatesMatchRefresh) {
  check_games(build(random_parameters(11)), 5);
}

// Weights so large that accumulator lanes overflow int16: they wrap identically everywhere.
TEST(NnueAccumulator, OverflowingLanesStillAgree) {
  check_games(build(random_parameters(12, 6000)), 6);
}

TEST(NnueAccumulator, FusedUpdatesMatchTheirParts) {
  const Network net = build(random_parameters(21));
  const Position pos = from_fen(kFens[1].fen);
  Accumulator base;
  refresh(net, pos, base);
  const PieceSquare a{Piece(WHITE, KNIGHT), Square(20)};
  const PieceSquare b{Piece(BLACK, QUEEN), Square(33)};
  const PieceSquare c{Piece(WHITE, PAWN), Square(12)};
  const PieceSquare d{Piece(BLACK, KING), Square(60)};
  auto stepwise = [&](std::initializer_list<PieceSquare> adds,
                      std::initializer_list<PieceSquare> subs, bool reference) {
    Accumulator acc = base;
    for (const auto& x : adds) reference ? scalar::add_piece(net, acc, x) : add_piece(net, acc, x);
    for (const auto& x : subs)
      reference ? scalar::remove_piece(net, acc, x) : remove_piece(net, acc, x);
    return acc;
  };
  for (const bool reference : {false, true}) {
    Accumulator out;
    reference ? scalar::add_sub(net, base, out, a, c) : add_sub(net, base, out, a, c);
    EXPECT_EQ(out, stepwise({a}, {c}, reference));
    reference ? scalar::add_sub_sub(net, base, out, a, c, d) : add_sub_sub(net, base, out, a, c, d);
    EXPECT_EQ(out, stepwise({a}, {c, d}, reference));
    reference ? scalar::add_add_sub_sub(net, base, out, a, b, c, d)
              : add_add_sub_sub(net, base, out, a, b, c, d);
    EXPECT_EQ(out, stepwise({a, b}, {c, d}, reference));
    EXPECT_NE(out, base);
    // Adding and removing the same piece is the identity.
    EXPECT_EQ(stepwise({b}, {b}, reference), base);
  }
  // One piece's change is its row in each perspective.
  Accumulator one = base;
  add_piece(net, one, b);
  for (const Color p : {WHITE, BLACK})
    for (int i = 0; i < kHidden; ++i)
      ASSERT_EQ(one.half(p)[std::size_t(i)],
                std::int16_t(base.half(p)[std::size_t(i)] +
                             net.row(feature_index(p, b.piece, b.square))[i]));
}

TEST(NnueKernel, SelectedKernelMatchesScalarReference) {
  SCOPED_TRACE(std::string("kernel ") + std::string(simd_kernel_name()));
  for (const std::uint64_t seed : {31u, 32u, 33u}) {
    const Network net = build(random_parameters(seed, seed == 33u ? 30000 : 200));
    for (const Position& pos : random_positions(seed, 14, 60)) {
      Accumulator fast, ref;
      refresh(net, pos, fast);
      scalar::refresh(net, pos, ref);
      ASSERT_EQ(fast, ref) << pos.fen();
      for (const Color stm : {WHITE, BLACK})
        ASSERT_EQ(evaluate(net, fast, stm), scalar::evaluate(net, ref, stm)) << pos.fen();
    }
  }
}

// Lanes at the clamp edges (below 0, 0, QA, above QA, the int16 extremes) with the extreme
// output weights: the kernel's multiply-add must give exactly the reference's sum.
TEST(NnueKernel, ActivationEdgesMatchScalarReference) {
  std::mt19937_64 rng(41);
  constexpr std::int16_t kEdges[] = {-32768, -1, 0, 1, 254, 255, 256, 32767};
  for (int trial = 0; trial < 200; ++trial) {
    auto p = NetworkParameters::zeros();
    for (auto& v : p.ft_bias) v = kEdges[rng() % std::size(kEdges)];
    for (auto& v : p.out_weights) v = rng() % 2 ? kMaxOutputWeight : -kMaxOutputWeight;
    if (trial % 2) std::fill(p.out_weights.begin(), p.out_weights.end(), kMaxOutputWeight);
    const Network net = build(p);
    Accumulator acc;
    refresh(net, Position::startpos(), acc);
    ASSERT_EQ(evaluate(net, acc, WHITE), scalar::evaluate(net, acc, WHITE));
    ASSERT_EQ(evaluate(net, acc, BLACK), scalar::evaluate(net, acc, BLACK));
  }
}

TEST(NnueSymmetry, ColourFlippedPositionEvaluatesTheSame) {
  const Network net = build(random_parameters(51));
  int checked = 0;
  for (const Position& pos : random_positions(52, 12, 50)) {
    if (pos.chess960()) continue;  // flip_fen writes standard castling rights only
    const Position flipped = from_fen(flip_fen(pos.fen()));
    ASSERT_EQ(flipped.side_to_move(), ~pos.side_to_move());
    Accumulator a, b;
    refresh(net, pos, a);
    refresh(net, flipped, b);
    ASSERT_EQ(nnue_test::half(a, WHITE), nnue_test::half(b, BLACK)) << pos.fen();
    ASSERT_EQ(nnue_test::half(a, BLACK), nnue_test::half(b, WHITE)) << pos.fen();
    ASSERT_EQ(evaluate(net, a, pos.side_to_move()), evaluate(net, b, flipped.side_to_move()))
        << pos.fen() << " vs " << flipped.fen();
    ++checked;
  }
  EXPECT_GT(checked, 300);
  // The start position is its own mirror: either side to move gets the same value.
  Accumulator start;
  refresh(net, Position::startpos(), start);
  EXPECT_EQ(evaluate(net, start, WHITE), evaluate(net, start, BLACK));
}

// A float network with a trained network's scale, quantised as the trainer does. The integer
// pass must match the float formula on the quantised values within the integer divisions'
// truncation (1 cp), and the formula on the original floats within the error that the
// quantisation steps can cause (QB = 64 makes output-weight rounding the larger part).
TEST(NnueFloatEquivalence, IntegerPassTracksTheFloatFormula) {
  std::mt19937_64 rng(61);
  std::uniform_real_distribution<double> ft(-0.12, 0.12), bias(0.0, 0.5), out(-0.45, 0.45);
  std::vector<double> w(std::size_t(kInputs) * kHidden), b(kHidden), o(2 * kHidden);
  for (auto& x : w) x = ft(rng);
  for (auto& x : b) x = bias(rng);
  for (auto& x : o) x = out(rng);
  const double out_bias = 0.07;
  const int scale = 400;
  auto p = NetworkParameters::zeros();
  for (std::size_t i = 0; i < w.size(); ++i)
    p.ft_weights[i] = std::int16_t(std::lround(w[i] * kQA));
  for (std::size_t i = 0; i < b.size(); ++i) p.ft_bias[i] = std::int16_t(std::lround(b[i] * kQA));
  for (std::size_t i = 0; i < o.size(); ++i)
    p.out_weights[i] = std::int16_t(std::lround(o[i] * kQB));
  p.out_bias[0] = std::int32_t(std::lround(out_bias * kQA * kQB));
  p.scale = scale;
  const Network net = build(p);

  // The float formula over the original parameters, or over the dequantised ones; with
  // `bound`, also the first-order effect of quantisation on the result: each lane's
  // activation moves by at most 2 |da| (c^2 on [0, 1]), each output term by
  // |dc^2| |o| + c^2 |do|.
  struct FloatResult {
    double cp = 0;
    double bound = 0;
  };
  auto float_eval = [&](const Position& pos, bool dequantised) {
    FloatResult r;
    const double qb_out = double(p.out_bias[0]) / (kQA * kQB);
    double total = dequantised ? qb_out : out_bias;
    double bound = std::abs(qb_out - out_bias);
    for (const Color view : {WHITE, BLACK}) {
      const bool us = view == pos.side_to_move();
      for (int i = 0; i < kHidden; ++i) {
        const std::size_t h = std::size_t(i);
        double a = b[h], qa = double(p.ft_bias[h]) / kQA, da = std::abs(a - qa);
        for (Bitboard bb = pos.pieces(); bb;) {
          const Square s = pop_lsb(bb);
          const std::size_t at = std::size_t(feature_index(view, pos.piece_on(s), s)) * kHidden + h;
          a += w[at];
          qa += double(p.ft_weights[at]) / kQA;
          da += std::abs(w[at] - double(p.ft_weights[at]) / kQA);
        }
        const std::size_t wi = h + (us ? 0 : kHidden);
        const double qo = double(p.out_weights[wi]) / kQB;
        const double c = std::clamp(dequantised ? qa : a, 0.0, 1.0);
        total += c * c * (dequantised ? qo : o[wi]);
        const double qc = std::clamp(qa, 0.0, 1.0);
        bound += std::min(2 * da, 1.0) * std::abs(o[wi]) + qc * qc * std::abs(qo - o[wi]);
      }
    }
    r.cp = total * scale;
    r.bound = bound * scale;
    return r;
  };

  double worst_quantised = 0, worst_original = 0, sum_original = 0, spread = 0;
  const auto positions = random_positions(62, 14, 40);
  for (const Position& pos : positions) {
    Accumulator acc;
    refresh(net, pos, acc);
    const int cp = evaluate(net, acc, pos.side_to_move());
    const double exact = float_eval(pos, true).cp;
    const FloatResult original = float_eval(pos, false);
    // Within the integer divisions' truncation of the float formula on the stored network...
    ASSERT_LT(std::abs(cp - exact), 1.05) << pos.fen();
    // ...and within what quantisation can explain of the formula on the original floats.
    ASSERT_LE(std::abs(cp - original.cp), original.bound + 1.05) << pos.fen();
    worst_quantised = std::max(worst_quantised, std::abs(cp - exact));
    worst_original = std::max(worst_original, std::abs(cp - original.cp));
    sum_original += std::abs(cp - original.cp);
    spread = std::max(spread, std::abs(original.cp));
  }
  EXPECT_GT(spread, 50.0);  // the network is not trivially near zero everywhere
  RecordProperty("worst_cp_vs_quantised_float", std::to_string(worst_quantised));
  RecordProperty("worst_cp_vs_original_float", std::to_string(worst_original));
  RecordProperty("mean_cp_vs_original_float",
                 std::to_string(sum_original / double(positions.size())));
}

TEST(NnueEmbedded, DefaultNetworkParsesAndEvaluates) {
  const auto bytes = embedded_network_bytes();
  ASSERT_GE(bytes.size(), kHeaderSize);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(bytes.data()) % 64, 0u);
  std::string error;
  const auto params = parse(bytes, error);  // validates size, header fields and checksum
  ASSERT_TRUE(params) << error;
  std::uint64_t stored = 0;
  for (int i = 0; i < 8; ++i) stored |= std::uint64_t(bytes[36 + std::size_t(i)]) << (8 * i);
  EXPECT_EQ(stored, fnv1a64(bytes.subspan(kHeaderSize)));
  const auto net = Network::embedded(error);
  ASSERT_TRUE(net) << error;
  EXPECT_EQ(net->weights().scale, params->scale);
  Accumulator acc;
  refresh(*net, Position::startpos(), acc);
  const int value = evaluate(*net, acc, WHITE);
  EXPECT_EQ(value, evaluate(*net, acc, BLACK));
  EXPECT_LT(std::abs(value), kMaxEvalCp);
}

}  // namespace
}  // namespace tessera::eval::nnue
