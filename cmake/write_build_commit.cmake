# Run at every build (cmake -P): writes the commit `--version` names into OUTPUT, and touches
# the file only when the text changes, so an unchanged commit rebuilds nothing. A tree with
# uncommitted changes to tracked files says so ("-modified"), and a tree without git says
# "unknown".
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND git rev-parse --short=8 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE git_result)
if(NOT git_result EQUAL 0 OR commit STREQUAL "")
  set(commit unknown)
else()
  execute_process(COMMAND git diff --quiet HEAD -- WORKING_DIRECTORY ${SOURCE_DIR}
                  ERROR_QUIET RESULT_VARIABLE diff_result)
  if(diff_result EQUAL 1)
    string(APPEND commit -modified)
  endif()
endif()
file(CONFIGURE OUTPUT ${OUTPUT} CONTENT
     "// Generated at build time by cmake/write_build_commit.cmake.\n#include \"cli/build_commit.h\"\n\nnamespace tessera::cli {\nconst char* build_commit() { return \"@commit@\"; }\n}  // namespace tessera::cli\n"
     @ONLY)
