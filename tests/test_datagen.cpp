// Self-play training data: the 32-byte record (layout, round trip, rejection of bad bytes), the
// zstd record file (round trip, appending, files cut at every offset, raw and corrupt data),
// and `datagen` itself (byte-identical output for a seed whatever the thread count, records
// that agree with the games they come from). Built only with TESSERA_DATAGEN.
#if TESSERA_DATAGEN
#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "datagen/datagen.h"
#include "datagen/record.h"
#include "datagen/record_file.h"
#include "temp_dir.h"

namespace tessera {
namespace {

using datagen::GameResult;
using datagen::RecordReader;
using datagen::RecordWriter;
using datagen::TrainingRecord;
namespace fs = std::filesystem;
using Bytes = std::array<std::uint8_t, TrainingRecord::kSize>;

using test::TempDir;

using test::read_bytes;
using test::write_bytes;

[[nodiscard]] Position from_fen(const std::string& fen) {
  std::string error;
  auto pos = Position::from_fen(fen, false, error);
  EXPECT_TRUE(pos) << fen << ": " << error;
  return pos ? *pos : Position::startpos();
}

[[nodiscard]] TrainingRecord make_record(const Position& pos, int score, GameResult result,
                                         int ply) {
  TrainingRecord r;
  r.position = encode(pos);
  r.score_white = std::int16_t(score);
  r.result = result;
  r.flags = pos.in_check() ? TrainingRecord::kInCheck : TrainingRecord::kQuiet;
  r.ply = std::uint16_t(ply);
  r.rule50 = std::uint8_t(std::min(pos.rule50(), 255));
  return r;
}

// `count` records from random games, varied in every field.
[[nodiscard]] std::vector<TrainingRecord> random_records(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<TrainingRecord> records;
  Position pos = Position::startpos();
  while (records.size() < count) {
    const MoveList<> moves(pos);
    if (moves.empty() || pos.is_draw(0) || pos.game_ply() > 200) {
      pos = Position::startpos();
      continue;
    }
    records.push_back(
        make_record(pos, int(rng() % 64001) - 32000, GameResult(rng() % 3), int(rng() % 65536)));
    pos.make_move(moves[std::size_t(rng() % moves.size())]);
  }
  return records;
}

void expect_same(const TrainingRecord& a, const TrainingRecord& b) {
  EXPECT_EQ(a.to_bytes(), b.to_bytes());
}

void write_file(const std::string& path, const std::vector<TrainingRecord>& records,
                std::size_t flush_every, bool append = false) {
  RecordWriter writer;
  std::string error;
  ASSERT_TRUE(writer.open(path, append, error)) << error;
  for (std::size_t i = 0; i < records.size(); ++i) {
    ASSERT_TRUE(writer.write(records[i]));
    if (flush_every && (i + 1) % flush_every == 0) {
      ASSERT_TRUE(writer.flush());
    }
  }
  ASSERT_TRUE(writer.close()) << writer.error();
}

struct ReadBack {
  std::vector<TrainingRecord> records;
  std::string error;
  bool truncated = false;
};

[[nodiscard]] ReadBack read_file(const std::string& path) {
  ReadBack back;
  RecordReader reader;
  std::string error;
  if (!reader.open(path, error)) {
    back.error = error;
    return back;
  }
  TrainingRecord r;
  while (reader.next(r)) back.records.push_back(r);
  back.error = reader.error();
  back.truncated = reader.truncated();
  return back;
}

// ----- The record

TEST(Record, LayoutIsLittleEndian) {
  TrainingRecord r = make_record(Position::startpos(), -2, GameResult::WhiteWins, 0x1234);
  r.rule50 = 77;
  const Bytes bytes = r.to_bytes();
  EXPECT_TRUE(std::equal(r.position.bytes.begin(), r.position.bytes.end(), bytes.begin()));
  EXPECT_EQ(bytes[24], 0xFE);
  EXPECT_EQ(bytes[25], 0xFF);
  EXPECT_EQ(bytes[26], 2);
  EXPECT_EQ(bytes[27], TrainingRecord::kQuiet);
  EXPECT_EQ(bytes[28], 0x34);
  EXPECT_EQ(bytes[29], 0x12);
  EXPECT_EQ(bytes[30], 77);
  EXPECT_EQ(bytes[31], 0);
}

TEST(Record, RoundTripsThroughBytes) {
  for (const TrainingRecord& r : random_records(2000, 1)) {
    std::string error;
    const auto back = TrainingRecord::from_bytes(r.to_bytes(), error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->position, r.position);
    EXPECT_EQ(back->score_white, r.score_white);
    EXPECT_EQ(back->result, r.result);
    EXPECT_EQ(back->flags, r.flags);
    EXPECT_EQ(back->ply, r.ply);
    EXPECT_EQ(back->rule50, r.rule50);
  }
}

TEST(Record, RefusesBadBytes) {
  // White to move, in check from the knight on f3.
  const Position check = from_fen("4k3/8/8/8/8/5n2/8/4K3 w - - 0 1");
  ASSERT_TRUE(check.in_check());
  const Bytes good = make_record(Position::startpos(), 15, GameResult::Draw, 3).to_bytes();
  const Bytes good_check = make_record(check, 15, GameResult::Draw, 3).to_bytes();
  std::string error;
  ASSERT_TRUE(TrainingRecord::from_bytes(good, error)) << error;
  ASSERT_TRUE(TrainingRecord::from_bytes(good_check, error)) << error;

  const auto refused = [](Bytes bytes, const char* what) {
    std::string why;
    EXPECT_FALSE(TrainingRecord::from_bytes(bytes, why)) << what;
    EXPECT_FALSE(why.empty()) << what;
    return why;
  };
  Bytes b = good;
  b[26] = 3;
  EXPECT_NE(refused(b, "result 3").find("result"), std::string::npos);
  b = good;
  b[27] = 0x04;
  EXPECT_NE(refused(b, "unknown flag").find("flag"), std::string::npos);
  b = good;
  b[27] = TrainingRecord::kInCheck;  // the start position is not in check
  refused(b, "in-check flag without a check");
  b = good_check;
  b[27] = 0;
  refused(b, "a check without the in-check flag");
  b = good_check;
  b[27] = TrainingRecord::kInCheck | TrainingRecord::kQuiet;
  refused(b, "quiet and in check");
  b = good;
  b[31] = 1;
  EXPECT_NE(refused(b, "reserved byte").find("reserved"), std::string::npos);
  b = good;
  b[24] = 0x01;  // 32001
  b[25] = 0x7D;
  refused(b, "score beyond the limit");
  b = good;
  std::fill(b.begin(), b.begin() + 8, 0);  // no pieces at all
  EXPECT_NE(refused(b, "empty board").find("position"), std::string::npos);
}

// ----- The file

TEST(RecordFile, RoundTripsManyRecords) {
  TempDir dir;
  const auto records = random_records(20000, 2);
  const std::string path = dir.file("data.bin.zst");
  write_file(path, records, 3000);
  const ReadBack back = read_file(path);
  EXPECT_EQ(back.error, "");
  ASSERT_EQ(back.records.size(), records.size());
  for (std::size_t i = 0; i < records.size(); ++i) expect_same(back.records[i], records[i]);
  // The records are compressed: a raw file would be 640,000 bytes.
  EXPECT_LT(fs::file_size(path), records.size() * TrainingRecord::kSize * 2 / 3);
}

TEST(RecordFile, EmptyFileHasNoRecords) {
  TempDir dir;
  write_file(dir.file("empty.zst"), {}, 0);
  EXPECT_EQ(fs::file_size(dir.file("empty.zst")), 0u);
  const ReadBack back = read_file(dir.file("empty.zst"));
  EXPECT_EQ(back.error, "");
  EXPECT_TRUE(back.records.empty());
}

TEST(RecordFile, AppendConcatenatesFrames) {
  TempDir dir;
  const auto first = random_records(700, 3);
  const auto second = random_records(500, 4);
  const std::string path = dir.file("data.zst");
  write_file(path, first, 0);
  write_file(path, second, 128, /*append=*/true);
  const ReadBack back = read_file(path);
  EXPECT_EQ(back.error, "");
  ASSERT_EQ(back.records.size(), first.size() + second.size());
  for (std::size_t i = 0; i < first.size(); ++i) expect_same(back.records[i], first[i]);
  for (std::size_t i = 0; i < second.size(); ++i)
    expect_same(back.records[first.size() + i], second[i]);
}

TEST(RecordFile, CutFileGivesAPrefixAndATruncationWarning) {
  TempDir dir;
  const auto records = random_records(600, 5);
  const std::string path = dir.file("data.zst");
  write_file(path, records, 50);  // 12 frames
  const std::vector<std::uint8_t> whole = read_bytes(path);

  // The ends of the frames, from zstd itself: the only places where a cut ends cleanly.
  std::vector<std::size_t> frame_ends;
  for (std::size_t at = 0; at < whole.size();) {
    const std::size_t size = ZSTD_findFrameCompressedSize(whole.data() + at, whole.size() - at);
    ASSERT_FALSE(ZSTD_isError(size));
    frame_ends.push_back(at += size);
  }
  ASSERT_EQ(frame_ends.size(), 12u);

  // Every offset near the start and near each frame boundary, and a sample of the rest (each
  // cut is a file written and read, so all of them would take long on a slow disk).
  std::vector<std::size_t> cuts;
  std::mt19937_64 rng(10);
  for (std::size_t cut = 0; cut < 80; ++cut) cuts.push_back(cut);
  for (const std::size_t end : frame_ends)
    for (std::size_t d = 0; d <= 12; ++d) cuts.insert(cuts.end(), {end - d, end + d});
  for (int i = 0; i < 200; ++i) cuts.push_back(rng() % whole.size());

  for (const std::size_t cut : cuts) {
    if (cut >= whole.size()) continue;
    const std::string cut_path = dir.file("cut.zst");
    write_bytes(cut_path,
                std::vector<std::uint8_t>(whole.begin(), whole.begin() + std::ptrdiff_t(cut)));
    const ReadBack back = read_file(cut_path);
    ASSERT_LE(back.records.size(), records.size()) << "cut at " << cut;
    for (std::size_t i = 0; i < back.records.size(); ++i)
      ASSERT_EQ(back.records[i].to_bytes(), records[i].to_bytes()) << "cut at " << cut;
    const auto frames = std::size_t(std::count_if(frame_ends.begin(), frame_ends.end(),
                                                  [&](std::size_t end) { return end <= cut; }));
    EXPECT_GE(back.records.size(), frames * 50) << "cut at " << cut;
    if (cut == 0 || std::count(frame_ends.begin(), frame_ends.end(), cut)) {
      EXPECT_EQ(back.error, "") << "cut at " << cut;
      EXPECT_EQ(back.records.size(), frames * 50) << "cut at " << cut;
    } else {
      ASSERT_TRUE(back.truncated) << "cut at " << cut << ": " << back.error;
      EXPECT_NE(back.error.find("truncated"), std::string::npos);
    }
  }
}

TEST(RecordFile, RefusesRawRecords) {
  TempDir dir;
  std::vector<std::uint8_t> raw;
  for (const TrainingRecord& r : random_records(10, 6)) {
    const Bytes b = r.to_bytes();
    raw.insert(raw.end(), b.begin(), b.end());
  }
  write_bytes(dir.file("raw.bin"), raw);
  const ReadBack back = read_file(dir.file("raw.bin"));
  EXPECT_TRUE(back.records.empty());
  EXPECT_FALSE(back.truncated);
  EXPECT_NE(back.error.find("not a zstd"), std::string::npos) << back.error;
}

TEST(RecordFile, NamesACorruptRecord) {
  TempDir dir;
  std::vector<std::uint8_t> raw;
  for (const TrainingRecord& r : random_records(5, 7)) {
    const Bytes b = r.to_bytes();
    raw.insert(raw.end(), b.begin(), b.end());
  }
  raw[3 * TrainingRecord::kSize + 31] = 9;  // record 3's reserved byte
  std::vector<std::uint8_t> packed(ZSTD_compressBound(raw.size()));
  const std::size_t size = ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), 3);
  ASSERT_FALSE(ZSTD_isError(size));
  packed.resize(size);
  write_bytes(dir.file("bad.zst"), packed);
  const ReadBack back = read_file(dir.file("bad.zst"));
  EXPECT_EQ(back.records.size(), 3u);
  EXPECT_FALSE(back.truncated);
  EXPECT_NE(back.error.find("record 3"), std::string::npos) << back.error;
}

