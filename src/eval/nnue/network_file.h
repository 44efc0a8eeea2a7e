// Network files: the quantised parameters of the evaluation network (architecture.h) on disk.
//
// All values little-endian. A 44-byte header, in format version 2 a king-bucket block, then the
// payload:
//
//   offset size  field
//        0    8  magic "TSNN\r\n\x1a\n" (54 53 4e 4e 0d 0a 1a 0a; CR/LF and ^Z catch text-mode
//                transfers that would corrupt the binary)
//        8    4  u32 format version: 1 (one king bucket, no mirroring) or 2 (king buckets)
//       12    4  u32 inputs per king bucket (768)
//       16    4  u32 hidden size H (1..4096; the engine evaluates kHiddenSizes: 128..512)
//       20    4  u32 output buckets: 1 (one output layer for all material) or 8 (output_bucket())
//       24    4  u32 QA (255)
//       28    4  u32 QB (64)
//       32    4  u32 scale: centipawns per unit of the float output (1..100000; 400 by default)
//       36    8  u64 checksum: FNV-1a 64 over every byte after it (king-bucket block and payload)
//   version 2 only, the king-bucket block (KingBuckets, architecture.h):
//       44    4  u32 king buckets K (1..32)
//       48    4  u32 mirrored: 0 or 1
//       52   32  u8 map[32]: each entry a bucket below K, and every bucket used
//   then (at 44 in version 1, at 84 in version 2) the payload:
//                  int16 ft_weights[K * 768][H]  feature-major: feature 0's H weights first
//                  int16 ft_bias[H]
//                  int16 out_weights[buckets][2H] side-to-move half first, each within +-127
//                  int32 out_bias[buckets]
//
// The file's length is exactly header + payload. Reading validates every field and the
// checksum and answers a one-line error for anything else; it never trusts a size it has not
// checked. Writing uses version 1 whenever the parameters have the single-bucket layout, so a
// version-1 network is written back byte for byte (and keeps its fingerprint), and version 2
// otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "eval/nnue/architecture.h"

namespace tessera::eval::nnue {

inline constexpr std::uint32_t kFormatVersion = 1;
inline constexpr std::uint32_t kKingBucketsFormatVersion = 2;
inline constexpr std::size_t kHeaderSize = 44;  // the header of both versions; the checksum ends it
inline constexpr std::size_t kKingBucketBlockSize = 8 + kKingMapSize;
inline constexpr std::size_t kKingBucketsHeaderSize = kHeaderSize + kKingBucketBlockSize;
inline constexpr std::uint8_t kMagic[8] = {'T', 'S', 'N', 'N', '\r', '\n', 0x1a, '\n'};
inline constexpr int kMaxScale = 100000;

// The network's quantised parameters as plain vectors, in the file's order. A valid value has
// vectors of exactly the sizes its `hidden`, `buckets` and `king_buckets` imply (see validate()).
struct NetworkParameters {
  std::uint32_t hidden = kHidden;
  std::uint32_t buckets = 1;
  int scale = kDefaultScale;
  KingBuckets king_buckets = kSingleKingBucket;
  std::vector<std::int16_t> ft_weights;   // [king_buckets.count * kInputs][hidden]
  std::vector<std::int16_t> ft_bias;      // [hidden]
  std::vector<std::int16_t> out_weights;  // [buckets][2 * hidden]
  std::vector<std::int32_t> out_bias;     // [buckets]

  // All parameters zero, with vectors sized for `hidden`, `buckets` and `king_buckets`.
  [[nodiscard]] static NetworkParameters zeros(std::uint32_t hidden = kHidden,
                                               std::uint32_t buckets = 1,
                                               const KingBuckets& king_buckets = kSingleKingBucket);
  bool operator==(const NetworkParameters&) const = default;
};

// Empty when `params` can be written: 1 or kOutputBuckets buckets, hidden in 1..4096, a valid
// king-bucket layout, vector sizes that match, scale in 1..kMaxScale, output weights within
// +-kMaxOutputWeight. Otherwise what is wrong. Any hidden size up to 4096 can be written and
// read back (for experiments); Network::from_parameters evaluates those of kHiddenSizes.
[[nodiscard]] std::string validate(const NetworkParameters& params);

// Empty when `layout` is valid: 1..kMaxKingBuckets buckets, every map entry below the count and
// every bucket named by some entry (a bucket no king square reaches would be dead weights, and
// most likely a count that does not match the map). Otherwise what is wrong.
[[nodiscard]] std::string validate(const KingBuckets& layout);

// True for the output bucket counts a file may have.
[[nodiscard]] constexpr bool valid_bucket_count(std::uint32_t buckets) {
  return buckets == 1 || buckets == std::uint32_t(kOutputBuckets);
}

// The file's bytes; empty when validate(params) is not empty.
[[nodiscard]] std::vector<std::uint8_t> serialize(const NetworkParameters& params);

// The parameters in `bytes`, or nullopt with `error` set to a one-line reason.
[[nodiscard]] std::optional<NetworkParameters> parse(std::span<const std::uint8_t> bytes,
                                                     std::string& error);

// FNV-1a 64 of `bytes`: the payload checksum.
[[nodiscard]] std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes);

// Writes `path` through a temporary file beside it and a rename, so a reader never sees half a
// file. False with `error` set on failure (the temporary file is removed).
[[nodiscard]] bool write_network_file(const std::string& path, const NetworkParameters& params,
                                      std::string& error);
// Reads and parses `path`; errors name the file.
[[nodiscard]] std::optional<NetworkParameters> read_network_file(const std::string& path,
                                                                 std::string& error);

}  // namespace tessera::eval::nnue
