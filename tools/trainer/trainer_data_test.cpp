// The loader must filter and split by game, and bad files and bad command lines must be refused
// with a message.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cli.h"
#include "core/movegen.h"
#include "core/packed_position.h"
#include "datagen/record_file.h"
#include "dataset.h"
#include "eval/nnue/network.h"
#include "eval/nnue/network_file.h"
#include "quantise.h"
#include "temp_dir.h"
#include "trainer.h"
#include "trainer_test_support.h"

namespace tessera::trainer {
namespace {

using namespace test_support;

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