TEST(RecordFile, DamagedBytesNeverCrash) {
  TempDir dir;
  const auto records = random_records(400, 8);
  const std::string path = dir.file("data.zst");
  write_file(path, records, 100);
  const std::vector<std::uint8_t> whole = read_bytes(path);
  std::mt19937_64 rng(9);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::uint8_t> damaged = whole;
    damaged[4 + rng() % (damaged.size() - 4)] ^= std::uint8_t(1 + rng() % 255);
    write_bytes(dir.file("damaged.zst"), damaged);
    const ReadBack back = read_file(dir.file("damaged.zst"));
    EXPECT_FALSE(back.error.empty()) << "trial " << trial;  // the checksums catch every flip
    EXPECT_LT(back.records.size(), records.size());
  }
}

// ----- datagen

// Runs datagen quietly and returns its exit code.
int run(const datagen::DatagenConfig& config, std::string* summary = nullptr) {
  std::ostringstream out, err;
  const std::atomic<bool> stop{false};
  const int rc = datagen::run_datagen(config, out, err, &stop);
  if (summary) *summary = out.str() + err.str();
  return rc;
}

[[nodiscard]] datagen::DatagenConfig tiny_config(const std::string& output, int threads) {
  datagen::DatagenConfig c;
  c.games = 4;
  c.threads = threads;
  c.nodes = 300;
  c.seed = 11;
  c.hash_mb = 4;
  c.output = output;
  return c;
}

