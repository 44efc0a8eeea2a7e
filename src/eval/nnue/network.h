// Network: the evaluation network's weights, loaded and laid out for the SIMD kernels.
//
// A Network is built once from validated NetworkParameters (network_file.h) and never changes;
// copies share the same weights, so one network can serve every search thread. Each feature's
// H first-layer weights (H = hidden(), the file's width, one of kHiddenSizes) form one 64-byte
// aligned row, which is what an accumulator update adds or subtracts; there are kInputs rows
// per king bucket (architecture.h), bucket-major. The rows are dense at the live width (row f
// at f * H), so that a narrow network touches no more memory than if it were the only width.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "eval/nnue/architecture.h"
#include "eval/nnue/network_file.h"

namespace tessera::eval::nnue {

// Storage that starts on a 64-byte boundary (a cache line; the widest SIMD load). Every supported
// width is a whole number of 32 int16, so every row of the first layer starts on one too.
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <class U>
  explicit CacheLineAllocator(const CacheLineAllocator<U>&) {}
  [[nodiscard]] T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64)));
  }
  void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t(64)); }
  bool operator==(const CacheLineAllocator&) const = default;
};

struct alignas(64) NetworkWeights {
  int hidden = kHidden;  // the live width H
  // [king_buckets.count * kInputs][hidden], feature-major and dense: row f at f * hidden.
  std::vector<std::int16_t, CacheLineAllocator<std::int16_t>> ft_weights;
  KingBuckets king_buckets = kSingleKingBucket;
  // The first `hidden` entries are live, the rest zero.
  alignas(64) std::array<std::int16_t, kMaxHidden> ft_bias{};
  // kOutputBuckets output layers of 2 * hidden weights, each the side to move's half first,
  // dense at the live width (layer b at b * 2 * hidden); the rest zero.
  alignas(64) std::array<std::int16_t, std::size_t(kOutputBuckets) * 2 * kMaxHidden> out_weights{};
  std::array<std::int32_t, kOutputBuckets> out_bias{};
  int scale = kDefaultScale;
};

class Network {
 public:
  // The network for `params`, or nullopt with `error` set when they are invalid or their hidden
  // size is not one of kHiddenSizes. One bucket's output layer serves every bucket.
  [[nodiscard]] static std::optional<Network> from_parameters(const NetworkParameters& params,
                                                              std::string& error);
  // parse() (network_file.h) and from_parameters() in one step.
  [[nodiscard]] static std::optional<Network> from_bytes(std::span<const std::uint8_t> bytes,
                                                         std::string& error);
  // The network compiled into the binary (embedded.h); nullopt only if the build embedded a
  // file that does not parse, with `error` saying why.
  [[nodiscard]] static std::optional<Network> embedded(std::string& error);

  [[nodiscard]] const NetworkWeights& weights() const { return *weights_; }
  // The first-layer width H, one of kHiddenSizes.
  [[nodiscard]] int hidden() const { return hidden_; }
  // The first-layer weights of input `feature` (0..king buckets * kInputs - 1): hidden()
  // values, 64-byte aligned.
  [[nodiscard]] const std::int16_t* row(int feature) const {
    return rows_ + std::ptrdiff_t(feature) * hidden_;
  }
  // The same for a caller that knows the width at compile time (the kernels' H): the offset is
  // then a shift, as it was when the engine had a single width.
  template <int H>
  [[nodiscard]] const std::int16_t* row(int feature) const {
    return rows_ + std::ptrdiff_t(feature) * H;
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
      : weights_(std::move(w)),
        rows_(weights_->ft_weights.data()),
        hidden_(weights_->hidden),
        fingerprint_(fingerprint) {}
  std::shared_ptr<const NetworkWeights> weights_;
  // Kept beside the pointer so that a kernel call reaches its rows and its width in one step.
  const std::int16_t* rows_ = nullptr;
  int hidden_ = kHidden;
  std::uint64_t fingerprint_ = 0;
};

// The evaluator fingerprint of the hand-crafted evaluation (see Network::fingerprint).
inline constexpr std::uint64_t kHandCraftedFingerprint = 0x48414E4443524146ULL;  // "HANDCRAF"

// The instruction set of the kernels this build selected: "avx512", "avx2", "sse2", "neon" or
// "scalar".
[[nodiscard]] std::string_view simd_kernel_name();

}  // namespace tessera::eval::nnue
