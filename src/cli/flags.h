// Reading the command line's numeric flags, shared by the commands that take them.
#pragma once

#include <fmt/format.h>

#include <cxxopts.hpp>
#include <optional>
#include <string>

#include "core/parse.h"

namespace tessera::cli {

// Every flag is read as text and converted here: cxxopts' integer parser trips a GCC 12
// -Wrestrict false positive, and one converter gives every flag the same range check.
// A flag that is not given leaves `value` as it is: the flags that several commands share
// (--games, --nodes, ...) have no cxxopts default, so each command's configuration struct
// keeps its own.
template <typename T>
[[nodiscard]] bool read_flag(const cxxopts::ParseResult& parsed, const char* name, T min, T max,
                             T& value, std::string& error) {
  if (parsed.count(name) == 0) return true;
  const std::string text = parsed[name].as<std::string>();
  if (const std::optional<T> parsed_value = parse_integer<T>(text);
      parsed_value && *parsed_value >= min && *parsed_value <= max) {
    value = *parsed_value;
    return true;
  }
  error = fmt::format("--{} wants an integer from {} to {}, got '{}'", name, min, max, text);
  return false;
}

}  // namespace tessera::cli
