#pragma once

namespace tessera::cli {

// The commit this binary was built from, for `--version` and bug reports. Written at build time
// (not at configure time), so an incremental build in an old tree still names its own commit.
[[nodiscard]] const char* build_commit();

}  // namespace tessera::cli
