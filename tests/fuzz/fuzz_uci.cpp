// libFuzzer target: the whole UCI front end (tessera::uci::run) on arbitrary input lines.
//
// Output goes to a discarded std::ostringstream. So that one input costs milliseconds, not
// minutes, a guard rewrites the lines before the session sees them (same tokenizer):
//   - every `go` keeps its words (so parse_go is still fuzzed) with ` nodes 50` appended,
//     which bounds any search (the last `nodes` wins), and `perft N` capped at depth 3;
//   - `bench` lines are dropped (a 50-position search; the ctest suite covers it);
//   - numbers on a `setoption` line are capped at 4, so Hash, Threads and MultiPV stay small
//     (a 1 TiB Hash would only test the allocator, and trip libFuzzer's malloc limit).
// An unbounded search (`go infinite`, `go ponder`) is stopped by the session itself at the end
// of input, as documented in uci.cpp.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "uci/tokens.h"
#include "uci/uci.h"

namespace {

namespace uci = tessera::uci;

constexpr long long kMaxPerft = 3;
constexpr long long kMaxOptionValue = 4;

// Caps the number after each `key`, or every number when `key` is empty.
void cap_numbers(uci::Words& words, std::string_view key, long long cap) {
  for (std::size_t i = 1; i < words.size(); ++i) {
    if (!key.empty() && words[i - 1] != key) continue;
    if (const auto n = uci::parse_int(words[i]); n && *n > cap) words[i] = std::to_string(cap);
  }
}

// The line the session gets, or "" to drop it.
[[nodiscard]] std::string guard(std::string_view line) {
  uci::Words words = uci::split_words(line);
  if (words.empty()) return std::string(line);
  if (words[0] == "bench") return "";
  if (words[0] == "go") {
    cap_numbers(words, "perft", kMaxPerft);
    return uci::join_words(words, 0, words.size()) + " nodes 50";
  }
  if (words[0] == "setoption") {
    cap_numbers(words, "", kMaxOptionValue);
    return uci::join_words(words, 0, words.size());
  }
  return std::string(line);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string script;
  std::size_t start = 0;
  while (start <= input.size()) {
    std::size_t end = input.find('\n', start);
    if (end == std::string_view::npos) end = input.size();
    if (std::string line = guard(input.substr(start, end - start)); !line.empty())
      script += line + '\n';
    start = end + 1;
  }
  std::istringstream in(script);
  std::ostringstream out;
  (void)uci::run(in, out);
  return 0;
}
