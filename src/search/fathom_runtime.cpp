// Fathom opened at run time, for the standalone build (TESSERA_STANDALONE: the make front end,
// OpenBench). Debian ships Fathom only as a shared library, and a program linked against
// libfathom.so.1 does not even start where that library is missing. So in this build the
// engine is not linked against it: this file defines the Fathom symbols that tablebase.cpp uses
// (the header's inline probes call the *_impl functions) and forwards each to the library,
// which it opens with dlopen on the first tb_init that loads tables. Where the library is
// missing, that tb_init fails (and stderr says why), so tables cannot be loaded; nothing else
// changes, and the bench, which never probes, runs anywhere.
//
// The header comes from the build machine's libfathom-dev and the library is found by its
// soname, so both have the same interface. Calls arrive as tablebase.cpp makes them: under its
// mutex, loads never concurrent with probes.
#if TESSERA_FATHOM_RUNTIME

#include <dlfcn.h>
#include <tbprobe.h>

#include <cstdio>
#include <cstring>

namespace {

constexpr const char* kLibrary = "libfathom.so.1";

// The library's entry points, all set once it has been opened, none before.
struct FathomLibrary {
  decltype(&tb_init) init = nullptr;
  decltype(&tb_probe_wdl_impl) probe_wdl = nullptr;
  decltype(&tb_probe_root_impl) probe_root = nullptr;
  decltype(&tb_probe_root_wdl) probe_root_wdl = nullptr;
  const unsigned* largest = nullptr;  // the library's own TB_LARGEST
};

FathomLibrary library;
bool opened = false;
bool failed = false;  // tried and failed: said once, not tried again

template <typename T>
bool resolve(void* handle, const char* name, T& target) {
  target = reinterpret_cast<T>(dlsym(handle, name));
  if (target == nullptr) std::fprintf(stderr, "tessera: %s lacks %s\n", kLibrary, name);
  return target != nullptr;
}

// Opens the library on first use; false where it cannot be had.
bool open_library() {
  if (opened || failed) return opened;
  void* handle = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::fprintf(stderr,
                 "tessera: Syzygy tablebases need Fathom's library, which could not be opened "
                 "(%s); install the Debian package 'libfathom1'\n",
                 dlerror());
    failed = true;
    return false;
  }
  FathomLibrary found;
  if (!resolve(handle, "tb_init", found.init) ||
      !resolve(handle, "tb_probe_wdl_impl", found.probe_wdl) ||
      !resolve(handle, "tb_probe_root_impl", found.probe_root) ||
      !resolve(handle, "tb_probe_root_wdl", found.probe_root_wdl) ||
      !resolve(handle, "TB_LARGEST", found.largest)) {
    dlclose(handle);
    failed = true;
    return false;
  }
  library = found;
  opened = true;
  return true;
}

bool unloads_only(const char* path) {
  return path == nullptr || *path == '\0' || std::strcmp(path, "<empty>") == 0;
}

}  // namespace

extern "C" {

unsigned TB_LARGEST = 0;

bool tb_init(const char* path) {
  // An empty path unloads: nothing to do for a library that was never opened.
  if (unloads_only(path) && !opened) {
    TB_LARGEST = 0;
    return true;
  }
  if (!open_library()) {
    TB_LARGEST = 0;
    return false;
  }
  const bool ok = library.init(path);
  TB_LARGEST = *library.largest;
  return ok;
}

unsigned tb_probe_wdl_impl(uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
                           uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns,
                           unsigned ep, bool turn) {
  if (!opened) return TB_RESULT_FAILED;
  return library.probe_wdl(white, black, kings, queens, rooks, bishops, knights, pawns, ep, turn);
}

unsigned tb_probe_root_impl(uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
                            uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns,
                            unsigned rule50, unsigned ep, bool turn, unsigned* results) {
  if (!opened) return TB_RESULT_FAILED;
  return library.probe_root(white, black, kings, queens, rooks, bishops, knights, pawns, rule50, ep,
                            turn, results);
}

int tb_probe_root_wdl(uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
                      uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns,
                      unsigned rule50, unsigned castling, unsigned ep, bool turn, bool use_rule50,
                      TbRootMoves* results) {
  if (!opened) return 0;
  return library.probe_root_wdl(white, black, kings, queens, rooks, bishops, knights, pawns, rule50,
                                castling, ep, turn, use_rule50, results);
}

}  // extern "C"

#endif  // TESSERA_FATHOM_RUNTIME
