# Cross-compiling for 64-bit Windows with Debian's MinGW-w64 (g++-mingw-w64-x86-64).
#
# The posix thread model compiler, since the engine uses std::thread. tessera.exe is linked
# statically (libstdc++, libgcc, winpthreads), so it runs without any MinGW DLL beside it, and
# with 8 MiB stacks, as threads get on Linux (the MinGW default is 2 MiB; a search frame takes
# about 2.8 KB, and the search may go 246 plies deep).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(TESSERA_MINGW_TRIPLET x86_64-w64-mingw32)
set(CMAKE_CXX_COMPILER ${TESSERA_MINGW_TRIPLET}-g++-posix)

# Libraries and packages from the MinGW sysroot only, never the host's; programs from the host.
set(CMAKE_FIND_ROOT_PATH /usr/${TESSERA_MINGW_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -Wl,--stack,8388608")
