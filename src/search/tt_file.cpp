#include "search/tt_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>
#include <type_traits>
#include <vector>

#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace tessera::search {

namespace {

constexpr std::size_t kRecordsPerChunk = std::size_t(1) << 14;  // 640 KiB per read or write
constexpr std::uint64_t kTrailerSize = 8;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

template <class T>
void add_words(TTFileChecksum& sum, const T& object) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % 8 == 0);
  std::array<std::uint64_t, sizeof(T) / 8> words{};
  std::memcpy(words.data(), &object, sizeof(T));
  for (const std::uint64_t w : words) sum.add(w);
}

[[nodiscard]] HashFileResult failure(std::string message) {
  HashFileResult r;
  r.error = std::move(message);
  return r;
}

// Why a read came up short: an error, or a file that shrank since its size was taken.
[[nodiscard]] std::string read_error(std::FILE* f) {
  return std::ferror(f) ? std::strerror(errno) : "it ended early";
}

[[nodiscard]] bool cluster_empty(const TranspositionTable& tt, std::size_t cluster) {
  for (int s = 0; s < TranspositionTable::kEntriesPerCluster; ++s)
    if (tt.raw_entry(cluster, s) != 0) return false;
  return true;
}

// The data reaches the disk before the rename makes it the file, so that after a crash the
// name never points at a file whose contents were still in a cache.
[[nodiscard]] bool flush_to_disk(std::FILE* f) {
  if (std::fflush(f) != 0) return false;
#ifdef _WIN32
  return _commit(_fileno(f)) == 0;
#else
  return ::fsync(::fileno(f)) == 0;
#endif
}

// Writes the header, the records and the checksum to `f`; "" or what failed.
[[nodiscard]] std::string write_table(std::FILE* f, const TranspositionTable& tt,
                                      const TTFileHeader& header, std::uint64_t& entries) {
  TTFileChecksum sum;
  add_words(sum, header);
  if (std::fwrite(&header, sizeof header, 1, f) != 1) return std::strerror(errno);
  std::vector<TTFileRecord> chunk;
  chunk.reserve(kRecordsPerChunk);
  std::uint64_t written = 0;
  const auto flush_chunk = [&]() -> bool {
    for (const TTFileRecord& r : chunk) add_words(sum, r);
    const bool ok =
        std::fwrite(chunk.data(), sizeof(TTFileRecord), chunk.size(), f) == chunk.size();
    written += chunk.size();
    chunk.clear();
    return ok;
  };
  for (std::size_t c = 0; c < tt.cluster_count(); ++c) {
    if (cluster_empty(tt, c)) continue;
    TTFileRecord& r = chunk.emplace_back();
    r.cluster = c;
    for (int s = 0; s < TranspositionTable::kEntriesPerCluster; ++s) {
      r.entries[std::size_t(s)] = tt.raw_entry(c, s);
      r.set_eval(s, tt.raw_eval(c, s));
      entries += r.entries[std::size_t(s)] != 0;
    }
    if (chunk.size() == kRecordsPerChunk && !flush_chunk()) return std::strerror(errno);
  }
  if (!flush_chunk()) return std::strerror(errno);
  if (written != header.record_count) return "the table changed while it was saved";
  const std::uint64_t checksum = sum.value();
  if (std::fwrite(&checksum, sizeof checksum, 1, f) != 1) return std::strerror(errno);
  if (!flush_to_disk(f)) return std::strerror(errno);
  return {};
}

}  // namespace

HashFileResult save_tt_file(const TranspositionTable& tt, const std::string& path) {
  if (path.empty()) return failure("no hash file is named (set the HashFile option)");
  TTFileHeader header;
  header.generation = std::uint8_t(tt.generation());
  header.key_bits = std::uint8_t(tt.key_bits());
  header.cluster_count = tt.cluster_count();
  header.table_mb = tt.size_mb();
  header.evaluator = tt.evaluator();
  for (std::size_t c = 0; c < tt.cluster_count(); ++c) header.record_count += !cluster_empty(tt, c);

  const std::string temp = path + ".tmp";
  HashFileResult result;
  std::string error;
  {
    File file(std::fopen(temp.c_str(), "wb"));
    if (!file) return failure(fmt::format("cannot create '{}': {}", temp, std::strerror(errno)));
    error = write_table(file.get(), tt, header, result.entries);
    if (std::fclose(file.release()) != 0 && error.empty()) error = std::strerror(errno);
  }
  std::error_code ec;
  if (error.empty()) {
    std::filesystem::rename(temp, path, ec);
    if (ec) error = fmt::format("cannot rename it to '{}': {}", path, ec.message());
  }
  if (!error.empty()) {
    std::filesystem::remove(temp, ec);
    return failure(fmt::format("saving the hash to '{}' failed: {}", path, error));
  }
  result.file_clusters = header.cluster_count;
  result.file_mb = header.table_mb;
  return result;
}

