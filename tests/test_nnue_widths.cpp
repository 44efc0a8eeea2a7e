// Networks of every first-layer width the engine evaluates (architecture.h kHiddenSizes), each
// random with the default four king buckets and eight output buckets: the width comes from the
// file, the rows are dense at it, the accumulator kept move by move through the cache equals a
// full refresh at every node of perft trees, the build's kernel equals the scalar reference,
// the output sum is exact where a whole half no longer fits an int32, a file of each width
// round-trips and is accepted, and a file of any other width is refused with the widths named.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/position.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/architecture.h"
#include "eval/nnue/network.h"
#include "eval/nnue/network_file.h"
#include "nnue_test_support.h"
#include "temp_dir.h"
#include "test_core_support.h"

namespace tessera::eval::nnue {
namespace {

using nnue_test::build;
using nnue_test::random_parameters;

class NnueWidth : public ::testing::TestWithParam<int> {
 protected:
  [[nodiscard]] int width() const { return GetParam(); }
  // Random parameters of this width with the default king-bucket layout and eight output buckets.
  [[nodiscard]] NetworkParameters parameters(std::uint64_t seed, int ft_range = 200) const {
    return random_parameters(seed, ft_range, kDefaultKingBuckets, width());
  }
};

TEST_P(NnueWidth, NetworkTakesItsWidthFromTheParametersAndKeepsRowsDense) {
  const NetworkParameters p = parameters(1);
  const Network net = build(p);
  ASSERT_EQ(net.hidden(), width());
  const auto h = std::size_t(width());
  for (const int f : {0, 1, 767, 768, 4 * kInputs - 1}) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(net.row(f)) % 64, 0u) << f;
    EXPECT_EQ(net.row(f), net.row(0) + std::ptrdiff_t(f) * width()) << f;
    for (const std::size_t i : {std::size_t(0), h / 2, h - 1})
      ASSERT_EQ(net.row(f)[i], p.ft_weights[std::size_t(f) * h + i]) << f << " " << i;
  }
  // Output layer b at b * 2H: the side to move's half, then the other.
  const auto& out = net.weights().out_weights;
  EXPECT_EQ(out[7 * 2 * h + h + 5], p.out_weights[7 * 2 * h + h + 5]);
  EXPECT_EQ(net.weights().ft_bias[h - 1], p.ft_bias[h - 1]);
  Accumulator acc;
  refresh(net, Position::startpos(), acc);
  EXPECT_EQ(acc.hidden, width());
  EXPECT_EQ(acc.half(BLACK).size(), h);
}

