# Finds Fathom, the Syzygy tablebase prober (Debian: libfathom-dev): its header tbprobe.h and
# its library. Sets Fathom_FOUND and defines the imported target Fathom::Fathom.
find_path(Fathom_INCLUDE_DIR tbprobe.h)
find_library(Fathom_LIBRARY fathom)
mark_as_advanced(Fathom_INCLUDE_DIR Fathom_LIBRARY)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Fathom REQUIRED_VARS Fathom_LIBRARY Fathom_INCLUDE_DIR)

if(Fathom_FOUND AND NOT TARGET Fathom::Fathom)
  add_library(Fathom::Fathom UNKNOWN IMPORTED)
  set_target_properties(Fathom::Fathom PROPERTIES IMPORTED_LOCATION "${Fathom_LIBRARY}"
                                                  INTERFACE_INCLUDE_DIRECTORIES "${Fathom_INCLUDE_DIR}")
endif()