ClusterRange rehash_range(std::uint64_t cluster, std::uint64_t old_clusters, std::uint16_t check,
                          std::uint64_t new_clusters) {
  __extension__ using U128 = unsigned __int128;
  // The keys that map to cluster c of n: ceil(c * 2^64 / n) up to the next cluster's first - 1.
  const auto first_key = [old_clusters](U128 c) {
    return ((c << 64) + old_clusters - 1) / old_clusters;
  };
  const U128 low = first_key(cluster);
  const U128 high = first_key(U128(cluster) + 1) - 1;
  // Narrowed to the keys that end in `check`.
  constexpr U128 kLowBits = 0xFFFF;
  U128 lo = (low & ~kLowBits) | check;
  if (lo < low) lo += kLowBits + 1;
  U128 hi = (high & ~kLowBits) | check;
  if (hi > high) {
    if (hi <= kLowBits) return {};
    hi -= kLowBits + 1;
  }
  if (lo > hi) return {};
  return {mul_hi64(std::uint64_t(lo), new_clusters), mul_hi64(std::uint64_t(hi), new_clusters)};
}

namespace {

// Puts `raw` and its evaluation into `cluster` of the rehashed table: over an entry with the
// same check if it is worth more than that one, else into an empty slot, else over the least
// valuable entry if it is worth more.
void place(TranspositionTable& tt, std::size_t cluster, std::uint64_t raw, int eval, int current) {
  const int value = TranspositionTable::worth(TranspositionTable::unpack(raw), current);
  int victim = -1;
  int victim_value = INT_MAX;
  for (int s = 0; s < TranspositionTable::kEntriesPerCluster; ++s) {
    const std::uint64_t old = tt.raw_entry(cluster, s);
    const TTData d = TranspositionTable::unpack(old);
    if (old != 0 && std::uint16_t(old) == std::uint16_t(raw)) {
      if (value > TranspositionTable::worth(d, current)) tt.set_raw_entry(cluster, s, raw, eval);
      return;
    }
    const int v = old == 0 ? INT_MIN : TranspositionTable::worth(d, current);
    if (v < victim_value) {
      victim = s;
      victim_value = v;
    }
  }
  if (victim_value < value) tt.set_raw_entry(cluster, victim, raw, eval);
}

// Checks the header against this build and the table; "" when it can be loaded.
[[nodiscard]] std::string check_header(const TTFileHeader& h, const TranspositionTable& tt,
                                       std::uint64_t file_size, const std::string& path) {
  if (h.magic != kTTFileMagic) return fmt::format("'{}' is not a Tessera hash file", path);
  if (h.version == 1)
    return fmt::format(
        "hash file '{}' has format version 1, from an older Tessera (four entries to a cluster, "
        "no evaluations); this build reads version {}: search again and save a new file",
        path, kTTFileVersion);
  if (h.version != kTTFileVersion)
    return fmt::format("hash file '{}' has format version {}; this build reads version {}", path,
                       h.version, kTTFileVersion);
  const TTFileHeader ours;
  if (h.header_size != ours.header_size || h.entry_size != ours.entry_size ||
      h.cluster_size != ours.cluster_size || h.entries_per_cluster != ours.entries_per_cluster)
    return fmt::format(
        "hash file '{}' has another layout ({}-byte header, {}-byte entries, {} per {}-byte "
        "cluster)",
        path, h.header_size, h.entry_size, h.entries_per_cluster, h.cluster_size);
  if (h.key_fingerprint != ours.key_fingerprint)
    return fmt::format(
        "hash file '{}' was written with other Zobrist keys (fingerprint {:016x}, this build "
        "{:016x})",
        path, h.key_fingerprint, ours.key_fingerprint);
  if (h.key_bits != tt.key_bits())
    return fmt::format("hash file '{}' was saved with {} hash key bits, the table uses {}", path,
                       h.key_bits, tt.key_bits());
  constexpr std::uint64_t kMaxRecords =
      (UINT64_MAX - sizeof(TTFileHeader) - kTrailerSize) / sizeof(TTFileRecord);
  if (h.cluster_count == 0 || h.record_count > h.cluster_count || h.record_count > kMaxRecords ||
      h.generation > TranspositionTable::kGenerationMask)
    return fmt::format("hash file '{}' is damaged (its header is inconsistent)", path);
  const std::uint64_t expected =
      sizeof(TTFileHeader) + h.record_count * sizeof(TTFileRecord) + kTrailerSize;
  if (file_size < expected)
    return fmt::format("hash file '{}' is truncated: {} bytes of the {} its header announces", path,
                       file_size, expected);
  if (file_size > expected)
    return fmt::format("hash file '{}' is damaged: {} bytes where its header announces {}", path,
                       file_size, expected);
  return {};
}

}  // namespace

