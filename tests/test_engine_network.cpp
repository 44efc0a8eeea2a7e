// The Engine's network: the embedded one loads, EvalFile loads another at once, and a missing,
// truncated, foreign or wrong-architecture file is refused with its reason while the previous
// network stays in use.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "eval/nnue/embedded.h"
#include "eval/nnue/network_file.h"
#include "eval/nnue/trace.h"
#include "test_core_support.h"

namespace tessera::engine {
namespace {

std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "tessera-engine-network";
  std::filesystem::create_directories(dir);
  return dir / name;
}

void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<std::uint8_t> embedded_bytes() {
  const auto span = eval::nnue::embedded_network_bytes();
  return {span.begin(), span.end()};
}

TEST(EngineNetwork, EmbeddedNetworkLoadsAndEvalFileReplacesIt) {
  Engine engine(EngineCallbacks{});
  EXPECT_NE(engine.network_description().find("<default>"), std::string::npos);
  const Position pos = Position::startpos();
  const auto before = engine.network_trace(pos);
  ASSERT_TRUE(before.has_value());

  // The same network with its output bias moved: a different file that scores differently.
  std::string error;
  auto params = eval::nnue::parse(embedded_bytes(), error);
  ASSERT_TRUE(params.has_value()) << error;
  for (auto& bias : params->out_bias) bias += 255 * 64;  // +1.0 of output: `scale` centipawns
  const auto path = scratch("shifted.tnn");
  write_bytes(path, eval::nnue::serialize(*params));
  EXPECT_EQ(engine.set_eval_file(path.string()), "");
  EXPECT_NE(engine.network_description().find(path.string()), std::string::npos);
  const auto after = engine.network_trace(pos);
  ASSERT_TRUE(after.has_value());
  EXPECT_GT(after->score, before->score);

  EXPECT_EQ(engine.set_eval_file("<default>"), "");
  EXPECT_EQ(engine.network_trace(pos)->score, before->score);
}

// The default network's first layer copied into each of the default layout's four king
// buckets, without mirroring: the same function of the board in a version-2 file, so a search
// must count exactly the nodes it counts with the default network, while the bucketed path runs
// underneath (king views, and halves rebuilt through the accumulator cache when a king changes
// bucket).
TEST(EngineNetwork, KingBucketCopiesOfTheDefaultNetworkSearchTheSame) {
  std::string error;
  const auto params = eval::nnue::parse(embedded_bytes(), error);
  ASSERT_TRUE(params.has_value()) << error;
  auto bucketed = *params;
  bucketed.king_buckets = eval::nnue::kDefaultKingBuckets;
  bucketed.king_buckets.mirrored = false;
  bucketed.ft_weights.clear();
  for (int b = 0; b < bucketed.king_buckets.count; ++b)
    bucketed.ft_weights.insert(bucketed.ft_weights.end(), params->ft_weights.begin(),
                               params->ft_weights.end());
  const auto path = scratch("bucketed.tnn");
  write_bytes(path, eval::nnue::serialize(bucketed));

  Engine plain(EngineCallbacks{}), buckets(EngineCallbacks{});
  plain.set_use_network(true);
  buckets.set_use_network(true);
  ASSERT_EQ(buckets.set_eval_file(path.string()), "");
  for (const auto& [fen, depth] : std::vector<std::pair<std::string, int>>{
           {"8/2p5/3k4/8/3P4/4K3/5N2/r6R w - - 0 1", 14},
           {"8/8/4k3/3p4/4P3/3K4/8/8 b - - 0 1", 18},
           {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 7}}) {
    ASSERT_EQ(plain.set_position(fen, {}), "");
    ASSERT_EQ(buckets.set_position(fen, {}), "");
    SearchLimits limits;
    limits.depth = depth;
    EXPECT_EQ(buckets.search_sync(limits), plain.search_sync(limits)) << fen;
  }
}

TEST(EngineNetwork, BadFilesAreRefusedAndThePreviousNetworkStays) {
  Engine engine(EngineCallbacks{});
  engine.set_use_network(true);
  const Position pos = Position::startpos();
  const int score = engine.network_trace(pos)->score;
  const std::string description = engine.network_description();

  const auto bytes = embedded_bytes();
  std::vector<std::uint8_t> truncated(bytes.begin(), bytes.begin() + long(bytes.size() / 2));
  std::vector<std::uint8_t> wrong_magic = bytes;
  wrong_magic[0] ^= 0xFF;
  std::string error;
  auto params = eval::nnue::parse(bytes, error);
  ASSERT_TRUE(params.has_value());
  const auto wide = eval::nnue::NetworkParameters::zeros(64);  // another hidden size

  const std::vector<std::pair<std::string, std::vector<std::uint8_t>>> files = {
      {"truncated.tnn", truncated},
      {"magic.tnn", wrong_magic},
      {"wide.tnn", eval::nnue::serialize(wide)},
      {"empty.tnn", {}},
  };
  for (const auto& [name, content] : files) {
    const auto path = scratch(name);
    write_bytes(path, content);
    const std::string refusal = engine.set_eval_file(path.string());
    EXPECT_NE(refusal, "") << name;
    EXPECT_NE(refusal.find(path.string()), std::string::npos) << refusal;
    EXPECT_EQ(engine.network_description(), description) << name;
    EXPECT_EQ(engine.network_trace(pos)->score, score) << name;
  }
  EXPECT_NE(engine.set_eval_file(scratch("missing.tnn").string()), "");
  EXPECT_EQ(engine.network_description(), description);

  // The engine still searches with the network it kept.
  ASSERT_EQ(engine.set_position(std::string(Position::kStartFen), {}), "");
  SearchLimits limits;
  limits.depth = 4;
  engine.search_sync(limits, true);
  EXPECT_TRUE(engine.network_in_use());
}

}  // namespace
}  // namespace tessera::engine
