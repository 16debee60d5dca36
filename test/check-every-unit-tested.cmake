# Every unit (a .cc file in model/<module>/ or helper/<module>/) has a test: a file in
# test/<module>/ named after it (<unit>[-more]-gtest.cc or <unit>[-more]-test-suite.cc), or a
# "// Tests: <unit>, <unit>, ..." line in the opening comment of a test file in test/<module>/,
# or a place in the list of exceptions below. Every name on a Tests: line must be a unit (a
# file of model/, helper/ or bpf/ without its extension), every exception a unit that has no
# test otherwise. Prints what is wrong and fails.
#
#   cmake -DSOURCE_DIR=<repository> [-DEXTRA_UNITS=<module>/<unit>;...]
#         [-DEXTRA_TESTS_NAMES=<name>;...] -P check-every-unit-tested.cmake
#
# EXTRA_UNITS and EXTRA_TESTS_NAMES are for the negative controls: a unit that has no test,
# and a name on a Tests: line that is no unit.

# Units without a test of their own, each with the reason.
set(EXCEPTIONS
  "clos/clos-ecmp-routing-helper|helper: installs ClosEcmpRouting, on every fabric the clos tests build"
  "cluster/cluster-job-executor|interface: its methods are empty defaults, the executors are tested"
  "fluid/fluid-executor|checked against the packet engine in test/collective and test/cluster"
  "fluid/fluid-replay|FluidExecutor's replay of a job alone, checked with it (fluid-executor)"
  "lean-link/lean-link-ipv4-receive|fast-path hook: checked by clos-switch-forwarder and roce-host-path"
  "lean-link/lean-link-remote-channel|MPI channel: checked by the distributed runs in test/vclos"
  "oncache/oncache-packet-frame|frame bytes of the fast path: checked by oncache-datapath (VXLAN on the wire)"
  "roce/roce-helper|helper: installs RoceNic, on every node of the roce tests"
  "suite/suite-run-program|program wrapper: checked by the suite-bad-input-* tests of every program")

cmake_minimum_required(VERSION 3.20)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check-every-unit-tested: -DSOURCE_DIR=<repository> is required")
endif()

# The units, as <module>/<unit>.
file(GLOB unitFiles RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/model/*/*.cc ${SOURCE_DIR}/helper/*/*.cc)
set(units ${EXTRA_UNITS})
foreach(f ${unitFiles})
  get_filename_component(dir ${f} DIRECTORY)
  get_filename_component(module ${dir} NAME)
  get_filename_component(unit ${f} NAME_WLE)
  list(APPEND units ${module}/${unit})
endforeach()
list(REMOVE_DUPLICATES units)
list(SORT units)

# Names a Tests: line may use: every source or header of model/, helper/ and bpf/.
file(GLOB nameFiles ${SOURCE_DIR}/model/*/*.cc ${SOURCE_DIR}/model/*/*.h
     ${SOURCE_DIR}/helper/*/*.cc ${SOURCE_DIR}/helper/*/*.h
     ${SOURCE_DIR}/bpf/*/*.c ${SOURCE_DIR}/bpf/*/*.cc ${SOURCE_DIR}/bpf/*/*.h)
set(knownNames "")
foreach(f ${nameFiles})
  get_filename_component(name ${f} NAME_WLE)
  list(APPEND knownNames ${name})
endforeach()
foreach(u ${EXTRA_UNITS})
  get_filename_component(name ${u} NAME)
  list(APPEND knownNames ${name})
endforeach()

# Tests: lines of every test file, read from its opening comment (the lines before the first
# one that is not a comment). covered_<module> lists the names on the lines in test/<module>/.
set(problems "")
file(GLOB_RECURSE testFiles RELATIVE ${SOURCE_DIR}/test ${SOURCE_DIR}/test/*.cc)
list(SORT testFiles)
foreach(t ${testFiles})
  get_filename_component(dir ${t} DIRECTORY)
  file(READ ${SOURCE_DIR}/test/${t} text LIMIT 8000)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(names "")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^(//|/\\*| \\*)")
      break()
    endif()
    if(line MATCHES "^// Tests: (.*)$")
      string(REPLACE "," ";" listed "${CMAKE_MATCH_1}")
      foreach(name ${listed})
        string(STRIP "${name}" name)
        list(APPEND names ${name})
      endforeach()
    endif()
  endforeach()
  foreach(name ${names})
    if(NOT name IN_LIST knownNames)
      list(APPEND problems "test/${t}: Tests: names ${name}, which is no unit")
    endif()
    list(APPEND covered_${dir} ${name})
  endforeach()
endforeach()
# The typo control's names, as if on a Tests: line of test/suite/.
foreach(name ${EXTRA_TESTS_NAMES})
  if(NOT name IN_LIST knownNames)
    list(APPEND problems "test/suite: Tests: names ${name}, which is no unit")
  endif()
endforeach()

set(excepted "")
foreach(e ${EXCEPTIONS})
  string(REGEX REPLACE "\\|.*" "" u "${e}")
  list(APPEND excepted ${u})
  if(NOT u IN_LIST units)
    list(APPEND problems "exception ${u} is no unit")
  endif()
endforeach()

set(byName 0)
set(byLine 0)
set(missing "")
foreach(mu ${units})
  get_filename_component(module ${mu} DIRECTORY)
  get_filename_component(unit ${mu} NAME)
  file(GLOB named RELATIVE ${SOURCE_DIR}/test/${module}
       ${SOURCE_DIR}/test/${module}/${unit}-gtest.cc ${SOURCE_DIR}/test/${module}/${unit}-*-gtest.cc
       ${SOURCE_DIR}/test/${module}/${unit}-test-suite.cc
       ${SOURCE_DIR}/test/${module}/${unit}-*-test-suite.cc)
  set(tested OFF)
  foreach(n ${named})
    if(n MATCHES "^${unit}(-[a-z0-9-]+)?-(gtest|test-suite)\\.cc$")
      set(tested ON)
    endif()
  endforeach()
  if(tested)
    math(EXPR byName "${byName} + 1")
  elseif(unit IN_LIST covered_${module})
    set(tested ON)
    math(EXPR byLine "${byLine} + 1")
  endif()
  if(mu IN_LIST excepted)
    if(tested)
      list(APPEND problems "exception ${mu} has a test now: take it off the list")
    endif()
  elseif(NOT tested)
    list(APPEND missing ${mu})
  endif()
endforeach()

foreach(mu ${missing})
  list(APPEND problems "no test: ${mu} (no test file named after it, no Tests: line naming it)")
endforeach()

list(LENGTH units total)
list(LENGTH excepted exceptions)
message("${total} units: ${byName} with a test named after them, ${byLine} on Tests: lines, "
        "${exceptions} exceptions")
if(problems)
  foreach(p ${problems})
    message("${p}")
  endforeach()
  list(LENGTH problems n)
  message(FATAL_ERROR "suite-every-unit-tested: ${n} problems")
endif()
