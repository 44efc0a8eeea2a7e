#include "eval/nnue/network_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace tessera::eval::nnue {

namespace {

// The widest first layer a file may have. The format holds any width up to it (the trainer's
// experiments); the engine evaluates those of kHiddenSizes (Network::from_parameters).
constexpr std::uint32_t kMaxFileHidden = 4096;
// Larger than any file the engine evaluates (up to kMaxHidden wide with kMaxKingBuckets buckets:
// 24 MiB); a bigger file is refused before it is read.
constexpr std::uintmax_t kMaxFileSize = std::uintmax_t(64) << 20;

// Explicit byte order: the file is little-endian whatever the host is.
class ByteWriter {
 public:
  explicit ByteWriter(std::vector<std::uint8_t>& out) : out_(out) {}
  void bytes(std::span<const std::uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void u8(std::uint8_t v) { put(v, 1); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void i16(std::int16_t v) { put(std::uint16_t(v), 2); }
  void i32(std::int32_t v) { put(std::uint32_t(v), 4); }

 private:
  void put(std::uint64_t v, int size) {
    for (int i = 0; i < size; ++i) out_.push_back(std::uint8_t(v >> (8 * i)));
  }
  std::vector<std::uint8_t>& out_;
};

// Reads from a span whose length the caller has already checked.
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> in) : in_(in) {}
  [[nodiscard]] std::uint32_t u32() { return std::uint32_t(get(4)); }
  [[nodiscard]] std::uint64_t u64() { return get(8); }
  [[nodiscard]] std::uint8_t u8() { return std::uint8_t(get(1)); }
  [[nodiscard]] std::int16_t i16() { return std::int16_t(std::uint16_t(get(2))); }
  [[nodiscard]] std::int32_t i32() { return std::int32_t(std::uint32_t(get(4))); }

 private:
  std::uint64_t get(int size) {
    std::uint64_t v = 0;
    for (int i = 0; i < size; ++i) v |= std::uint64_t(in_[pos_ + std::size_t(i)]) << (8 * i);
    pos_ += std::size_t(size);
    return v;
  }
  std::span<const std::uint8_t> in_;
  std::size_t pos_ = 0;
};

[[nodiscard]] std::size_t payload_size(std::uint32_t hidden, std::uint32_t buckets,
                                       int king_buckets) {
  return 2 * (std::size_t(king_buckets) * kInputs * hidden + hidden +
              std::size_t(buckets) * 2 * hidden) +
         4 * std::size_t(buckets);
}

// The single-bucket layout is what version 1 means; anything else needs version 2.
[[nodiscard]] std::uint32_t version_for(const KingBuckets& layout) {
  return layout == kSingleKingBucket ? kFormatVersion : kKingBucketsFormatVersion;
}

void write_payload(ByteWriter& w, const NetworkParameters& p) {
  for (const auto v : p.ft_weights) w.i16(v);
  for (const auto v : p.ft_bias) w.i16(v);
  for (const auto v : p.out_weights) w.i16(v);
  for (const auto v : p.out_bias) w.i32(v);
}

void read_payload(ByteReader& r, NetworkParameters& p) {
  for (auto& v : p.ft_weights) v = r.i16();
  for (auto& v : p.ft_bias) v = r.i16();
  for (auto& v : p.out_weights) v = r.i16();
  for (auto& v : p.out_bias) v = r.i32();
}

// Checks the header fields after the magic; empty when they describe a network this build reads.
[[nodiscard]] std::string check_header(std::uint32_t version, std::uint32_t inputs,
                                       std::uint32_t hidden, std::uint32_t buckets,
                                       std::uint32_t qa, std::uint32_t qb, std::uint32_t scale) {
  if (version != kFormatVersion && version != kKingBucketsFormatVersion)
    return fmt::format(
        "unsupported network format version {} (this build reads versions {} and {})", version,
        kFormatVersion, kKingBucketsFormatVersion);
  if (inputs != std::uint32_t(kInputs) || hidden < 1 || hidden > kMaxFileHidden)
    return fmt::format(
        "wrong architecture: {} inputs x {} hidden, this build reads {} x 1..{} (and evaluates "
        "hidden sizes {})",
        inputs, hidden, kInputs, kMaxFileHidden, fmt::join(kHiddenSizes, ", "));
  if (!valid_bucket_count(buckets))
    return fmt::format("wrong architecture: {} output buckets, this build reads 1 or {}", buckets,
                       kOutputBuckets);
  if (qa != std::uint32_t(kQA) || qb != std::uint32_t(kQB))
    return fmt::format("unsupported quantisation QA={} QB={} (this build expects QA={} QB={})", qa,
                       qb, kQA, kQB);
  if (scale < 1 || scale > std::uint32_t(kMaxScale))
    return fmt::format("output scale {} out of range 1..{}", scale, kMaxScale);
  return {};
}

}  // namespace