HashFileResult load_tt_file(TranspositionTable& tt, const std::string& path) {
  if (path.empty()) return failure("no hash file is named (set the HashFile option)");
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return failure(fmt::format("cannot read hash file '{}': {}", path, ec.message()));
  if (size == 0) return failure(fmt::format("hash file '{}' is empty", path));
  File file(std::fopen(path.c_str(), "rb"));
  if (!file)
    return failure(fmt::format("cannot open hash file '{}': {}", path, std::strerror(errno)));
  // A short file that does not start with the magic is someone else's, not a truncated one.
  TTFileHeader header;
  const std::size_t head = std::size_t(std::min<std::uint64_t>(size, sizeof header));
  if (std::fread(&header, head, 1, file.get()) != 1)
    return failure(
        fmt::format("hash file '{}' could not be read: {}", path, read_error(file.get())));
  if (head < sizeof header && (head < kTTFileMagic.size() || header.magic == kTTFileMagic))
    return failure(
        fmt::format("hash file '{}' is truncated: {} bytes, shorter than its header", path, size));
  if (std::string error = check_header(header, tt, size, path); !error.empty())
    return failure(std::move(error));

  // Everything goes into a second table first, so that a bad file changes nothing.
  TranspositionTable staging;
  staging.set_key_bits(tt.key_bits());
  if (std::string error = staging.allocate_like(tt); !error.empty())
    return failure(fmt::format("cannot load hash file '{}': {}", path, error));
  const bool same_size = header.cluster_count == tt.cluster_count();
  TTFileChecksum sum;
  add_words(sum, header);
  HashFileResult result;
  bool ordered = true;
  std::uint64_t next_cluster = 0;  // records come in strictly increasing cluster order
  std::vector<TTFileRecord> chunk(kRecordsPerChunk);
  for (std::uint64_t done = 0; done < header.record_count;) {
    const std::size_t n =
        std::size_t(std::min<std::uint64_t>(kRecordsPerChunk, header.record_count - done));
    if (std::fread(chunk.data(), sizeof(TTFileRecord), n, file.get()) != n)
      return failure(
          fmt::format("hash file '{}' could not be read: {}", path, read_error(file.get())));
    done += n;
    for (std::size_t i = 0; i < n; ++i) {
      const TTFileRecord& r = chunk[i];
      add_words(sum, r);
      ordered = ordered && r.cluster >= next_cluster && r.cluster < header.cluster_count;
      if (!ordered) continue;
      next_cluster = r.cluster + 1;
      for (int s = 0; s < TranspositionTable::kEntriesPerCluster; ++s) {
        const std::uint64_t raw = r.entries[std::size_t(s)];
        if (raw == 0) continue;
        ++result.entries;
        if (same_size) {
          staging.set_raw_entry(std::size_t(r.cluster), s, raw, r.eval(s));
          continue;
        }
        const ClusterRange range = rehash_range(r.cluster, header.cluster_count, std::uint16_t(raw),
                                                staging.cluster_count());
        for (std::uint64_t c = range.first; c <= range.last; ++c)
          place(staging, std::size_t(c), raw, r.eval(s), header.generation);
      }
    }
  }
  std::uint64_t checksum = 0;
  if (std::fread(&checksum, sizeof checksum, 1, file.get()) != 1)
    return failure(
        fmt::format("hash file '{}' could not be read: {}", path, read_error(file.get())));
  if (checksum != sum.value())
    return failure(fmt::format("hash file '{}' is damaged (checksum mismatch)", path));
  if (!ordered)
    return failure(fmt::format("hash file '{}' is damaged (clusters out of order or range)", path));

  // The next search, which starts a new generation, continues the saved one: the loaded
  // entries count as its own, so they do not age and shallower results do not displace them.
  staging.set_generation(header.generation - 1);
  staging.set_evaluator_of_contents(header.evaluator);
  tt.swap_contents(staging);
  result.rehashed = !same_size;
  result.file_clusters = header.cluster_count;
  result.file_mb = header.table_mb;
  return result;
}

}  // namespace tessera::search