// The move between two successive records of a game, or none().
[[nodiscard]] Move move_between(const Position& from, const PackedPosition& to) {
  for (const Move m : MoveList<>(from)) {
    Position after = from;
    after.make_move(m);
    if (encode(after) == to) return m;
  }
  return Move::none();
}

TEST(Datagen, SameSeedSameBytesWhateverTheThreads) {
  TempDir dir;
  ASSERT_EQ(run(tiny_config(dir.file("a.zst"), 2)), 0);
  ASSERT_EQ(run(tiny_config(dir.file("b.zst"), 2)), 0);
  ASSERT_EQ(run(tiny_config(dir.file("c.zst"), 1)), 0);
  const auto a = read_bytes(dir.file("a.zst"));
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, read_bytes(dir.file("b.zst")));
  EXPECT_EQ(a, read_bytes(dir.file("c.zst")));
  auto other = tiny_config(dir.file("d.zst"), 2);
  other.seed = 12;
  ASSERT_EQ(run(other), 0);
  EXPECT_NE(a, read_bytes(dir.file("d.zst")));
}

// A run stopped after some games and resumed with --append --first-game gives the same bytes
// as one run: what makes a long generation resumable and its manifest reproducible.
TEST(Datagen, AResumedRunGivesTheBytesOfOneRun) {
  TempDir dir;
  ASSERT_EQ(run(tiny_config(dir.file("whole.zst"), 2)), 0);
  auto first = tiny_config(dir.file("resumed.zst"), 1);
  first.games = 3;
  ASSERT_EQ(run(first), 0);
  auto rest = tiny_config(dir.file("resumed.zst"), 2);
  rest.games = 1;
  rest.first_game = 3;
  rest.append = true;
  ASSERT_EQ(run(rest), 0);
  EXPECT_EQ(read_bytes(dir.file("whole.zst")), read_bytes(dir.file("resumed.zst")));
  // Not the first games again: a continuation without the offset differs.
  auto repeated = tiny_config(dir.file("repeated.zst"), 1);
  repeated.games = 3;
  ASSERT_EQ(run(repeated), 0);
  repeated.games = 1;
  repeated.append = true;
  ASSERT_EQ(run(repeated), 0);
  EXPECT_NE(read_bytes(dir.file("whole.zst")), read_bytes(dir.file("repeated.zst")));
}

