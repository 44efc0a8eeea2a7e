// The hash file (search/tt_file.h): a same-size round trip restores the table entry for entry,
// a load into another size finds every entry again, saving replaces the file only when it
// succeeds, and each kind of bad file is refused with its own message and leaves the table as
// it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "search/tt.h"
#include "search/tt_file.h"
#include "temp_dir.h"

namespace tessera::search {
namespace {

using test::TempDir;

struct Stored {
  Key key;
  int score;
  int depth;
  Bound bound;
  Move move;
  int eval;
  bool pv;
};

// `count` random keys with distinct data, stored in `tt` (sparse enough that none evicts
// another in the tables these tests use).
std::vector<Stored> fill(TranspositionTable& tt, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Stored> stored;
  for (int i = 0; i < count; ++i) {
    const Stored s{rng(),
                   i - count / 2,
                   1 + i % 40,
                   Bound(1 + i % 3),
                   Move(Square(i % 64), Square((i * 7 + 1) % 64)),
                   i % 5 == 0 ? kNone : 3 * i - count,
                   i % 2 == 0};
    tt.probe(s.key).writer.write(s.key, s.score, s.depth, s.bound, s.move, s.eval, s.pv);
    stored.push_back(s);
  }
  return stored;
}

std::vector<std::uint64_t> snapshot(const TranspositionTable& tt) {
  std::vector<std::uint64_t> raw;
  for (std::size_t c = 0; c < tt.cluster_count(); ++c)
    for (int s = 0; s < TranspositionTable::kEntriesPerCluster; ++s) {
      raw.push_back(tt.raw_entry(c, s));
      raw.push_back(std::uint64_t(tt.raw_eval(c, s)));
    }
  return raw;
}

std::size_t entries_in(const TranspositionTable& tt) {
  std::size_t n = 0;
  for (std::size_t c = 0; c < tt.cluster_count(); ++c)
    for (int s = 0; s < TranspositionTable::kEntriesPerCluster; ++s) n += tt.raw_entry(c, s) != 0;
  return n;
}

void expect_all_found(const TranspositionTable& tt, const std::vector<Stored>& stored) {
  for (const Stored& s : stored) {
    const TTProbe p = tt.probe(s.key);
    ASSERT_TRUE(p.hit) << std::hex << s.key << " in " << std::dec << tt.cluster_count();
    EXPECT_EQ(p.data.score, s.score);
    EXPECT_EQ(p.data.depth, s.depth);
    EXPECT_EQ(p.data.bound, s.bound);
    EXPECT_EQ(p.data.move, s.move);
    EXPECT_EQ(p.data.eval, s.eval);
    EXPECT_EQ(p.data.pv, s.pv);
  }
}

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

// Applies `edit` to the file's header and writes it back with a correct checksum, so that only
// the edited field is wrong.
void edit_header(const std::string& path, const std::function<void(TTFileHeader&)>& edit) {
  std::vector<char> bytes = read_bytes(path);
  ASSERT_GE(bytes.size(), sizeof(TTFileHeader) + 8);
  TTFileHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  edit(header);
  std::memcpy(bytes.data(), &header, sizeof header);
  TTFileChecksum sum;
  for (std::size_t at = 0; at + 8 < bytes.size(); at += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, bytes.data() + at, 8);
    sum.add(w);
  }
  const std::uint64_t checksum = sum.value();
  std::memcpy(bytes.data() + bytes.size() - 8, &checksum, 8);
  write_bytes(path, bytes);
}

TEST(HashFile, SameSizeRoundTripRestoresEveryEntryAndTheGeneration) {
  TempDir dir;
  TranspositionTable tt;
  ASSERT_EQ(tt.resize(1), "");
  for (int i = 0; i < 5; ++i) tt.new_search();
  tt.set_evaluator(0xABCDEF);
  const std::vector<Stored> stored = fill(tt, 3000, 1);
  const HashFileResult saved = save_tt_file(tt, dir.file("t.hash"));
  ASSERT_EQ(saved.error, "");
  EXPECT_EQ(saved.entries, entries_in(tt));
  EXPECT_FALSE(std::filesystem::exists(dir.file("t.hash.tmp")));

  TranspositionTable other;  // a fresh table of the same size, holding other entries
  ASSERT_EQ(other.resize(1), "");
  (void)fill(other, 500, 2);
  const HashFileResult loaded = load_tt_file(other, dir.file("t.hash"));
  ASSERT_EQ(loaded.error, "");
  EXPECT_FALSE(loaded.rehashed);
  EXPECT_EQ(loaded.entries, saved.entries);
  EXPECT_EQ(loaded.file_mb, 1u);
  EXPECT_EQ(snapshot(other), snapshot(tt));
  // The next search continues the saved one's generation.
  other.new_search();
  EXPECT_EQ(other.generation(), 5);
  expect_all_found(other, stored);
  // The evaluations are the saved evaluator's: another one forgets them, and only them.
  EXPECT_EQ(other.evaluator(), 0xABCDEFu);
  other.set_evaluator(0x123);
  for (const Stored& s : stored) {
    const TTProbe p = other.probe(s.key);
    ASSERT_TRUE(p.hit);
    EXPECT_EQ(p.data.eval, kNone);
    EXPECT_EQ(p.data.score, s.score);
  }
}

TEST(HashFile, AnEmptyTableRoundTrips) {
  TempDir dir;
  TranspositionTable tt;
  const HashFileResult saved = save_tt_file(tt, dir.file("empty.hash"));
  ASSERT_EQ(saved.error, "");
  EXPECT_EQ(saved.entries, 0u);
  TranspositionTable other;
  (void)fill(other, 10, 3);
  ASSERT_EQ(load_tt_file(other, dir.file("empty.hash")).error, "");
  EXPECT_EQ(entries_in(other), 0u);
}

TEST(HashFile, RehashRangeHoldsTheKeysRealCluster) {
  std::mt19937_64 rng(4);
  const std::uint64_t sizes[] = {1, 2, 3, 1000, 4096, 32768, 100003, std::uint64_t(1) << 30};
  for (int i = 0; i < 20000; ++i) {
    const Key key = rng();
    const std::uint64_t from = sizes[rng() % std::size(sizes)];
    const std::uint64_t to = sizes[rng() % std::size(sizes)];
    const ClusterRange r = rehash_range(mul_hi64(key, from), from, std::uint16_t(key), to);
    ASSERT_LE(r.first, r.last);
    EXPECT_LE(r.first, mul_hi64(key, to));
    EXPECT_GE(r.last, mul_hi64(key, to));
    // A table that divides the old one gets exactly one cluster: the right one.
    if (from % to == 0) {
      EXPECT_EQ(r.first, r.last) << from << " -> " << to;
    }
  }
  // No key of cluster 0 of 2^30 clusters has high bits that put it past cluster 0 of 2^29.
  EXPECT_EQ(rehash_range(0, std::uint64_t(1) << 30, 0xABCD, std::uint64_t(1) << 29).last, 0u);
}

TEST(HashFile, ATableOfAnotherSizeFindsEveryEntryAfterRehashing) {
  TempDir dir;
  TranspositionTable tt;
  ASSERT_EQ(tt.resize_clusters_for_testing(4096), "");
  const std::vector<Stored> stored = fill(tt, 200, 5);  // at most three meet in a cluster
  ASSERT_EQ(save_tt_file(tt, dir.file("t.hash")).error, "");
  for (const std::size_t clusters : {2048u, 1024u, 3000u, 1500u, 8192u, 5000u, 40960u}) {
    TranspositionTable other;
    ASSERT_EQ(other.resize_clusters_for_testing(clusters), "");
    const HashFileResult loaded = load_tt_file(other, dir.file("t.hash"));
    ASSERT_EQ(loaded.error, "") << clusters;
    EXPECT_TRUE(loaded.rehashed);
    EXPECT_EQ(loaded.file_clusters, 4096u);
    EXPECT_EQ(loaded.entries, stored.size());
    expect_all_found(other, stored);
    // Into a divisor of the old size every entry has one place, so none is copied.
    if (4096 % clusters == 0) {
      EXPECT_EQ(entries_in(other), stored.size()) << clusters;
    }
  }
}

TEST(HashFile, ShrinkingKeepsTheMostValuableEntries) {
  TempDir dir;
  TranspositionTable tt;
  ASSERT_EQ(tt.resize_clusters_for_testing(128), "");
  (void)fill(tt, 200, 6);  // one or two per cluster
  ASSERT_EQ(save_tt_file(tt, dir.file("t.hash")).error, "");
  TranspositionTable one;
  ASSERT_EQ(one.resize_clusters_for_testing(1), "");
  ASSERT_EQ(load_tt_file(one, dir.file("t.hash")).error, "");
  // Three entries survive, all of the greatest depth in the source (five entries have it).
  int deepest = 0;
  for (std::size_t c = 0; c < tt.cluster_count(); ++c)
    for (int s = 0; s < TranspositionTable::kEntriesPerCluster; ++s)
      if (tt.raw_entry(c, s) != 0)
        deepest = std::max(deepest, TranspositionTable::unpack(tt.raw_entry(c, s)).depth);
  ASSERT_EQ(entries_in(one), 3u);
  for (int s = 0; s < 3; ++s)
    EXPECT_EQ(TranspositionTable::unpack(one.raw_entry(0, s)).depth, deepest);
}

TEST(HashFile, SavingReplacesTheFileOnlyWhenItSucceeds) {
  TempDir dir;
  const std::string path = dir.file("t.hash");
  TranspositionTable tt;
  (void)fill(tt, 100, 7);
  ASSERT_EQ(save_tt_file(tt, path).error, "");
  const std::vector<char> before = read_bytes(path);

  // The temporary file cannot be made (a directory has its name): the old file stays.
  std::filesystem::create_directory(path + ".tmp");
  (void)fill(tt, 100, 8);
  const HashFileResult failed = save_tt_file(tt, path);
  EXPECT_NE(failed.error.find("cannot create"), std::string::npos) << failed.error;
  EXPECT_EQ(read_bytes(path), before);
  std::filesystem::remove(path + ".tmp");

  // A directory that does not exist.
  EXPECT_NE(save_tt_file(tt, dir.file("no/such/dir/t.hash")).error, "");
  EXPECT_NE(save_tt_file(tt, "").error.find("HashFile"), std::string::npos);

  // Saving again replaces the file, and leaves no temporary behind.
  ASSERT_EQ(save_tt_file(tt, path).error, "");
  EXPECT_NE(read_bytes(path), before);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

// A loaded table, a valid file, and the check that a refused load changed nothing.
class HashFileRejection : public ::testing::Test {
 protected:
  void SetUp() override {
    TranspositionTable source;
    (void)fill(source, 2000, 9);
    ASSERT_EQ(save_tt_file(source, path_).error, "");
    (void)fill(tt_, 700, 10);
    before_ = snapshot(tt_);
  }

  // Loads `path`, expecting an error that contains `words`, and the table unchanged.
  void expect_refused(const std::string& path, const std::string& words) {
    const HashFileResult r = load_tt_file(tt_, path);
    EXPECT_NE(r.error.find(words), std::string::npos) << "got: " << r.error;
    EXPECT_EQ(snapshot(tt_), before_);
  }

  TempDir dir_;
  std::string path_ = dir_.file("good.hash");
  TranspositionTable tt_;
  std::vector<std::uint64_t> before_;
};

TEST_F(HashFileRejection, MissingFile) {
  expect_refused(dir_.file("nowhere.hash"), "cannot read hash file");
}

TEST_F(HashFileRejection, EmptyFile) {
  write_bytes(path_, {});
  expect_refused(path_, "is empty");
}

TEST_F(HashFileRejection, TruncatedHeader) {
  std::vector<char> bytes = read_bytes(path_);
  bytes.resize(40);
  write_bytes(path_, bytes);
  expect_refused(path_, "shorter than its header");
}

TEST_F(HashFileRejection, TruncatedBody) {
  std::vector<char> bytes = read_bytes(path_);
  bytes.resize(bytes.size() - 100);
  write_bytes(path_, bytes);
  expect_refused(path_, "is truncated");
}

TEST_F(HashFileRejection, TrailingBytes) {
  std::vector<char> bytes = read_bytes(path_);
  bytes.push_back('x');
  write_bytes(path_, bytes);
  expect_refused(path_, "damaged");
}

TEST_F(HashFileRejection, WrongMagic) {
  edit_header(path_, [](TTFileHeader& h) { h.magic[0] = 'X'; });
  expect_refused(path_, "not a Tessera hash file");
}

TEST_F(HashFileRejection, AnotherFileEntirely) {
  write_bytes(path_, std::vector<char>(200, 'a'));
  expect_refused(path_, "not a Tessera hash file");
}

TEST_F(HashFileRejection, WrongVersion) {
  edit_header(path_, [](TTFileHeader& h) { h.version = kTTFileVersion + 1; });
  expect_refused(path_, "format version 3");
}

TEST_F(HashFileRejection, AVersionOneFileIsNamedAsAnOlderFormat) {
  edit_header(path_, [](TTFileHeader& h) { h.version = 1; });
  expect_refused(path_, "format version 1, from an older Tessera");
}

TEST_F(HashFileRejection, WrongKeyFingerprint) {
  edit_header(path_, [](TTFileHeader& h) { h.key_fingerprint ^= 1; });
  expect_refused(path_, "other Zobrist keys");
}

TEST_F(HashFileRejection, AnotherEntryLayout) {
  edit_header(path_, [](TTFileHeader& h) { h.entry_size = 8; });
  expect_refused(path_, "another layout");
}

TEST_F(HashFileRejection, AnotherCollisionMode) {
  tt_.set_key_bits(8);
  expect_refused(path_, "hash key bits");
}

TEST_F(HashFileRejection, InconsistentHeader) {
  edit_header(path_, [](TTFileHeader& h) { h.record_count = h.cluster_count + 1; });
  expect_refused(path_, "header is inconsistent");
}

TEST_F(HashFileRejection, BadChecksum) {
  std::vector<char> bytes = read_bytes(path_);
  bytes[sizeof(TTFileHeader) + 45] ^= 0x10;  // one bit of the second record's first entry
  write_bytes(path_, bytes);
  expect_refused(path_, "checksum mismatch");
}

TEST_F(HashFileRejection, RecordsOutOfOrderEvenWithAValidChecksum) {
  std::vector<char> bytes = read_bytes(path_);
  // Swap the cluster indices of the first two records.
  char* first = bytes.data() + sizeof(TTFileHeader);
  char* second = first + sizeof(TTFileRecord);
  std::uint64_t a = 0, b = 0;
  std::memcpy(&a, first, 8);
  std::memcpy(&b, second, 8);
  std::memcpy(first, &b, 8);
  std::memcpy(second, &a, 8);
  write_bytes(path_, bytes);
  edit_header(path_, [](TTFileHeader&) {});  // recompute the checksum
  expect_refused(path_, "out of order");
}

TEST(HashFile, EveryChangedByteAndEveryCutIsRefused) {
  TempDir dir;
  const std::string path = dir.file("t.hash");
  TranspositionTable source;
  ASSERT_EQ(source.resize_clusters_for_testing(64), "");
  (void)fill(source, 100, 11);
  ASSERT_EQ(save_tt_file(source, path).error, "");
  const std::vector<char> good = read_bytes(path);
  TranspositionTable tt;
  ASSERT_EQ(tt.resize_clusters_for_testing(64), "");
  (void)fill(tt, 30, 12);
  const std::vector<std::uint64_t> before = snapshot(tt);
  std::mt19937_64 rng(13);
  for (std::size_t at = 0; at < good.size(); ++at) {
    std::vector<char> bad = good;
    bad[at] = char(bad[at] ^ char(1 + rng() % 255));
    write_bytes(path, bad);
    EXPECT_NE(load_tt_file(tt, path).error, "") << "byte " << at;
  }
  for (std::size_t size = 0; size < good.size(); size += 13) {
    write_bytes(path, std::vector<char>(good.begin(), good.begin() + long(size)));
    EXPECT_NE(load_tt_file(tt, path).error, "") << size << " bytes";
  }
  EXPECT_EQ(snapshot(tt), before);
}

TEST_F(HashFileRejection, TheUntouchedFileStillLoads) {
  // The fixture's file is good: the rejections above are the edits', not the fixture's.
  const HashFileResult r = load_tt_file(tt_, path_);
  EXPECT_EQ(r.error, "");
  EXPECT_NE(snapshot(tt_), before_);
}

}  // namespace
}  // namespace tessera::search
