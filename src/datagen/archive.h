// Packed inputs of `datagen-convert`: bzip2-compressed files and tar archives, as an OpenBench
// server hands out the PGNs of a DATAGEN workload (a tar of `.pgn.bz2` files).
//
// Policy. bzip2 data is decompressed by the system's `bzip2 -dc`, run as a child process that
// reads the compressed bytes on its standard input: the engine links no bzip2 library, and a
// machine without the program gets an error that says so. Tar archives are read here, one
// member at a time: POSIX ustar (the name's prefix field included), GNU long names ('L') and
// pax `path` records ('x'), sizes in octal or base-256; links, directories and other special
// members are passed over.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace tessera::datagen {

// Whether the bytes begin like bzip2 data: "BZh" and a block size from 1 to 9.
[[nodiscard]] bool starts_like_bzip2(std::string_view head);

// Whether the bytes begin with a tar header: "ustar" at offset 257 and a valid checksum.
[[nodiscard]] bool starts_like_tar(std::string_view head);

// The decompressed bytes of bzip2 data, through `bzip2 -dc`. False and `error` (naming `name`)
// when bzip2 cannot be run (not installed) or rejects the data.
[[nodiscard]] bool bunzip2(std::string_view compressed, const std::string& name, std::string& text,
                           std::string& error);

// Calls `on_member` with the name and bytes of each regular file of the tar archive at `path`,
// in the archive's order, until it returns false. False and `error` when the file cannot be
// read, is not a tar archive, or is cut short or damaged (the members before are delivered).
[[nodiscard]] bool read_tar(
    const std::string& path,
    const std::function<bool(const std::string& name, const std::string& bytes)>& on_member,
    std::string& error);

}  // namespace tessera::datagen