TEST(Datagen, RecordsAgreeWithTheirGames) {
  TempDir dir;
  auto config = tiny_config(dir.file("games.zst"), 2);
  config.games = 6;
  std::string summary;
  ASSERT_EQ(run(config, &summary), 0) << summary;
  const ReadBack back = read_file(config.output);
  ASSERT_EQ(back.error, "");
  ASSERT_FALSE(back.records.empty());

  int games = 0, checked_moves = 0;
  std::optional<Position> previous;
  for (std::size_t i = 0; i < back.records.size(); ++i) {
    const TrainingRecord& r = back.records[i];
    std::string error;
    const auto pos = decode(r.position, error);
    ASSERT_TRUE(pos) << error;
    EXPECT_EQ(r.in_check(), pos->in_check());
    const bool continues = i > 0 && r.ply == back.records[i - 1].ply + 1;
    if (!continues) {
      ++games;
      // The first search comes after the 8 random plies of the opening.
      EXPECT_EQ(r.ply, config.random_plies);
    } else {
      const TrainingRecord& p = back.records[i - 1];
      EXPECT_EQ(r.result, p.result) << "record " << i;
      // The previous record's flags follow from the move played there.
      const Move m = move_between(*previous, r.position);
      ASSERT_FALSE(m.is_none()) << "record " << i << " does not follow from the one before";
      const bool quiet =
          !previous->in_check() && !previous->is_capture(m) && m.kind() != MoveKind::Promotion;
      EXPECT_EQ(p.quiet(), quiet) << "record " << i - 1;
      const bool reset = previous->is_capture(m) || previous->moved_piece(m).type() == PAWN;
      EXPECT_EQ(int(r.rule50), reset ? 0 : std::min(p.rule50 + 1, 255)) << "record " << i;
      ++checked_moves;
    }
    previous = pos;
  }
  EXPECT_EQ(games, config.games);
  EXPECT_GT(checked_moves, 100);
}

