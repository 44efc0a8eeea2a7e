#include "eval/nnue/network.h"

#include <algorithm>
#include <string>

#include "eval/nnue/embedded.h"

namespace tessera::eval::nnue {

std::optional<Network> Network::from_parameters(const NetworkParameters& params,
                                                std::string& error) {
  if (auto reason = validate(params); !reason.empty()) {
    error = "invalid network: " + reason;
    return std::nullopt;
  }
  if (!supported_hidden(int(params.hidden))) {
    std::string widths;
    for (const int h : kHiddenSizes)
      widths += (widths.empty()             ? ""
                 : h == kHiddenSizes.back() ? " or "
                                            : ", ") +
                std::to_string(h);
    error = "wrong architecture: hidden size " + std::to_string(params.hidden) +
            ", this build evaluates " + widths;
    return std::nullopt;
  }
  const auto h = std::size_t(params.hidden);
  auto w = std::make_unique<NetworkWeights>();  // over-aligned new: 64-byte aligned
  w->hidden = int(h);
  w->king_buckets = params.king_buckets;
  // The file's feature-major order is already the dense row order.
  w->ft_weights.assign(params.ft_weights.begin(), params.ft_weights.end());
  std::copy(params.ft_bias.begin(), params.ft_bias.end(), w->ft_bias.begin());
  for (std::size_t b = 0; b < std::size_t(kOutputBuckets); ++b) {
    const std::size_t from = params.buckets == 1 ? 0 : b;
    const auto first = params.out_weights.begin() + std::ptrdiff_t(from * 2 * h);
    std::copy(first, first + std::ptrdiff_t(2 * h),
              w->out_weights.begin() + std::ptrdiff_t(b * 2 * h));
    w->out_bias[b] = params.out_bias[from];
  }
  w->scale = params.scale;
  std::uint64_t fingerprint = fnv1a64(serialize(params));
  if (fingerprint == kHandCraftedFingerprint) fingerprint += 1;
  return Network(std::shared_ptr<const NetworkWeights>(std::move(w)), fingerprint);
}

std::optional<Network> Network::from_bytes(std::span<const std::uint8_t> bytes,
                                           std::string& error) {
  const auto params = parse(bytes, error);
  if (!params) return std::nullopt;
  return from_parameters(*params, error);
}

std::optional<Network> Network::embedded(std::string& error) {
  auto net = from_bytes(embedded_network_bytes(), error);
  if (!net) error = "the embedded network: " + error;
  return net;
}

}  // namespace tessera::eval::nnue
