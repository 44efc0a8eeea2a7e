// libFuzzer target: the network file reader on arbitrary bytes.
//
// Each input is tried twice: as it is, and with the header's checksum recomputed over its
// payload, since random bytes almost never match a checksum and the payload's own checks
// (the output weights' range) would otherwise go unexplored. A refused file must say why in
// one line. An accepted one must serialise back to the same bytes, build a Network, and
// evaluate identically with the build's kernel and the scalar reference.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "core/position.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/network.h"
#include "eval/nnue/network_file.h"

namespace {

namespace nnue = tessera::eval::nnue;

void require(bool condition) {
  if (!condition) std::abort();
}

void check(std::span<const std::uint8_t> bytes) {
  std::string error;
  const auto params = nnue::parse(bytes, error);
  if (!params) {
    require(!error.empty() && error.find('\n') == std::string::npos);
    return;
  }
  const auto again = nnue::serialize(*params);
  require(again.size() == bytes.size() && std::equal(again.begin(), again.end(), bytes.begin()));
  const auto net = nnue::Network::from_parameters(*params, error);
  require(net.has_value());
  const tessera::Position pos = tessera::Position::startpos();
  nnue::Accumulator fast, ref;
  nnue::refresh(*net, pos, fast);
  nnue::scalar::refresh(*net, pos, ref);
  require(fast == ref);
  for (const tessera::Color c : {tessera::WHITE, tessera::BLACK})
    require(nnue::evaluate(*net, fast, c) == nnue::scalar::evaluate(*net, ref, c));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> input(data, size);
  check(input);
  if (size >= nnue::kHeaderSize) {
    std::vector<std::uint8_t> sealed(input.begin(), input.end());
    const std::uint64_t sum =
        nnue::fnv1a64(std::span<const std::uint8_t>(sealed).subspan(nnue::kHeaderSize));
    for (int i = 0; i < 8; ++i) sealed[36 + std::size_t(i)] = std::uint8_t(sum >> (8 * i));
    check(sealed);
  }
  return 0;
}
