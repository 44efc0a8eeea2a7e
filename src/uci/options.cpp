#include "uci/options.h"

#include <fmt/format.h>

#include <utility>

namespace tessera::uci {

std::string option_line(const OptionSpec& spec) {
  switch (spec.type) {
    case OptionType::Spin:
      return fmt::format("option name {} type spin default {} min {} max {}", spec.name,
                         spec.default_value, spec.min, spec.max);
    case OptionType::Check:
      return fmt::format("option name {} type check default {}", spec.name,
                         spec.default_value != 0 ? "true" : "false");
    case OptionType::Button:
      return fmt::format("option name {} type button", spec.name);
    case OptionType::String:
      return fmt::format("option name {} type string default {}", spec.name, spec.default_text);
  }
  return {};
}

const OptionSpec* find_option(std::string_view name) {
  for (const OptionSpec& spec : kOptions)
    if (iequals(spec.name, name)) return &spec;
  return nullptr;
}

SetOption parse_setoption(const Words& words) {
  SetOption result;
  const std::size_t name_at = find_word(words, "name", 1);
  if (name_at == words.size()) {
    result.error = "setoption needs 'name <id> [value <x>]'";
    return result;
  }
  // No option id contains the word "value", so its first occurrence ends the name.
  const std::size_t value_at = find_word(words, "value", name_at + 1);
  result.name = join_words(words, name_at + 1, value_at);
  if (value_at < words.size()) result.value = join_words(words, value_at + 1, words.size());
  if (result.name.empty()) result.error = "setoption without an option name";
  return result;
}

namespace {

[[nodiscard]] OptionValue valid(long long value) { return {value, {}, {}}; }
[[nodiscard]] OptionValue invalid(std::string error) { return {0, std::move(error), {}}; }

[[nodiscard]] OptionValue check_spin(const OptionSpec& spec, const std::string& text) {
  const std::optional<long long> n = parse_int(text);
  if (!n) return invalid(fmt::format("option '{}' needs an integer, got '{}'", spec.name, text));
  if (*n < spec.min || *n > spec.max)
    return invalid(
        fmt::format("option '{}' value {} is outside {}..{}", spec.name, *n, spec.min, spec.max));
  return valid(*n);
}

[[nodiscard]] OptionValue check_check(const OptionSpec& spec, const std::string& text) {
  if (iequals(text, "true")) return valid(1);
  if (iequals(text, "false")) return valid(0);
  return invalid(fmt::format("option '{}' needs true or false, got '{}'", spec.name, text));
}

}  // namespace

OptionValue check_option_value(const OptionSpec& spec, const std::optional<std::string>& text) {
  if (spec.type == OptionType::Button) return {};
  if (spec.type == OptionType::String) {
    // An unset string is "<empty>" by convention; a missing value means the same.
    if (!text || *text == "<empty>") return {};
    return {0, {}, *text};
  }
  if (!text || text->empty()) return invalid(fmt::format("option '{}' needs a value", spec.name));
  return spec.type == OptionType::Spin ? check_spin(spec, *text) : check_check(spec, *text);
}

}  // namespace tessera::uci
