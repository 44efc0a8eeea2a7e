// The UCI front end: reads commands from `in`, drives a tessera::engine::Engine, writes to `out`.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::uci {

// A command the loop does not define, supplied by a layer above it (the command line adds
// `genfens`, which lives with data generation). `run` gets the command's words, its name
// first, and prints whole lines through `print`; it runs on the reading thread once no search
// is running.
struct ExtraCommand {
  std::string name;
  std::function<void(const std::vector<std::string>& words,
                     const std::function<void(const std::string&)>& print)>
      run;
};

// Whether `name` is a command the loop defines itself (`quit` included).
[[nodiscard]] bool is_command(std::string_view name);

// Runs the UCI loop until `quit` or end of input; returns the process exit code. The calling
// thread reads `in` while the Engine searches on its own threads, so `isready`, `stop`,
// `ponderhit` and `quit` are answered during a search.
[[nodiscard]] int run(std::istream& in, std::ostream& out,
                      std::vector<ExtraCommand> extra_commands = {});

}  // namespace tessera::uci
