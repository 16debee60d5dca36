# With -DBAD=<csv>: the fit of a bad measurement file must exit non-zero with one line on
# stderr naming the file, the line and the field.
if(BAD)
  execute_process(
    COMMAND ${PYTHON} utils/oncache-fit.py ${BAD}
    WORKING_DIRECTORY ${SOURCE}
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines lines)
  if(rc EQUAL 0 OR NOT err MATCHES "oncache-fit-bad.csv, line 3, field value"
     OR NOT lines EQUAL 1)
    message(FATAL_ERROR "expected one error line naming line 3, field value; got (${rc}): ${err}")
  endif()
  return()
endif()
# Runs utils/oncache-fit.py on the committed testbed measurements and fails unless its output
# equals model/oncache/oncache-cost-defaults.h (the model's defaults are the fit, not hand-tuned).
execute_process(
  COMMAND ${PYTHON} utils/oncache-fit.py doc/oncache/ebpf/bench.csv --header ${OUT}
  WORKING_DIRECTORY ${SOURCE}
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "utils/oncache-fit.py failed (${rc})")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${SOURCE}/model/oncache/oncache-cost-defaults.h
  RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "model/oncache/oncache-cost-defaults.h differs from the fit of "
                      "doc/oncache/ebpf/bench.csv: regenerate it with utils/oncache-fit.py")
endif()