NetworkParameters NetworkParameters::zeros(std::uint32_t hidden, std::uint32_t buckets,
                                           const KingBuckets& king_buckets) {
  NetworkParameters p;
  p.hidden = hidden;
  p.buckets = buckets;
  p.king_buckets = king_buckets;
  p.ft_weights.assign(std::size_t(std::max(king_buckets.count, 0)) * kInputs * hidden, 0);
  p.ft_bias.assign(hidden, 0);
  p.out_weights.assign(std::size_t(2) * hidden * buckets, 0);
  p.out_bias.assign(buckets, 0);
  return p;
}

std::string validate(const KingBuckets& layout) {
  if (layout.count < 1 || layout.count > kMaxKingBuckets)
    return fmt::format("{} king buckets (1..{} supported)", layout.count, kMaxKingBuckets);
  std::array<bool, kMaxKingBuckets> used{};
  for (std::size_t i = 0; i < layout.map.size(); ++i) {
    if (layout.map[i] >= layout.count)
      return fmt::format("king bucket map entry {} is {}, beyond the {} king buckets", i,
                         layout.map[i], layout.count);
    used[layout.map[i]] = true;
  }
  for (int b = 0; b < layout.count; ++b)
    if (!used[std::size_t(b)])
      return fmt::format("king bucket {} of {} is never used by the bucket map", b, layout.count);
  return {};
}

std::string validate(const NetworkParameters& p) {
  if (auto reason = validate(p.king_buckets); !reason.empty()) return reason;
  if (!valid_bucket_count(p.buckets))
    return fmt::format("{} output buckets (1 or {} supported)", p.buckets, kOutputBuckets);
  if (p.hidden < 1 || p.hidden > kMaxFileHidden)
    return fmt::format("hidden size {} out of range 1..{}", p.hidden, kMaxFileHidden);
  if (p.scale < 1 || p.scale > kMaxScale)
    return fmt::format("output scale {} out of range 1..{}", p.scale, kMaxScale);
  const std::size_t h = p.hidden;
  if (p.ft_weights.size() != std::size_t(p.king_buckets.count) * kInputs * h ||
      p.ft_bias.size() != h || p.out_weights.size() != p.buckets * 2 * h ||
      p.out_bias.size() != p.buckets)
    return fmt::format("parameter vectors do not match hidden size {}", p.hidden);
  const auto outside = std::find_if(p.out_weights.begin(), p.out_weights.end(), [](auto w) {
    return w < -kMaxOutputWeight || w > kMaxOutputWeight;
  });
  if (outside != p.out_weights.end())
    return fmt::format("output weight {} at index {} outside +-{}", *outside,
                       outside - p.out_weights.begin(), kMaxOutputWeight);
  return {};
}

std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const auto b : bytes) h = (h ^ b) * 0x100000001b3ULL;
  return h;
}

std::vector<std::uint8_t> serialize(const NetworkParameters& p) {
  if (!validate(p).empty()) return {};
  // Everything after the checksum: the king-bucket block (version 2) and the payload.
  const std::uint32_t version = version_for(p.king_buckets);
  std::vector<std::uint8_t> payload;
  payload.reserve(kKingBucketBlockSize + payload_size(p.hidden, p.buckets, p.king_buckets.count));
  ByteWriter payload_writer(payload);
  if (version == kKingBucketsFormatVersion) {
    payload_writer.u32(std::uint32_t(p.king_buckets.count));
    payload_writer.u32(p.king_buckets.mirrored ? 1 : 0);
    for (const auto b : p.king_buckets.map) payload_writer.u8(b);
  }
  write_payload(payload_writer, p);

  std::vector<std::uint8_t> out;
  out.reserve(kHeaderSize + payload.size());
  ByteWriter w(out);
  w.bytes(kMagic);
  w.u32(version);
  w.u32(kInputs);
  w.u32(p.hidden);
  w.u32(p.buckets);
  w.u32(kQA);
  w.u32(kQB);
  w.u32(std::uint32_t(p.scale));
  w.u64(fnv1a64(payload));
  w.bytes(payload);
  return out;
}

