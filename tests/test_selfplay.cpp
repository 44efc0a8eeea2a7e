// The selfplay command's own parsing; the games themselves run as ctests (tests/selfplay.cmake).
#include <gtest/gtest.h>

#include "cli/selfplay.h"

namespace tessera::cli {
namespace {

TEST(Selfplay, ParsesTimeControls) {
  std::int64_t base = 0;
  std::int64_t inc = 0;
  ASSERT_TRUE(parse_time_control("1+0.01", base, inc));
  EXPECT_EQ(base, 1000);
  EXPECT_EQ(inc, 10);
  ASSERT_TRUE(parse_time_control("0.5", base, inc));
  EXPECT_EQ(base, 500);
  EXPECT_EQ(inc, 0);
  ASSERT_TRUE(parse_time_control("60+0.6", base, inc));
  EXPECT_EQ(base, 60000);
  EXPECT_EQ(inc, 600);
}

TEST(Selfplay, RejectsBadTimeControls) {
  std::int64_t base = 0;
  std::int64_t inc = 0;
  for (const char* text :
       {"", "+", "1+", "+1", "abc", "1+x", "-1", "1+-0.1", "0", "0.0001", "1+0.01+1", "nan", "inf"})
    EXPECT_FALSE(parse_time_control(text, base, inc)) << text;
}

}  // namespace
}  // namespace tessera::cli
