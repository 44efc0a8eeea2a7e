// The Engine's network: the embedded one loads, EvalFile loads another at once, and a missing,
// truncated, foreign or wrong-architecture file is refused with its reason while the previous
// network stays in use.
#include <gtest/gtest.h>

#include <algorithm>
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

// The default network widened to each wider width with dead lanes (zero weights, zero bias, so
// each extra lane's activation is 0): the same function of the board in a file of another
// width, so a search must count exactly the nodes it counts with the default network while the
// kernels of that width run underneath.
TEST(EngineNetwork, WidenedCopiesOfTheDefaultNetworkSearchTheSame) {
  std::string error;
  const auto params = eval::nnue::parse(embedded_bytes(), error);
  ASSERT_TRUE(params.has_value()) << error;
  const auto narrow = std::size_t(params->hidden);
  for (const int width : eval::nnue::kHiddenSizes) {
    if (std::size_t(width) == narrow) continue;
    const auto h = std::size_t(width);
    auto wide = eval::nnue::NetworkParameters::zeros(std::uint32_t(width), params->buckets,
                                                     params->king_buckets);
    wide.scale = params->scale;
    wide.out_bias = params->out_bias;
    for (std::size_t f = 0; f < params->ft_weights.size() / narrow; ++f)
      std::copy_n(params->ft_weights.begin() + std::ptrdiff_t(f * narrow), narrow,
                  wide.ft_weights.begin() + std::ptrdiff_t(f * h));
    std::copy(params->ft_bias.begin(), params->ft_bias.end(), wide.ft_bias.begin());
    for (std::size_t half = 0; half < 2 * params->buckets; ++half)
      std::copy_n(params->out_weights.begin() + std::ptrdiff_t(half * narrow), narrow,
                  wide.out_weights.begin() + std::ptrdiff_t(half * h));
    const auto path = scratch("wide" + std::to_string(width) + ".tnn");
    write_bytes(path, eval::nnue::serialize(wide));

    Engine plain(EngineCallbacks{}), widened(EngineCallbacks{});
    plain.set_use_network(true);
    widened.set_use_network(true);
    ASSERT_EQ(widened.set_eval_file(path.string()), "") << width;
    // The description names the loaded width: a GUI's user can see which network plays.
    EXPECT_NE(widened.network_description().find(" -> " + std::to_string(width) + ") x 2"),
              std::string::npos)
        << widened.network_description();
    EXPECT_NE(plain.network_description().find("(768 -> 128) x 2"), std::string::npos)
        << plain.network_description();
    for (const auto& [fen, depth] : std::vector<std::pair<std::string, int>>{
             {"8/2p5/3k4/8/3P4/4K3/5N2/r6R w - - 0 1", 12},
             {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6}}) {
      ASSERT_EQ(plain.set_position(fen, {}), "");
      ASSERT_EQ(widened.set_position(fen, {}), "");
      SearchLimits limits;
      limits.depth = depth;
      EXPECT_EQ(widened.search_sync(limits), plain.search_sync(limits)) << width << " " << fen;
    }
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
  const auto narrow = eval::nnue::NetworkParameters::zeros(64);  // widths the engine lacks
  const auto odd = eval::nnue::NetworkParameters::zeros(200);

  const std::vector<std::pair<std::string, std::vector<std::uint8_t>>> files = {
      {"truncated.tnn", truncated},
      {"magic.tnn", wrong_magic},
      {"narrow.tnn", eval::nnue::serialize(narrow)},
      {"odd.tnn", eval::nnue::serialize(odd)},
      {"empty.tnn", {}},
  };
  for (const auto& [name, content] : files) {
    const auto path = scratch(name);
    write_bytes(path, content);
    const std::string refusal = engine.set_eval_file(path.string());
    EXPECT_NE(refusal, "") << name;
    EXPECT_NE(refusal.find(path.string()), std::string::npos) << refusal;
    if (name == "odd.tnn") {  // a well-formed file of a width without kernels: the widths named
      EXPECT_NE(refusal.find("hidden size 200, this build evaluates 128, 256, 384 or 512"),
                std::string::npos)
          << refusal;
    }
    EXPECT_EQ(engine.network_description(), description) << name;
    EXPECT_EQ(engine.network_trace(pos)->score, score) << name;
  }
  EXPECT_NE(engine.set_eval_file(scratch("missing.tnn").string()), "");
  EXPECT_EQ(engine.network_description(), description);

  // The engine still searches with the network it kept.
  ASSERT_EQ(engine.set_position(std::string(Position::kStartFen), {}), "");
  SearchLimits limits;
  limits.depth = 4;
  engine.search_sync(limits, search::Reports::All);
  EXPECT_TRUE(engine.network_in_use());
}

}  // namespace
}  // namespace tessera::engine
