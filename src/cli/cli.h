// The command line: `tessera [command] [arguments]`; no command means UCI on stdin.
#pragma once

#include <cxxopts.hpp>
#include <string>

namespace tessera::cli {

[[nodiscard]] int run_cli(int argc, char** argv);

// Every flag of every command, for run_cli and for the tests of the commands' parsing.
[[nodiscard]] cxxopts::Options make_cli_options();

// The text of `tessera --help`.
[[nodiscard]] std::string cli_help();

}  // namespace tessera::cli
