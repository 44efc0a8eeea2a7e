# fmt and cxxopts for the Windows cross build (cmake/toolchains/mingw-w64-x86_64.cmake).
#
# Debian packages fmt as a Linux library only, so the Windows build compiles fmt header-only
# (FMT_HEADER_ONLY) from the same Debian headers; cxxopts is header-only anyway. Only these two
# headers reach the cross-compiler, through links in the build directory: the rest of the
# host's /usr/include (glibc's headers) must never shadow MinGW's.
set(TESSERA_HOST_INCLUDE_DIR /usr/include CACHE PATH
    "Directory holding the host's fmt/ and cxxopts.hpp headers, for the Windows cross build")

foreach(header_and_package IN ITEMS "fmt/format-inl.h;libfmt-dev" "cxxopts.hpp;libcxxopts-dev")
  list(GET header_and_package 0 header)
  list(GET header_and_package 1 apt_package)
  if(NOT EXISTS ${TESSERA_HOST_INCLUDE_DIR}/${header})
    message(FATAL_ERROR "${TESSERA_HOST_INCLUDE_DIR}/${header} not found: install the Debian "
                        "package '${apt_package}' (apt-get install ${apt_package})")
  endif()
endforeach()

set(tessera_header_dir ${CMAKE_BINARY_DIR}/host-headers)
file(MAKE_DIRECTORY ${tessera_header_dir})
file(CREATE_LINK ${TESSERA_HOST_INCLUDE_DIR}/fmt ${tessera_header_dir}/fmt SYMBOLIC)
file(CREATE_LINK ${TESSERA_HOST_INCLUDE_DIR}/cxxopts.hpp ${tessera_header_dir}/cxxopts.hpp SYMBOLIC)

add_library(fmt::fmt INTERFACE IMPORTED)
target_include_directories(fmt::fmt INTERFACE ${tessera_header_dir})
target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY=1)
add_library(cxxopts::cxxopts INTERFACE IMPORTED)
target_include_directories(cxxopts::cxxopts INTERFACE ${tessera_header_dir})
