# Runs PROGRAM twice with ARGS in two fresh directories and checks that it succeeds and
# that FILE comes out byte-identical: same seed, same results. ARGS_1 and ARGS_2, if given,
# are added to the first and the second run (options that must not change the results).
string(REPLACE " " ";" args "${ARGS}")
foreach(i 1 2)
  set(dir "${WORKDIR}/run${i}")
  file(REMOVE_RECURSE "${dir}")
  file(MAKE_DIRECTORY "${dir}")
  string(REPLACE " " ";" extra "${ARGS_${i}}")
  execute_process(COMMAND ${PROGRAM} ${args} ${extra} WORKING_DIRECTORY "${dir}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} failed (${rc}): ${err}")
  endif()
  file(READ "${dir}/${FILE}" content${i})
endforeach()
if(NOT content1 STREQUAL content2)
  message(FATAL_ERROR "${FILE} differs between two runs with the same arguments")
endif()
message(STATUS "${FILE} identical across two runs:\n${out}")
