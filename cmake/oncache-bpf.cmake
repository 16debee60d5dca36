# The ONCache eBPF datapath (bpf/oncache/): programs compiled with clang -target bpf, a libbpf
# skeleton from bpftool, the oncache-agent program and its root-only tests.
# SUITE_ENABLE_BPF defaults to ON when clang, bpftool and libbpf are all found.
find_program(SUITE_BPF_CLANG NAMES clang clang-14)
find_program(SUITE_BPFTOOL NAMES bpftool PATHS /usr/sbin /sbin)
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(LIBBPF QUIET IMPORTED_TARGET libbpf>=0.8)
endif()

set(_bpf_missing "")
if(NOT SUITE_BPF_CLANG)
  list(APPEND _bpf_missing clang)
endif()
if(NOT SUITE_BPFTOOL)
  list(APPEND _bpf_missing bpftool)
endif()
if(NOT LIBBPF_FOUND)
  list(APPEND _bpf_missing "libbpf (libbpf-dev, pkg-config)")
endif()
if(_bpf_missing)
  set(_bpf_default OFF)
else()
  set(_bpf_default ON)
endif()
option(SUITE_ENABLE_BPF "Build the ONCache eBPF datapath, its agent and its tests" ${_bpf_default})

if(NOT SUITE_ENABLE_BPF)
  if(_bpf_missing)
    message(STATUS "ONCache eBPF datapath: OFF (missing: ${_bpf_missing}; utils/install-deps.sh installs them)")
  else()
    message(STATUS "ONCache eBPF datapath: OFF (SUITE_ENABLE_BPF=OFF; -DSUITE_ENABLE_BPF=ON to build it)")
  endif()
  return()
endif()
if(_bpf_missing)
  message(FATAL_ERROR "SUITE_ENABLE_BPF=ON but missing: ${_bpf_missing}; run utils/install-deps.sh")
endif()
message(STATUS "ONCache eBPF datapath: ON (${SUITE_BPF_CLANG}, ${SUITE_BPFTOOL}, libbpf ${LIBBPF_VERSION})")

set(ONCACHE_BPF_DIR "${CMAKE_CURRENT_SOURCE_DIR}/bpf/oncache")
set(ONCACHE_BPF_OUT "${CMAKE_BINARY_DIR}/bpf/oncache")
file(MAKE_DIRECTORY "${ONCACHE_BPF_OUT}")
# UAPI headers of Debian's multiarch layout (asm/types.h) for the BPF target.
execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-multiarch
                OUTPUT_VARIABLE _multiarch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
set(_bpf_includes -I${ONCACHE_BPF_DIR})
if(_multiarch)
  list(APPEND _bpf_includes -I/usr/include/${_multiarch})
endif()

add_custom_command(
  OUTPUT "${ONCACHE_BPF_OUT}/oncache.bpf.o"
  COMMAND ${SUITE_BPF_CLANG} -g -O2 -Wall -Werror -target bpf ${_bpf_includes}
          -c "${ONCACHE_BPF_DIR}/oncache.bpf.c" -o "${ONCACHE_BPF_OUT}/oncache.bpf.o"
  DEPENDS "${ONCACHE_BPF_DIR}/oncache.bpf.c" "${ONCACHE_BPF_DIR}/oncache-abi.h"
  COMMENT "Compiling the ONCache eBPF programs (clang -target bpf)")
add_custom_command(
  OUTPUT "${ONCACHE_BPF_OUT}/oncache.skel.h"
  COMMAND ${SUITE_BPFTOOL} gen skeleton "${ONCACHE_BPF_OUT}/oncache.bpf.o" name oncache_bpf
          > "${ONCACHE_BPF_OUT}/oncache.skel.h"
  DEPENDS "${ONCACHE_BPF_OUT}/oncache.bpf.o"
  COMMENT "Generating the ONCache libbpf skeleton (bpftool gen skeleton)")
add_custom_target(oncache-bpf-skeleton DEPENDS "${ONCACHE_BPF_OUT}/oncache.skel.h")

add_library(oncache-bpf-agent STATIC "${ONCACHE_BPF_DIR}/oncache-bpf-agent.cc")
add_dependencies(oncache-bpf-agent oncache-bpf-skeleton)
target_include_directories(oncache-bpf-agent PUBLIC "${ONCACHE_BPF_DIR}" "${ONCACHE_BPF_OUT}")
target_link_libraries(oncache-bpf-agent PUBLIC PkgConfig::LIBBPF)
suite_apply_flags(oncache-bpf-agent)

add_executable(oncache-agent "${ONCACHE_BPF_DIR}/oncache-agent.cc")
target_link_libraries(oncache-agent PRIVATE oncache-bpf-agent)
suite_apply_flags(oncache-agent)

# The testbed's connect-request-response load generator (no eBPF; built with the testbed).
add_executable(oncache-crr "${CMAKE_CURRENT_SOURCE_DIR}/examples/oncache/testbed/oncache-crr.cc")
suite_apply_flags(oncache-crr)

if(SUITE_ENABLE_TESTS)
  add_subdirectory(test/oncache-bpf)
endif()