TEST(Datagen, AppendAddsGames) {
  TempDir dir;
  auto config = tiny_config(dir.file("data.zst"), 1);
  config.games = 2;
  ASSERT_EQ(run(config), 0);
  const std::size_t first = read_file(config.output).records.size();
  config.append = true;
  config.seed = 99;
  ASSERT_EQ(run(config), 0);
  const ReadBack back = read_file(config.output);
  EXPECT_EQ(back.error, "");
  EXPECT_GT(back.records.size(), first);
}

TEST(Datagen, OpeningsFileGivesTheStartPositions) {
  TempDir dir;
  const std::string fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -";
  {
    std::ofstream out(dir.file("openings.epd"));
    out << "# a comment\n\n" << fen << " c0 \"open game\";\n";
  }
  auto config = tiny_config(dir.file("data.zst"), 2);
  config.games = 2;
  config.random_plies = 0;
  config.openings = dir.file("openings.epd");
  std::string summary;
  ASSERT_EQ(run(config, &summary), 0) << summary;
  const ReadBack back = read_file(config.output);
  ASSERT_EQ(back.error, "");
  const PackedPosition start = encode(from_fen(fen));
  EXPECT_EQ(std::count_if(back.records.begin(), back.records.end(),
                          [&](const TrainingRecord& r) { return r.position == start; }),
            2);
}

TEST(Datagen, RefusesUnusableInput) {
  TempDir dir;
  auto config = tiny_config(dir.file("data.zst"), 1);
  config.openings = dir.file("missing.epd");
  std::string summary;
  EXPECT_EQ(run(config, &summary), 1);
  EXPECT_NE(summary.find("missing.epd"), std::string::npos) << summary;
  {
    std::ofstream out(dir.file("bad.epd"));
    out << "not a position\n";
  }
  config.openings = dir.file("bad.epd");
  EXPECT_EQ(run(config, &summary), 1);
  EXPECT_NE(summary.find("bad.epd:1"), std::string::npos) << summary;
  config.openings.clear();
  config.output = dir.file("no/such/directory/data.zst");
  EXPECT_EQ(run(config, &summary), 1);
}

TEST(Datagen, StopWritesOnlyWholeGames) {
  TempDir dir;
  const auto config = tiny_config(dir.file("data.zst"), 2);
  std::ostringstream out, err;
  const std::atomic<bool> stop{true};
  EXPECT_EQ(datagen::run_datagen(config, out, err, &stop), 130);
  const ReadBack back = read_file(config.output);
  EXPECT_EQ(back.error, "");
  EXPECT_TRUE(back.records.empty());
}

}  // namespace
}  // namespace tessera
#endif  // TESSERA_DATAGEN
