// The network's options over the real binary: Use NNUE and EvalFile are advertised, a change
// is named at the next isready, a bad EvalFile is refused with `info string error:` while the
// engine keeps the network it had and keeps playing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "uci_session.h"

namespace tessera::test {
namespace {

bool any_contains(const std::vector<std::string>& lines, std::string_view text) {
  for (const std::string& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

TEST(UciNetwork, OptionsAreAdvertisedAndAChangeIsNamed) {
  Uci uci;
  const auto options = uci.handshake();
  EXPECT_TRUE(any_contains(options, "option name Use NNUE type check default true"));
  EXPECT_TRUE(any_contains(options, "option name EvalFile type string default <default>"));
  // The network plays by default; a value sent again unchanged is not a change.
  EXPECT_FALSE(any_contains(uci.info_strings_after("setoption name Use NNUE value true"),
                            "info string evaluation:"));
  const auto off = uci.info_strings_after("setoption name Use NNUE value false");
  EXPECT_TRUE(any_contains(off, "hand-crafted evaluation")) << off.size();
  EXPECT_FALSE(uci.search("go depth 6").empty());
  const auto on = uci.info_strings_after("setoption name Use NNUE value true");
  EXPECT_TRUE(any_contains(on, "info string evaluation: network <default>")) << on.size();
}

TEST(UciNetwork, BadEvalFileIsRefusedAndTheEngineKeepsPlaying) {
  const auto dir = std::filesystem::temp_directory_path() / "tessera-uci-network";
  std::filesystem::create_directories(dir);
  const auto garbage = dir / "garbage.tnn";
  std::ofstream(garbage) << "not a network";
  Uci uci;
  uci.handshake();
  uci.send("setoption name Use NNUE value true");
  for (const std::string& path : {garbage.string(), (dir / "missing.tnn").string()}) {
    const auto lines = uci.info_strings_after("setoption name EvalFile value " + path);
    EXPECT_TRUE(any_contains(lines, "info string error: EvalFile '" + path + "'")) << path;
    // The network in use is still the embedded one.
    EXPECT_TRUE(any_contains(lines, "evaluation: network <default>")) << path;
  }
  uci.send("position startpos moves e2e4");
  EXPECT_FALSE(uci.search("go depth 5").empty());
}

}  // namespace
}  // namespace tessera::test
