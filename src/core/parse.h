// The one integer parser of the command line, the UCI layer and the FEN reader, so that every
// number a user types is read by the same rule: the whole text is one decimal integer of T's
// range ("12" and "+12" yes; "", "12x", "1e3", " 12" and overflow no; "-5" only for signed T).
#pragma once

#include <charconv>
#include <optional>
#include <string_view>

namespace tessera {

template <typename T>
[[nodiscard]] std::optional<T> parse_integer(std::string_view text) {
  // Some tools write an explicit '+'; "+-5" stays malformed.
  if (text.size() > 1 && text.front() == '+' && text[1] != '-') text.remove_prefix(1);
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace tessera
