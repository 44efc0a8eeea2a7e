# Finds zstd (Debian: libzstd-dev). Debian's package ships a CMake package, which is taken when
# present; otherwise the plain header and libraries. Sets zstd_FOUND and defines
# zstd::libzstd_shared and zstd::libzstd_static for the libraries that exist (the standalone
# build links the static one, libzstd.a).
find_package(zstd CONFIG QUIET)
if(zstd_FOUND AND (TARGET zstd::libzstd_shared OR TARGET zstd::libzstd_static))
  return()
endif()

find_path(zstd_INCLUDE_DIR zstd.h)
find_library(zstd_SHARED_LIBRARY NAMES ${CMAKE_SHARED_LIBRARY_PREFIX}zstd${CMAKE_SHARED_LIBRARY_SUFFIX})
find_library(zstd_STATIC_LIBRARY NAMES ${CMAKE_STATIC_LIBRARY_PREFIX}zstd${CMAKE_STATIC_LIBRARY_SUFFIX})
mark_as_advanced(zstd_INCLUDE_DIR zstd_SHARED_LIBRARY zstd_STATIC_LIBRARY)
if(zstd_SHARED_LIBRARY OR zstd_STATIC_LIBRARY)
  set(zstd_any_library TRUE)
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(zstd REQUIRED_VARS zstd_INCLUDE_DIR zstd_any_library)

if(zstd_FOUND AND zstd_SHARED_LIBRARY AND NOT TARGET zstd::libzstd_shared)
  add_library(zstd::libzstd_shared UNKNOWN IMPORTED)
  set_target_properties(zstd::libzstd_shared PROPERTIES IMPORTED_LOCATION "${zstd_SHARED_LIBRARY}"
                                                        INTERFACE_INCLUDE_DIRECTORIES "${zstd_INCLUDE_DIR}")
endif()
if(zstd_FOUND AND zstd_STATIC_LIBRARY AND NOT TARGET zstd::libzstd_static)
  add_library(zstd::libzstd_static STATIC IMPORTED)
  set_target_properties(zstd::libzstd_static PROPERTIES IMPORTED_LOCATION "${zstd_STATIC_LIBRARY}"
                                                        INTERFACE_INCLUDE_DIRECTORIES "${zstd_INCLUDE_DIR}")
endif()
