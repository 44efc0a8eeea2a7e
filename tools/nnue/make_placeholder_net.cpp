// Writes a random network file of the shipped architecture: the placeholder embedded as the
// default network until a trained one replaces it.
//
//   tessera_nnue_placeholder --seed 1 --output src/eval/nnue/default.tnn
//
// The values come from a fixed generator (SplitMix64) and plain integer arithmetic, so a seed
// gives the same file on every platform. Their ranges are those of a small trained network:
// first-layer weights within +-0.16 and biases in [0, 0.25] (times QA), output weights within
// +-0.125 (times QB), which keeps evaluations in the hundreds of centipawns.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "eval/nnue/network_file.h"

namespace {

using namespace tessera::eval::nnue;

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (the tiny modulo bias does not matter for a placeholder).
  std::int16_t in(int lo, int hi) {
    return std::int16_t(lo + int(next() % std::uint64_t(hi - lo + 1)));
  }

 private:
  std::uint64_t state_;
};

[[nodiscard]] NetworkParameters placeholder(std::uint64_t seed) {
  SplitMix64 rng(seed);
  auto p = NetworkParameters::zeros(kHidden);
  p.scale = kDefaultScale;
  for (auto& v : p.ft_weights) v = rng.in(-40, 40);
  for (auto& v : p.ft_bias) v = rng.in(0, 64);
  for (auto& v : p.out_weights) v = rng.in(-8, 8);
  p.out_bias[0] = 0;
  return p;
}

int usage(const char* message) {
  std::fprintf(stderr, "tessera_nnue_placeholder: %s\nusage: --seed N --output FILE\n", message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 0;
  bool have_seed = false;
  std::string output;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (i + 1 >= argc) return usage("every option takes a value");
    const std::string value = argv[++i];
    if (arg == "--seed") {
      char* end = nullptr;
      seed = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0') return usage("--seed takes a non-negative integer");
      have_seed = true;
    } else if (arg == "--output") {
      output = value;
    } else {
      return usage("unknown option");
    }
  }
  if (!have_seed || output.empty()) return usage("--seed and --output are required");
  std::string error;
  if (!write_network_file(output, placeholder(seed), error)) {
    std::fprintf(stderr, "tessera_nnue_placeholder: %s\n", error.c_str());
    return 1;
  }
  std::printf("wrote %s (random placeholder network, seed %llu)\n", output.c_str(),
              static_cast<unsigned long long>(seed));
  return 0;
}
