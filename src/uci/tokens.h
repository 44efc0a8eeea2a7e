// Splitting a UCI command line into words.
//
// GUIs and people at a terminal send lines with tabs, repeated spaces and Windows line ends, so
// every run of whitespace (including '\r') separates words and empty words never appear.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::uci {

using Words = std::vector<std::string>;

[[nodiscard]] Words split_words(std::string_view line);

// Words [from, to) joined by single spaces: how a multi-word option name or a FEN is rebuilt.
[[nodiscard]] std::string join_words(const Words& words, std::size_t from, std::size_t to);

// The index of the first word equal to `word` at or after `from`, or words.size().
[[nodiscard]] std::size_t find_word(const Words& words, std::string_view word,
                                    std::size_t from = 0);

[[nodiscard]] bool iequals(std::string_view a, std::string_view b);

// Whole-word signed / unsigned integer parsing: "12" yes, "12x", "", "1e3" and overflow no.
// A leading '+' is accepted since some tools write it.
[[nodiscard]] std::optional<long long> parse_int(std::string_view text);
[[nodiscard]] std::optional<unsigned long long> parse_uint(std::string_view text);

}  // namespace tessera::uci
