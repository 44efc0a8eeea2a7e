// The command line: `tessera [command] [arguments]`; no command means UCI on stdin.
#pragma once

namespace tessera {

[[nodiscard]] int run_cli(int argc, char** argv);

}  // namespace tessera