// At every node of perft trees in which kings change bucket, cross the mirror line and castle:
// the child's accumulator, kept by the best kernel and by the reference through their caches,
// equals a full refresh, and so does its evaluation.
TEST_P(NnueWidth, PerftTreesMatchRefresh) {
  const Network net = build(parameters(71));
  nnue_test::PerftWalk walk{net};
  walk.boundary_trees(3);
  walk.expect_boundaries_crossed();
  EXPECT_GT(walk.nodes, 20'000u);
}

// The same with lanes that overflow int16, where only modular arithmetic keeps them equal.
TEST_P(NnueWidth, PerftTreesMatchRefreshWithOverflowingLanes) {
  const Network net = build(parameters(72, 6000));
  nnue_test::PerftWalk walk{net};
  walk.boundary_trees(2);
  EXPECT_EQ(walk.failures, 0);
  EXPECT_GT(walk.nodes, 1'000u);
}

TEST_P(NnueWidth, SelectedKernelMatchesScalarReference) {
  SCOPED_TRACE(std::string("kernel ") + std::string(simd_kernel_name()));
  for (const int range : {200, 30000}) {
    const Network net = build(parameters(31 + std::uint64_t(range), range));
    auto cache = std::make_unique<AccumulatorCache>();
    auto ref_cache = std::make_unique<AccumulatorCache>();
    int checked = 0;
    for (const Position& pos :
         nnue_test::random_positions(nnue_test::kKingBoundaryFens, 32, 10, 60)) {
      Accumulator fast, ref, cached, ref_cached;
      refresh(net, pos, fast);
      scalar::refresh(net, pos, ref);
      refresh(net, pos, cached, *cache);
      scalar::refresh(net, pos, ref_cached, *ref_cache);
      ASSERT_EQ(fast, ref) << pos.fen();
      ASSERT_EQ(cached, ref) << pos.fen();
      ASSERT_EQ(ref_cached, ref) << pos.fen();
      for (const Color stm : {WHITE, BLACK})
        ASSERT_EQ(evaluate(net, fast, stm), scalar::evaluate(net, ref, stm)) << pos.fen();
      ++checked;
    }
    EXPECT_GT(checked, 300);
  }
}

// Every lane at QA with the extreme output weights: a half's sum is H * 255^2 * 127, beyond an
// int32 from H = 384 on. The value is known exactly (H * 127 / 32 centipawns at scale 1 when
// both halves weigh +127), so a kernel that wrapped, in any order, would show here.
TEST_P(NnueWidth, SaturatedOutputSumIsExact) {
  const int h = width();
  auto p = NetworkParameters::zeros(std::uint32_t(h), kOutputBuckets);
  p.scale = 1;
  std::fill(p.ft_bias.begin(), p.ft_bias.end(), std::int16_t(300));  // clamped to QA
  const auto with_weights = [&](int us, int them) {
    for (std::size_t b = 0; b < std::size_t(kOutputBuckets); ++b)
      for (std::size_t i = 0; i < std::size_t(h); ++i) {
        p.out_weights[b * 2 * std::size_t(h) + i] = std::int16_t(us);
        p.out_weights[b * 2 * std::size_t(h) + std::size_t(h) + i] = std::int16_t(them);
      }
    const Network net = build(p);
    Accumulator acc;
    refresh(net, Position::startpos(), acc);
    const int fast = evaluate(net, acc, WHITE);
    EXPECT_EQ(fast, scalar::evaluate(net, acc, WHITE));
    return fast;
  };
  const int k = kMaxOutputWeight;
  EXPECT_EQ(with_weights(k, k), h * 127 / 32);
  EXPECT_EQ(with_weights(-k, -k), -h * 127 / 32);
  EXPECT_EQ(with_weights(k, 0), h * 127 / 64);
  EXPECT_EQ(with_weights(k, -k), 0);
}

// A file of each width, written and read back through bytes and a file: the same parameters,
// and a network that evaluates as the one built from them directly.
TEST_P(NnueWidth, FileRoundTripsAndIsAccepted) {
  const NetworkParameters p = parameters(81);
  const std::vector<std::uint8_t> bytes = serialize(p);
  ASSERT_FALSE(bytes.empty());
  std::string error;
  const auto parsed = parse(bytes, error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(*parsed, p);
  const test::TempDir dir;
  ASSERT_TRUE(write_network_file(dir.file("net.tnn"), p, error)) << error;
  const auto read = read_network_file(dir.file("net.tnn"), error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(*read, p);
  const auto from_file = Network::from_parameters(*read, error);
  ASSERT_TRUE(from_file) << error;
  EXPECT_EQ(from_file->hidden(), width());
  const Network direct = build(p);
  EXPECT_EQ(from_file->fingerprint(), direct.fingerprint());
  for (const Position& pos : nnue_test::random_positions(nnue_test::kKingBoundaryFens, 82, 4, 20)) {
    Accumulator a, b;
    refresh(*from_file, pos, a);
    refresh(direct, pos, b);
    ASSERT_EQ(evaluate(*from_file, a, pos.side_to_move()), evaluate(direct, b, pos.side_to_move()));
  }
}

INSTANTIATE_TEST_SUITE_P(AllWidths, NnueWidth, ::testing::ValuesIn(kHiddenSizes),
                         [](const ::testing::TestParamInfo<int>& width) {
                           return "H" + std::to_string(width.param);
                         });

// The file format holds any width up to 4096 (the trainer's experiments); the engine refuses a
// width it has no kernels for, naming the ones it evaluates.
TEST(NnueWidths, UnsupportedWidthIsRefusedWithTheSupportedOnesNamed) {
  for (const int h : {200, 64, 96, 129, 640, 1024}) {
    const auto p = random_parameters(91, 200, kDefaultKingBuckets, h);
    const std::vector<std::uint8_t> bytes = serialize(p);
    ASSERT_FALSE(bytes.empty()) << h;
    std::string error;
    EXPECT_TRUE(parse(bytes, error)) << h << ": " << error;
    EXPECT_FALSE(Network::from_bytes(bytes, error)) << h;
    EXPECT_NE(error.find("wrong architecture: hidden size " + std::to_string(h) + ","),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("128, 256, 384 or 512"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace tessera::eval::nnue
