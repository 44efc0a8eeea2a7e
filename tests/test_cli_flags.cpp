// The command line's shared flags: selfplay and datagen read the same --games, --nodes, ...
// but each has its own defaults, so a flag that is not given must leave each command's value.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/datagen_command.h"
#include "cli/selfplay.h"

namespace tessera::cli {
namespace {

cxxopts::ParseResult parse(std::vector<const char*> args) {
  args.insert(args.begin(), "tessera");
  cxxopts::Options options = make_cli_options();
  return options.parse(int(args.size()), args.data());
}

TEST(CliFlags, SelfplayDefaultsWhenNoFlagIsGiven) {
  std::string error;
  const auto config = selfplay_config(parse({"selfplay"}), error);
  ASSERT_TRUE(config) << error;
  const SelfplayConfig defaults;
  EXPECT_EQ(config->games, 10);
  EXPECT_EQ(config->nodes, 0u);
  EXPECT_EQ(config->base_ms, 1000);
  EXPECT_EQ(config->increment_ms, 10);
  EXPECT_EQ(config->threads, defaults.threads);
  EXPECT_EQ(config->hash_mb, defaults.hash_mb);
  EXPECT_EQ(config->random_plies, 8);
  EXPECT_EQ(config->max_plies, 400);
}

TEST(CliFlags, DatagenKeepsItsOwnDefaults) {
  std::string error;
  const auto config = datagen_config(parse({"datagen", "--output", "x.bin.zst"}), error);
  ASSERT_TRUE(config) << error;
  EXPECT_EQ(config->games, 100);
  EXPECT_EQ(config->nodes, 5000u);
  EXPECT_EQ(config->depth, 0);
  EXPECT_EQ(config->random_plies, 8);
  EXPECT_EQ(config->threads, 1);
  EXPECT_EQ(config->output, "x.bin.zst");

  const auto with_book =
      datagen_config(parse({"datagen", "--output", "x", "--openings", "uho.epd"}), error);
  ASSERT_TRUE(with_book) << error;
  EXPECT_EQ(with_book->random_plies, 0);
  const auto with_both = datagen_config(
      parse({"datagen", "--output", "x", "--openings", "uho.epd", "--random-plies", "2"}), error);
  ASSERT_TRUE(with_both) << error;
  EXPECT_EQ(with_both->random_plies, 2);
}

TEST(CliFlags, SharedFlagsReachBothCommands) {
  std::string error;
  const auto args = parse({"datagen", "--output", "x", "--games", "7", "--nodes", "1234",
                           "--threads", "2", "--hash", "8", "--seed", "9", "--max-plies", "300"});
  const auto datagen = datagen_config(args, error);
  ASSERT_TRUE(datagen) << error;
  EXPECT_EQ(datagen->games, 7);
  EXPECT_EQ(datagen->nodes, 1234u);
  EXPECT_EQ(datagen->threads, 2);
  EXPECT_EQ(datagen->hash_mb, 8u);
  EXPECT_EQ(datagen->seed, 9u);
  EXPECT_EQ(datagen->max_plies, 300);
  const auto selfplay = selfplay_config(args, error);
  ASSERT_TRUE(selfplay) << error;
  EXPECT_EQ(selfplay->games, 7);
  EXPECT_EQ(selfplay->nodes, 1234u);
  EXPECT_EQ(selfplay->max_plies, 300);
}

TEST(CliFlags, OutOfRangeValuesNameTheFlag) {
  std::string error;
  EXPECT_FALSE(selfplay_config(parse({"selfplay", "--games", "0"}), error));
  EXPECT_NE(error.find("--games"), std::string::npos) << error;
  EXPECT_FALSE(datagen_config(parse({"datagen", "--output", "x", "--nodes", "0"}), error));
  EXPECT_NE(error.find("--nodes"), std::string::npos) << error;
  EXPECT_FALSE(selfplay_config(parse({"selfplay", "--tc", "fast"}), error));
  EXPECT_NE(error.find("--tc"), std::string::npos) << error;
  EXPECT_FALSE(datagen_config(parse({"datagen", "--output", "x", "--threads", "two"}), error));
  EXPECT_NE(error.find("--threads"), std::string::npos) << error;
}

TEST(CliFlags, HelpGivesEachCommandsDefaults) {
  const std::string help = cli_help();
  EXPECT_NE(help.find("selfplay 10, datagen 100"), std::string::npos) << help;
  EXPECT_NE(help.find("datagen 5000"), std::string::npos) << help;
  // A cxxopts default would print a single value for both commands.
  EXPECT_EQ(help.find("--games arg (default"), std::string::npos) << help;
}

}  // namespace
}  // namespace tessera::cli