std::optional<NetworkParameters> parse(std::span<const std::uint8_t> bytes, std::string& error) {
  if (bytes.size() < kHeaderSize) {
    error = fmt::format("network file truncated: {} bytes, shorter than the {}-byte header",
                        bytes.size(), kHeaderSize);
    return std::nullopt;
  }
  if (!std::equal(std::begin(kMagic), std::end(kMagic), bytes.begin())) {
    error = "not a Tessera network file (bad magic; expected TSNN\\r\\n\\x1a\\n)";
    return std::nullopt;
  }
  ByteReader header(bytes.subspan(sizeof kMagic));
  const std::uint32_t version = header.u32();
  const std::uint32_t inputs = header.u32();
  const std::uint32_t hidden = header.u32();
  const std::uint32_t buckets = header.u32();
  const std::uint32_t qa = header.u32();
  const std::uint32_t qb = header.u32();
  const std::uint32_t scale = header.u32();
  const std::uint64_t checksum = header.u64();
  if (auto reason = check_header(version, inputs, hidden, buckets, qa, qb, scale);
      !reason.empty()) {
    error = std::move(reason);
    return std::nullopt;
  }
  // Version 2's king-bucket block, checked before it sizes anything.
  KingBuckets layout = kSingleKingBucket;
  std::size_t header_size = kHeaderSize;
  if (version == kKingBucketsFormatVersion) {
    header_size = kKingBucketsHeaderSize;
    if (bytes.size() < header_size) {
      error = fmt::format("network file truncated: {} bytes, shorter than the {}-byte header",
                          bytes.size(), header_size);
      return std::nullopt;
    }
    ByteReader block(bytes.subspan(kHeaderSize));
    const std::uint32_t count = block.u32();
    const std::uint32_t mirrored = block.u32();
    for (auto& b : layout.map) b = block.u8();
    if (count < 1 || count > std::uint32_t(kMaxKingBuckets)) {
      error = fmt::format("wrong architecture: {} king buckets, this build reads 1..{}", count,
                          kMaxKingBuckets);
      return std::nullopt;
    }
    if (mirrored > 1) {
      error = fmt::format("bad king-bucket mirroring flag {} (0 or 1)", mirrored);
      return std::nullopt;
    }
    layout.count = int(count);
    layout.mirrored = mirrored == 1;
    if (auto reason = validate(layout); !reason.empty()) {
      error = "bad king buckets: " + reason;
      return std::nullopt;
    }
  }
  const std::size_t expected = header_size + payload_size(hidden, buckets, layout.count);
  if (bytes.size() != expected) {
    error = fmt::format("network file {}: {} bytes, expected {}",
                        bytes.size() < expected ? "truncated" : "has extra bytes", bytes.size(),
                        expected);
    return std::nullopt;
  }
  if (const std::uint64_t actual = fnv1a64(bytes.subspan(kHeaderSize)); actual != checksum) {
    error = fmt::format("network file checksum mismatch: header {:016x}, payload {:016x}", checksum,
                        actual);
    return std::nullopt;
  }
  NetworkParameters p = NetworkParameters::zeros(hidden, buckets, layout);
  p.scale = int(scale);
  ByteReader r(bytes.subspan(header_size));
  read_payload(r, p);
  if (auto reason = validate(p); !reason.empty()) {
    error = "invalid network: " + reason;
    return std::nullopt;
  }
  return p;
}

bool write_network_file(const std::string& path, const NetworkParameters& params,
                        std::string& error) {
  if (auto reason = validate(params); !reason.empty()) {
    error = fmt::format("cannot write '{}': invalid network: {}", path, reason);
    return false;
  }
  const auto bytes = serialize(params);
  const std::string temp = path + ".tmp";
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) {
    error = fmt::format("cannot open '{}' for writing: {}", temp, std::strerror(errno));
    return false;
  }
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const int write_errno = errno;
  const bool closed = std::fclose(f) == 0;
  std::error_code ec;
  if (!written || !closed) {
    error =
        fmt::format("cannot write '{}': {}", temp, std::strerror(written ? errno : write_errno));
    std::filesystem::remove(temp, ec);
    return false;
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    error = fmt::format("cannot rename '{}' to '{}': {}", temp, path, ec.message());
    std::filesystem::remove(temp, ec);
    return false;
  }
  return true;
}

std::optional<NetworkParameters> read_network_file(const std::string& path, std::string& error) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    error = fmt::format("cannot read network file '{}': {}", path, ec.message());
    return std::nullopt;
  }
  if (size > kMaxFileSize) {
    error = fmt::format("'{}' is not a network file: {} bytes is too large", path, size);
    return std::nullopt;
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = fmt::format("cannot open network file '{}': {}", path, std::strerror(errno));
    return std::nullopt;
  }
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  const std::size_t got = std::fread(bytes.data(), 1, bytes.size(), f);
  // One more read tells a file that grew since file_size() from one that matches.
  const bool grew = got == bytes.size() && std::fgetc(f) != EOF;
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed || got != bytes.size() || grew) {
    error = fmt::format("cannot read network file '{}': {}", path,
                        failed ? std::strerror(errno) : "its size changed while reading");
    return std::nullopt;
  }
  auto params = parse(bytes, error);
  if (!params) error = fmt::format("'{}': {}", path, error);
  return params;
}

}  // namespace tessera::eval::nnue
