# `tessera --version` names the commit the tree is at now (the build wrote it), not the commit of
# the last configure. Skipped (exit 77) where the tree has no git.
execute_process(COMMAND git rev-parse --short=8 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                RESULT_VARIABLE git_result)
if(NOT git_result EQUAL 0 OR head STREQUAL "")
  message("no git here: skipped")
  cmake_language(EXIT 77)
endif()
execute_process(COMMAND ${TESSERA} --version OUTPUT_VARIABLE version RESULT_VARIABLE run_result)
if(NOT run_result EQUAL 0)
  message(FATAL_ERROR "tessera --version exited with ${run_result}")
endif()
string(FIND "${version}" "(commit ${head}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "--version does not name HEAD ${head}:\n${version}")
endif()
