#include "uci/tokens.h"

#include <algorithm>
#include <cctype>

#include "core/parse.h"

namespace tessera::uci {

namespace {

[[nodiscard]] bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

}  // namespace

Words split_words(std::string_view line) {
  Words words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) words.emplace_back(line.substr(start, i - start));
  }
  return words;
}

std::string join_words(const Words& words, std::size_t from, std::size_t to) {
  std::string joined;
  to = std::min(to, words.size());
  for (std::size_t i = from; i < to; ++i) {
    if (i > from) joined += ' ';
    joined += words[i];
  }
  return joined;
}

std::size_t find_word(const Words& words, std::string_view word, std::size_t from) {
  for (std::size_t i = from; i < words.size(); ++i)
    if (words[i] == word) return i;
  return words.size();
}

bool iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

std::optional<long long> parse_int(std::string_view text) { return parse_integer<long long>(text); }

std::optional<unsigned long long> parse_uint(std::string_view text) {
  // from_chars on an unsigned type rejects '-', so "-5" is garbage here rather than a huge value.
  return parse_integer<unsigned long long>(text);
}

}  // namespace tessera::uci
