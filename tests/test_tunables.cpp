// The tunable constants (search/tunables.h): every one is declared sanely, the `spsa` command
// prints OpenBench's SPSA input for each, and a normal build neither advertises them as options
// nor accepts them in setoption (there they are compile-time constants).
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "search/tunables.h"
#include "uci/uci.h"

namespace tessera::search::tune {
namespace {

std::string run_uci(const std::string& commands) {
  std::istringstream in(commands);
  std::ostringstream out;
  EXPECT_EQ(uci::run(in, out), 0);
  return out.str();
}

TEST(Tunables, EachHasAUniqueNameADefaultInItsRangeAndAStep) {
  ASSERT_GE(tunables().size(), 40u);
  std::set<std::string_view> names;
  for (const Tunable& t : tunables()) {
    EXPECT_TRUE(names.insert(t.name).second) << t.name;
    EXPECT_LE(t.min, t.default_value) << t.name;
    EXPECT_LE(t.default_value, t.max) << t.name;
    EXPECT_GT(t.step, 0) << t.name;
    // OpenBench's c_end: small against the range, yet a move SPSA can measure.
    EXPECT_LE(t.step * 4, t.max - t.min) << t.name;
    EXPECT_EQ(find_tunable(t.name), &t);
    EXPECT_EQ(t.value != nullptr, kEnabled) << t.name;
  }
  EXPECT_EQ(find_tunable("NoSuchTunable"), nullptr);
  EXPECT_EQ(find_tunable("razormargin"), nullptr);  // OpenBench sends names as declared
}

// Compile-time bounds (the quiet order's key width) read tune::max; it must be the listed max.
TEST(Tunables, EachCompileTimeMaximumIsTheListedOne) {
#define TESSERA_EXPECT_MAX(name, value, lo, hi, step) \
  ASSERT_NE(find_tunable(#name), nullptr);            \
  EXPECT_EQ(tune::max::name, hi) << #name;            \
  EXPECT_EQ(find_tunable(#name)->max, hi) << #name;
  TESSERA_SEARCH_TUNABLES(TESSERA_EXPECT_MAX)
#undef TESSERA_EXPECT_MAX
}

TEST(Tunables, SpsaPrintsOpenBenchsInputOneLineEach) {
  const std::string out = run_uci("spsa\nquit\n");
  const std::regex line(R"(^(\w+), int, (-?\d+), (-?\d+), (-?\d+), (\d+), 0\.002$)");
  std::istringstream lines(out);
  std::string text;
  std::size_t seen = 0;
  while (std::getline(lines, text)) {
    std::smatch m;
    if (!std::regex_match(text, m, line)) continue;
    const Tunable* t = find_tunable(m[1].str());
    ASSERT_NE(t, nullptr) << text;
    EXPECT_EQ(std::stoi(m[2].str()), t->value ? *t->value : t->default_value) << text;
    EXPECT_EQ(std::stoi(m[3].str()), t->min) << text;
    EXPECT_EQ(std::stoi(m[4].str()), t->max) << text;
    EXPECT_EQ(std::stoi(m[5].str()), t->step) << text;
    ++seen;
  }
  EXPECT_EQ(seen, tunables().size()) << out;
}

TEST(Tunables, ANormalBuildKeepsThemOutOfTheOptions) {
  if (kEnabled) GTEST_SKIP() << "a tune build advertises them";
  const std::string out = run_uci("uci\nsetoption name RazorMargin value 300\nquit\n");
  EXPECT_EQ(out.find("option name RazorMargin"), std::string::npos);
  EXPECT_NE(out.find("info string error: no option named 'RazorMargin'"), std::string::npos);
  EXPECT_EQ(RazorMargin, find_tunable("RazorMargin")->default_value);
}

TEST(Tunables, ATuneBuildSetsThemInRangeOnly) {
  if (!kEnabled) GTEST_SKIP() << "only a tune build has them as options";
  const Tunable& t = *find_tunable("RazorMargin");
  const std::string out =
      run_uci("uci\nsetoption name RazorMargin value " + std::to_string(t.max + 1) +
              "\nsetoption name RazorMargin value " + std::to_string(t.min) + "\nquit\n");
  EXPECT_NE(
      out.find("option name RazorMargin type spin default " + std::to_string(t.default_value)),
      std::string::npos);
  EXPECT_NE(out.find("info string error:"), std::string::npos);
  EXPECT_EQ(*t.value, t.min);
  *t.value = t.default_value;
}

}  // namespace
}  // namespace tessera::search::tune
