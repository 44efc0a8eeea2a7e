// The default network file, compiled into the binary.
//
// CMake's TESSERA_DEFAULT_NET names the file; a generated source pulls it in with the
// assembler's .incbin, so the bytes are the file's, unchanged, 64-byte aligned in read-only data.
#pragma once

#include <cstdint>
#include <span>

namespace tessera::eval::nnue {

// The embedded file's bytes (a network file, network_file.h), valid for the program's lifetime.
[[nodiscard]] std::span<const std::uint8_t> embedded_network_bytes();

}  // namespace tessera::eval::nnue
