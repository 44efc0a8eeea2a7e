// The network file format (eval/nnue/network_file.h): round trips through bytes and files, the
// documented header layout, each kind of bad file refused with its own reason, and random
// corruption that is always refused without a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "eval/nnue/network_file.h"
#include "temp_dir.h"

namespace tessera::eval::nnue {
namespace {

using Bytes = std::vector<std::uint8_t>;

// Parameters with every value distinct enough that a swapped or shifted field shows.
[[nodiscard]] NetworkParameters sample_parameters(
    std::uint32_t hidden = kHidden, std::uint64_t seed = 1, std::uint32_t buckets = 1,
    const KingBuckets& king_buckets = kSingleKingBucket) {
  std::mt19937_64 rng(seed);
  auto p = NetworkParameters::zeros(hidden, buckets, king_buckets);
  p.scale = 377;
  for (auto& v : p.ft_weights) v = std::int16_t(int(rng() % 65536) - 32768);
  for (auto& v : p.ft_bias) v = std::int16_t(int(rng() % 65536) - 32768);
  for (auto& v : p.out_weights) v = std::int16_t(int(rng() % 255) - 127);
  for (auto& v : p.out_bias) v = std::int32_t(std::uint32_t(rng()));
  return p;
}

[[nodiscard]] std::uint32_t read_u32(const Bytes& b, std::size_t at) {
  return std::uint32_t(b[at]) | std::uint32_t(b[at + 1]) << 8 | std::uint32_t(b[at + 2]) << 16 |
         std::uint32_t(b[at + 3]) << 24;
}

void write_u32(Bytes& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + std::size_t(i)] = std::uint8_t(v >> (8 * i));
}

// Recomputes the header checksum after a deliberate payload edit.
void reseal(Bytes& b) {
  const std::uint64_t sum = fnv1a64(std::span<const std::uint8_t>(b).subspan(kHeaderSize));
  for (int i = 0; i < 8; ++i) b[36 + std::size_t(i)] = std::uint8_t(sum >> (8 * i));
}

// The error `bytes` is refused with; fails the test when they parse.
[[nodiscard]] std::string refusal(const Bytes& bytes) {
  std::string error;
  const auto parsed = parse(bytes, error);
  EXPECT_FALSE(parsed) << "parsed although it should not";
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  return error;
}

TEST(NnueFile, RoundTripThroughBytes) {
  const auto p = sample_parameters();
  const auto bytes = serialize(p);
  ASSERT_EQ(bytes.size(), kHeaderSize + 2 * (768 * kHidden + kHidden + 2 * kHidden) + 4);
  std::string error;
  const auto back = parse(bytes, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, p);
  // With every output bucket: eight output layers and biases.
  const auto eight = sample_parameters(kHidden, 2, kOutputBuckets);
  const auto eight_bytes = serialize(eight);
  ASSERT_EQ(eight_bytes.size(), kHeaderSize +
                                    2 * (768 * kHidden + kHidden + kOutputBuckets * 2 * kHidden) +
                                    4 * kOutputBuckets);
  const auto eight_back = parse(eight_bytes, error);
  ASSERT_TRUE(eight_back) << error;
  EXPECT_EQ(*eight_back, eight);
}

TEST(NnueFile, HeaderAndPayloadLayout) {
  auto p = NetworkParameters::zeros();
  p.scale = 400;
  p.ft_weights[0] = 0x1234;
  p.ft_weights[1] = -2;            // feature 0, hidden 1
  p.ft_weights[kHidden] = 0x0102;  // feature 1, hidden 0: feature-major
  p.ft_bias[0] = 0x0a0b;
  p.out_weights[0] = 5;         // side to move, hidden 0
  p.out_weights[kHidden] = -7;  // other side, hidden 0
  p.out_bias[0] = -0x01020304;
  const auto b = serialize(p);
  ASSERT_FALSE(b.empty());
  EXPECT_EQ(0, std::memcmp(b.data(), "TSNN\r\n\x1a\n", 8));
  EXPECT_EQ(read_u32(b, 8), 1u);
  EXPECT_EQ(read_u32(b, 12), 768u);
  EXPECT_EQ(read_u32(b, 16), std::uint32_t(kHidden));
  EXPECT_EQ(read_u32(b, 20), 1u);
  EXPECT_EQ(read_u32(b, 24), 255u);
  EXPECT_EQ(read_u32(b, 28), 64u);
  EXPECT_EQ(read_u32(b, 32), 400u);
  const std::size_t ft = kHeaderSize;
  EXPECT_EQ(b[ft], 0x34);  // little-endian
  EXPECT_EQ(b[ft + 1], 0x12);
  EXPECT_EQ(b[ft + 2], 0xfe);
  EXPECT_EQ(b[ft + 3], 0xff);
  EXPECT_EQ(b[ft + 2 * kHidden], 0x02);
  const std::size_t bias = ft + 2 * std::size_t(kInputs) * kHidden;
  EXPECT_EQ(b[bias], 0x0b);
  EXPECT_EQ(b[bias + 1], 0x0a);
  const std::size_t out = bias + 2 * kHidden;
  EXPECT_EQ(b[out], 5);
  EXPECT_EQ(b[out + 2 * kHidden], 0xf9);
  EXPECT_EQ(b[out + 2 * kHidden + 1], 0xff);
  const std::size_t out_bias = out + 4 * kHidden;
  EXPECT_EQ(read_u32(b, out_bias), std::uint32_t(-0x01020304));
  EXPECT_EQ(out_bias + 4, b.size());
  // The checksum is FNV-1a 64 of the payload; the standard test vector pins the algorithm.
  const std::uint8_t a = 'a';
  EXPECT_EQ(fnv1a64({&a, 1}), 0xaf63dc4c8601ec8cULL);
  std::uint64_t stored = 0;
  for (int i = 0; i < 8; ++i) stored |= std::uint64_t(b[36 + std::size_t(i)]) << (8 * i);
  EXPECT_EQ(stored, fnv1a64(std::span<const std::uint8_t>(b).subspan(kHeaderSize)));
}

TEST(NnueFile, RoundTripThroughFile) {
  test::TempDir dir;
  const auto p = sample_parameters(kHidden, 7);
  const std::string path = dir.file("net.tnn");
  std::string error;
  ASSERT_TRUE(write_network_file(path, p, error)) << error;
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  const auto back = read_network_file(path, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, p);
  // Overwriting replaces the file whole.
  const auto q = sample_parameters(kHidden, 8);
  ASSERT_TRUE(write_network_file(path, q, error)) << error;
  const auto again = read_network_file(path, error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(*again, q);
}

TEST(NnueFile, FileErrorsNameTheFile) {
  test::TempDir dir;
  std::string error;
  EXPECT_FALSE(read_network_file(dir.file("missing.tnn"), error));
  EXPECT_NE(error.find("missing.tnn"), std::string::npos) << error;
  const std::string text = dir.file("text.tnn");
  std::ofstream(text) << "not a network\n";
  EXPECT_FALSE(read_network_file(text, error));
  EXPECT_NE(error.find("text.tnn"), std::string::npos) << error;
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;
  EXPECT_FALSE(write_network_file(dir.file("no/such/dir/net.tnn"), sample_parameters(), error));
  EXPECT_NE(error.find("net.tnn"), std::string::npos) << error;
}

TEST(NnueFile, InvalidParametersAreNotWritten) {
  auto p = sample_parameters();
  p.out_weights[3] = 128;  // beyond what the kernels may multiply in int16
  EXPECT_NE(validate(p).find("outside"), std::string::npos);
  EXPECT_TRUE(serialize(p).empty());
  p = sample_parameters();
  p.ft_bias.pop_back();
  EXPECT_NE(validate(p).find("do not match"), std::string::npos);
  p = sample_parameters();
  p.scale = 0;
  EXPECT_NE(validate(p).find("scale"), std::string::npos);
  p = sample_parameters();
  p.buckets = 2;
  EXPECT_NE(validate(p).find("bucket"), std::string::npos);
  test::TempDir dir;
  std::string error;
  EXPECT_FALSE(write_network_file(dir.file("bad.tnn"), p, error));
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.tnn")));
}

TEST(NnueFile, TruncatedIsRefused) {
  const auto good = serialize(sample_parameters());
  EXPECT_NE(refusal({}).find("truncated"), std::string::npos);
  EXPECT_NE(refusal(Bytes(good.begin(), good.begin() + 43)).find("truncated"), std::string::npos);
  EXPECT_NE(refusal(Bytes(good.begin(), good.begin() + 44)).find("truncated"), std::string::npos);
  EXPECT_NE(refusal(Bytes(good.begin(), good.end() - 1)).find("truncated"), std::string::npos);
}

TEST(NnueFile, ExtraBytesAreRefused) {
  auto b = serialize(sample_parameters());
  b.push_back(0);
  EXPECT_NE(refusal(b).find("extra bytes"), std::string::npos);
}

TEST(NnueFile, WrongMagicIsRefused) {
  auto b = serialize(sample_parameters());
  b[3] = 'X';
  EXPECT_NE(refusal(b).find("magic"), std::string::npos);
  b = serialize(sample_parameters());
  b[4] = '\n';  // what a text-mode CRLF -> LF conversion would leave
  EXPECT_NE(refusal(b).find("magic"), std::string::npos);
}

TEST(NnueFile, WrongVersionIsRefused) {
  auto b = serialize(sample_parameters());
  write_u32(b, 8, 3);
  EXPECT_NE(refusal(b).find("version 3"), std::string::npos);
  write_u32(b, 8, 0);
  EXPECT_NE(refusal(b).find("version 0"), std::string::npos);
}

// Version 2: the king-bucket block after the common header, covered by the checksum.
[[nodiscard]] NetworkParameters bucketed_parameters(std::uint64_t seed = 3) {
  return sample_parameters(kHidden, seed, kOutputBuckets, kDefaultKingBuckets);
}

TEST(NnueFile, KingBucketsRoundTripInVersionTwo) {
  const auto p = bucketed_parameters();
  const auto b = serialize(p);
  ASSERT_FALSE(b.empty());
  EXPECT_EQ(read_u32(b, 8), kKingBucketsFormatVersion);
  EXPECT_EQ(read_u32(b, 44), 4u);  // king buckets
  EXPECT_EQ(read_u32(b, 48), 1u);  // mirrored
  EXPECT_TRUE(
      std::equal(kDefaultKingBuckets.map.begin(), kDefaultKingBuckets.map.end(), b.begin() + 52));
  EXPECT_EQ(b.size(), kKingBucketsHeaderSize +
                          2 * (4 * std::size_t(kInputs) * kHidden + kHidden +
                               std::size_t(kOutputBuckets) * 2 * kHidden) +
                          4 * std::size_t(kOutputBuckets));
  // The first-layer payload is bucket-major: bucket 1's first row follows bucket 0's block.
  const std::size_t row = kKingBucketsHeaderSize + 2 * std::size_t(kInputs) * kHidden;
  EXPECT_EQ(std::int16_t(b[row] | b[row + 1] << 8), p.ft_weights[std::size_t(kInputs) * kHidden]);
  std::string error;
  const auto back = parse(b, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, p);
  // Without mirroring, and with another map, the layout still comes back exactly.
  auto q = bucketed_parameters(4);
  q.king_buckets.mirrored = false;
  q.king_buckets.map[31] = 0;
  q.king_buckets.map[0] = 3;
  const auto back2 = parse(serialize(q), error);
  ASSERT_TRUE(back2) << error;
  EXPECT_EQ(*back2, q);
  EXPECT_FALSE(back2->king_buckets.mirrored);
}

// The single-bucket layout is version 1, byte for byte; a version-2 file that spells it out
// reads as the same network.
TEST(NnueFile, SingleKingBucketIsVersionOne) {
  const auto p = sample_parameters();
  const auto v1 = serialize(p);
  EXPECT_EQ(read_u32(v1, 8), kFormatVersion);
  Bytes v2(v1.begin(), v1.begin() + std::ptrdiff_t(kHeaderSize));
  write_u32(v2, 8, kKingBucketsFormatVersion);
  v2.resize(kKingBucketsHeaderSize, 0);
  write_u32(v2, 44, 1);  // one king bucket, not mirrored, every map entry 0
  v2.insert(v2.end(), v1.begin() + std::ptrdiff_t(kHeaderSize), v1.end());
  reseal(v2);
  std::string error;
  const auto back = parse(v2, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, p);
  EXPECT_EQ(serialize(*back), v1);
}

TEST(NnueFile, BadKingBucketsAreRefused) {
  const auto good = serialize(bucketed_parameters());
  auto b = good;
  b[52 + 7] = 4;  // a map entry beyond the 4 buckets
  reseal(b);
  EXPECT_NE(refusal(b).find("map entry 7 is 4"), std::string::npos) << refusal(b);
  b = good;
  write_u32(b, 44, 5);  // 5 buckets, but the map names only 4 of them
  reseal(b);
  EXPECT_NE(refusal(b).find("king bucket 4 of 5 is never used"), std::string::npos);
  b = good;
  write_u32(b, 44, 3);  // 3 buckets, but the map names a fourth
  reseal(b);
  EXPECT_NE(refusal(b).find("beyond the 3 king buckets"), std::string::npos);
  b = good;
  write_u32(b, 44, 0);
  reseal(b);
  EXPECT_NE(refusal(b).find("0 king buckets"), std::string::npos);
  b = good;
  write_u32(b, 44, 0xffffffffu);  // absurd: must not be used to size anything
  reseal(b);
  EXPECT_NE(refusal(b).find("king buckets"), std::string::npos);
  b = good;
  write_u32(b, 48, 2);
  reseal(b);
  EXPECT_NE(refusal(b).find("mirroring flag 2"), std::string::npos);
  // The block is covered by the checksum.
  b = good;
  b[52] ^= 0x01;
  EXPECT_NE(refusal(b).find("checksum"), std::string::npos);
  // A layout that does not fit is not written either.
  auto p = bucketed_parameters();
  p.king_buckets.map[3] = 9;
  EXPECT_TRUE(serialize(p).empty());
  EXPECT_NE(validate(p).find("map entry 3"), std::string::npos);
  p = bucketed_parameters();
  p.ft_weights.resize(p.ft_weights.size() - std::size_t(kHidden));
  EXPECT_NE(validate(p).find("do not match"), std::string::npos);
}

TEST(NnueFile, TruncatedKingBucketFileIsRefused) {
  const auto good = serialize(bucketed_parameters());
  for (const std::size_t size : {std::size_t(50), kKingBucketsHeaderSize - 1,
                                 kKingBucketsHeaderSize, good.size() / 2, good.size() - 1})
    EXPECT_NE(refusal(Bytes(good.begin(), good.begin() + std::ptrdiff_t(size))).find("truncated"),
              std::string::npos)
        << size;
  // A version-1 file that claims to be version 2: its payload is no king-bucket block.
  auto b = serialize(sample_parameters());
  write_u32(b, 8, kKingBucketsFormatVersion);
  EXPECT_FALSE(refusal(b).empty());
  auto extra = good;
  extra.push_back(0);
  reseal(extra);
  EXPECT_NE(refusal(extra).find("extra bytes"), std::string::npos);
}

TEST(NnueFile, HiddenSizeOutsideTheFormatIsRefused) {
  // Any width up to 4096 is a well-formed file (the engine then evaluates some of them:
  // test_nnue_widths.cpp); beyond it the architecture, not the length, is named.
  for (const std::uint32_t hidden : {2u * kHidden, 200u}) {
    std::string error;
    EXPECT_TRUE(parse(serialize(sample_parameters(hidden)), error)) << hidden << ": " << error;
  }
  for (const std::uint32_t hidden : {0u, 4097u, 0xffffffffu}) {  // must not size anything
    auto c = serialize(sample_parameters());
    write_u32(c, 16, hidden);
    EXPECT_NE(refusal(c).find("wrong architecture"), std::string::npos) << hidden;
  }
}

TEST(NnueFile, OtherHeaderFieldsAreChecked) {
  auto b = serialize(sample_parameters());
  write_u32(b, 12, 769);
  EXPECT_NE(refusal(b).find("wrong architecture"), std::string::npos);
  b = serialize(sample_parameters());
  write_u32(b, 20, 3);
  EXPECT_NE(refusal(b).find("output buckets"), std::string::npos);
  // Eight buckets is a valid count, but this file's payload holds one.
  b = serialize(sample_parameters());
  write_u32(b, 20, kOutputBuckets);
  EXPECT_NE(refusal(b).find("truncated"), std::string::npos);
  b = serialize(sample_parameters());
  write_u32(b, 24, 127);
  EXPECT_NE(refusal(b).find("quantisation"), std::string::npos);
  b = serialize(sample_parameters());
  write_u32(b, 28, 128);
  EXPECT_NE(refusal(b).find("quantisation"), std::string::npos);
  b = serialize(sample_parameters());
  write_u32(b, 32, 0);
  EXPECT_NE(refusal(b).find("scale"), std::string::npos);
}

TEST(NnueFile, BadChecksumIsRefused) {
  auto b = serialize(sample_parameters());
  b[kHeaderSize + 1000] ^= 0x10;
  EXPECT_NE(refusal(b).find("checksum"), std::string::npos);
  b = serialize(sample_parameters());
  b[40] ^= 0x01;  // the stored checksum itself
  EXPECT_NE(refusal(b).find("checksum"), std::string::npos);
}

TEST(NnueFile, OutputWeightBeyondKernelRangeIsRefused) {
  auto b = serialize(sample_parameters());
  const std::size_t out = kHeaderSize + 2 * (std::size_t(kInputs) * kHidden + kHidden);
  b[out] = 0x80;  // 128
  b[out + 1] = 0x00;
  reseal(b);
  EXPECT_NE(refusal(b).find("outside"), std::string::npos);
}

// Random flips, cuts and overwrites anywhere: every damaged file is refused (a flip in the
// payload by the checksum) with a one-line error, and nothing crashes. The one exception is the
// scale field, which the payload checksum does not cover.
TEST(NnueFile, RandomCorruptionIsAlwaysRefused) {
  const auto good = serialize(sample_parameters());
  std::mt19937_64 rng(2026);
  for (int trial = 0; trial < 3000; ++trial) {
    Bytes b = good;
    switch (trial % 4) {
      case 0: {  // one to four bit flips
        const int flips = 1 + int(rng() % 4);
        for (int i = 0; i < flips; ++i) b[rng() % b.size()] ^= std::uint8_t(1u << (rng() % 8));
        break;
      }
      case 1:  // a flip in the header
        b[rng() % kHeaderSize] ^= std::uint8_t(1 + rng() % 255);
        break;
      case 2:  // cut anywhere
        b.resize(rng() % b.size());
        break;
      default: {  // a run of random bytes somewhere, possibly past the end
        const std::size_t at = rng() % b.size();
        const std::size_t len = 1 + rng() % 64;
        if (at + len > b.size()) b.resize(at + len);
        for (std::size_t i = 0; i < len; ++i) b[at + i] = std::uint8_t(rng());
        break;
      }
    }
    if (b == good) continue;  // a flip undone by another
    std::string error;
    const auto parsed = parse(b, error);
    // The checksum covers the payload only: a scale edited to another valid value is a valid
    // file, and must then read back as exactly that scale with the payload untouched.
    if (parsed && b.size() == good.size() && std::equal(b.begin(), b.begin() + 32, good.begin()) &&
        std::equal(b.begin() + 36, b.end(), good.begin() + 36)) {
      EXPECT_EQ(std::uint32_t(parsed->scale), read_u32(b, 32));
      continue;
    }
    ASSERT_FALSE(parsed) << "trial " << trial << " parsed a damaged file";
    ASSERT_FALSE(error.empty());
    ASSERT_EQ(error.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace tessera::eval::nnue
