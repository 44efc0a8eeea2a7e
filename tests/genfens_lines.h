// genfens run in-process for the tests: its output lines for the words after `genfens`.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "datagen/genfens.h"

namespace tessera::test {

[[nodiscard]] inline std::vector<std::string> genfens(const std::vector<std::string>& words) {
  std::string error;
  const auto request = datagen::parse_genfens(words, error);
  EXPECT_TRUE(request) << error;
  std::vector<std::string> lines;
  if (!request) return lines;
  const bool ran = datagen::run_genfens(
      *request, [&](const std::string& l) { lines.push_back(l); }, error);
  EXPECT_TRUE(ran) << error;
  return lines;
}

}  // namespace tessera::test
