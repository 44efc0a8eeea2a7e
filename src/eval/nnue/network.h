// Network: the evaluation network's weights, loaded and laid out for the SIMD kernels.
//
// A Network is built once from validated NetworkParameters (network_file.h) and never changes;
// copies share the same weights, so one network can serve every search thread. Each feature's
// kHidden first-layer weights form one 64-byte aligned row, which is what an accumulator update
// adds or subtracts; there are kInputs rows per king bucket (architecture.h), bucket-major.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "eval/nnue/architecture.h"
#include "eval/nnue/network_file.h"

namespace tessera::eval::nnue {

// One feature's first-layer weights.
struct alignas(64) FeatureRow {
  std::array<std::int16_t, kHidden> w;
};
static_assert(sizeof(FeatureRow) == sizeof(std::int16_t) * kHidden, "rows are contiguous");

struct alignas(64) NetworkWeights {
  std::vector<FeatureRow> ft_rows;  // [king_buckets.count * kInputs]
  KingBuckets king_buckets = kSingleKingBucket;
  alignas(64) std::array<std::int16_t, kHidden> ft_bias;
  // kOutputBuckets output layers of 2 * kHidden weights, each the side to move's half first.
  alignas(64) std::array<std::int16_t, std::size_t(kOutputBuckets) * 2 * kHidden> out_weights;
  std::array<std::int32_t, kOutputBuckets> out_bias{};
  int scale = kDefaultScale;
};

class Network {
 public:
  // The network for `params`, or nullopt with `error` set when they are invalid or their hidden
  // size is not kHidden. One bucket's output layer serves every bucket.
  [[nodiscard]] static std::optional<Network> from_parameters(const NetworkParameters& params,
                                                              std::string& error);
  // parse() (network_file.h) and from_parameters() in one step.
  [[nodiscard]] static std::optional<Network> from_bytes(std::span<const std::uint8_t> bytes,
                                                         std::string& error);
  // The network compiled into the binary (embedded.h); nullopt only if the build embedded a
  // file that does not parse, with `error` saying why.
  [[nodiscard]] static std::optional<Network> embedded(std::string& error);

  [[nodiscard]] const NetworkWeights& weights() const { return *weights_; }
  // The first-layer weights of input `feature` (0..king buckets * kInputs - 1): kHidden
  // values, 64-byte aligned.
  [[nodiscard]] const std::int16_t* row(int feature) const {
    return weights_->ft_rows[std::size_t(feature)].w.data();
  }
  [[nodiscard]] const KingBuckets& king_buckets() const { return weights_->king_buckets; }
  // The view of `perspective` whose own king stands on `king`.
  [[nodiscard]] KingView king_view(Color perspective, Square king) const {
    return nnue::king_view(weights_->king_buckets, perspective, king);
  }
  // A digest of the parameters (FNV-1a 64 of their file form): equal networks, equal
  // fingerprints. Never kHandCraftedFingerprint.
  [[nodiscard]] std::uint64_t fingerprint() const { return fingerprint_; }

 private:
  Network(std::shared_ptr<const NetworkWeights> w, std::uint64_t fingerprint)
      : weights_(std::move(w)), fingerprint_(fingerprint) {}
  std::shared_ptr<const NetworkWeights> weights_;
  std::uint64_t fingerprint_ = 0;
};

// The evaluator fingerprint of the hand-crafted evaluation (see Network::fingerprint).
inline constexpr std::uint64_t kHandCraftedFingerprint = 0x48414E4443524146ULL;  // "HANDCRAF"

// The instruction set of the kernels this build selected: "avx512", "avx2", "sse2", "neon" or
// "scalar".
[[nodiscard]] std::string_view simd_kernel_name();

}  // namespace tessera::eval::nnue
