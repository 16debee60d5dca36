# A distributed (MPI) all-reduce against the same run in one process (doc/lean-link/lean-link.rst,
# "Distributed runs"). Runs BENCHMARK in one process with --drain (it runs until no event is
# left, as a distributed run must) and under MPIEXEC with 2 and 3 processes, each with ARGS:
# - the collective time must be the same to the nanosecond in all three;
# - the distributed runs execute more events only by the time-0 set-up that every process
#   does for every node: the same excess at MESSAGE_1 and MESSAGE_2 bytes;
# - negative control: the same comparison tells a different run apart (AckInterval 2 in
#   the distributed run changes its collective time).
string(REPLACE " " ";" args "${ARGS}")
set(mpi ${MPIEXEC} --allow-run-as-root --oversubscribe)

# Runs the benchmark (\p launcher before it, may be empty) and sets <out>_collective and
# <out>_events from its CSV row.
function(run_allreduce out launcher)
  execute_process(COMMAND ${launcher} ${BENCHMARK} ${args} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr TIMEOUT 600)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${launcher} ${ARGN}: failed (${rc}): ${stderr}")
  endif()
  string(REGEX MATCH "\nrdma,[^\n]*" row "${stdout}")
  string(REPLACE "," ";" fields "${row}")
  list(GET fields 5 collective)
  list(GET fields 9 events)
  list(GET fields 19 processes)
  message(STATUS "${launcher} ${ARGN}: collective ${collective} s, ${events} events, "
                 "${processes} processes")
  set(${out}_collective ${collective} PARENT_SCOPE)
  set(${out}_events ${events} PARENT_SCOPE)
  set(${out}_processes ${processes} PARENT_SCOPE)
endfunction()

foreach(bytes ${MESSAGE_1} ${MESSAGE_2})
  run_allreduce(one "" --drain --messageBytes=${bytes})
  run_allreduce(two "${mpi};-np;2" --distributed --messageBytes=${bytes})
  if(NOT two_processes EQUAL 2)
    message(FATAL_ERROR "the distributed run reports ${two_processes} processes, not 2")
  endif()
  if(NOT two_collective STREQUAL one_collective)
    message(FATAL_ERROR "${bytes} bytes: collective ${two_collective} s over 2 processes, "
                        "${one_collective} s in one")
  endif()
  math(EXPR excess "${two_events} - ${one_events}")
  if(excess LESS_EQUAL 0)
    message(FATAL_ERROR "${bytes} bytes: 2 processes ran ${two_events} events, one "
                        "${one_events}: no set-up events repeated?")
  endif()
  list(APPEND excesses ${excess})
endforeach()
list(GET excesses 0 excess1)
list(GET excesses 1 excess2)
if(NOT excess1 EQUAL excess2)
  message(FATAL_ERROR "the events over 2 processes exceed one process's by ${excess1} at "
                      "${MESSAGE_1} bytes but ${excess2} at ${MESSAGE_2}: not set-up alone")
endif()

run_allreduce(three "${mpi};-np;3" --distributed --messageBytes=${MESSAGE_1})
run_allreduce(one "" --drain --messageBytes=${MESSAGE_1})
if(NOT three_collective STREQUAL one_collective)
  message(FATAL_ERROR "collective ${three_collective} s over 3 processes, ${one_collective} s "
                      "in one")
endif()

# Negative control: a different run is told apart by the same comparison.
run_allreduce(other "${mpi};-np;2" --distributed --messageBytes=${MESSAGE_1} --ackInterval=2)
if(other_collective STREQUAL one_collective)
  message(FATAL_ERROR "AckInterval 2 gives the same collective (${other_collective} s): the "
                      "comparison cannot tell runs apart")
endif()
message(STATUS "same collective over 1, 2 and 3 processes; set-up excess ${excess1} events")
