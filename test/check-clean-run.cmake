# Runs PROGRAM with ARGS (a list) in a fresh WORKDIR and checks that it exits with status 0
# (or EXIT_CODE), prints nothing on stderr that matches "warning", "empty x/y range" or
# "gnuplot" (any case), and, when ABSENT is set, that it created no file of that name.
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
if(NOT DEFINED EXIT_CODE)
  set(EXIT_CODE 0)
endif()
execute_process(COMMAND ${PROGRAM} ${ARGS} WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc STREQUAL "${EXIT_CODE}")
  message(FATAL_ERROR "expected exit status ${EXIT_CODE}, got ${rc}; stderr: ${err}")
endif()
string(TOLOWER "${err}" lower)
if(lower MATCHES "warning|empty [xy] range|gnuplot")
  message(FATAL_ERROR "stderr has a warning: ${err}")
endif()
if(DEFINED ABSENT AND EXISTS "${WORKDIR}/${ABSENT}")
  message(FATAL_ERROR "the run created ${ABSENT}: a command was injected")
endif()
message(STATUS "clean run (exit ${rc})")
