#!/usr/bin/env bash
# build-optimized-ns3.sh - build an optimized, MPI-enabled ns-3.37 from Debian's
# source package (src:ns3, with its debian/patches applied) into a private prefix.
#
# Usage (as root, Debian 12 "bookworm"):
#   utils/build-optimized-ns3.sh [--force] [PREFIX [WORKDIR]]
#   NS3_PREFIX=/opt/x NS3_WORKDIR=/var/tmp/y JOBS=2 utils/build-optimized-ns3.sh
#
#   PREFIX   install prefix   (default: $NS3_PREFIX or /opt/ns3-3.37-optimized)
#   WORKDIR  source/build dir (default: $NS3_WORKDIR or /var/tmp/ns3-source)
#   JOBS     parallel jobs    (default: nproc); the build runs under `nice -n 10`
#   --force  rebuild and reinstall even if PREFIX already has ns3Config.cmake
#
# Steps: add a deb-src entry if none exists (deb822 file
# /etc/apt/sources.list.d/ns3-src.sources), apt-get update, install only the
# missing build deps, `apt-get source ns3` into WORKDIR, configure with CMake,
# build, install, then verify with a throw-away CMake project that does
# find_package(ns3 3.37) with CMAKE_PREFIX_PATH=PREFIX, links ns3::libcore and
# ns3::libmpi, and runs (singleton and `mpirun -np 2`).
# Idempotent: an existing install is detected and left alone (exit 0).
#
# Build profile notes (verified against the ns-3.37 sources):
#  * CMAKE_BUILD_TYPE=Release: ns-3.37 adds no -O flag of its own, so CMake's
#    release default for GCC applies: "-O3 -DNDEBUG" (no -march=native, as
#    NS3_NATIVE_OPTIMIZATIONS stays OFF, so the result is portable).
#  * NS3_LOG and NS3_ASSERT default to OFF and are only forced ON when no build
#    type is given; we pass them OFF explicitly (same as `./ns3 configure
#    --build-profile=release`). So NS3_LOG_ENABLE / NS3_ASSERT_ENABLE are NOT
#    defined: NS_LOG_* and NS_ASSERT* are compiled out. NS_ABORT_* / NS_FATAL_ERROR
#    remain active.
#  * NS3_WARNINGS_AS_ERRORS defaults to ON upstream; OFF here (as the release
#    profile of the ns3 wrapper does), so new GCC -O3 warnings cannot fail the build.
#  * Libraries are named libns3-<module>.so.37 (Debian's library-soversion.diff),
#    i.e. the same SONAMEs as Debian's libns3.37 package. Installed libraries
#    therefore get RPATH=PREFIX/lib so that the optimized ones load each other
#    instead of falling back to /usr/lib/x86_64-linux-gnu/libns3-*.so.37.
#  * Exported CMake targets are ns3::lib<module> (ns3::libcore, ns3::libmpi, ...).
set -euo pipefail

FORCE=0
POSITIONAL=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --force) FORCE=1; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    --) shift; POSITIONAL+=("$@"); break ;;
    -*) echo "unknown option: $1" >&2; exit 2 ;;
    *) POSITIONAL+=("$1"); shift ;;
  esac
done

PREFIX="${POSITIONAL[0]:-${NS3_PREFIX:-/opt/ns3-3.37-optimized}}"
WORKDIR="${POSITIONAL[1]:-${NS3_WORKDIR:-/var/tmp/ns3-source}}"
JOBS="${JOBS:-$(nproc)}"
NS3_VERSION=3.37
MODULES="core;network;internet;point-to-point;traffic-control;applications;flow-monitor;stats;config-store;bridge;csma;mpi"
export DEBIAN_FRONTEND=noninteractive

log() { printf '[build-optimized-ns3 %(%H:%M:%S)T] %s\n' -1 "$*"; }
die() { log "ERROR: $*" >&2; exit 1; }

find_config() {
  local f
  for f in "$PREFIX"/lib*/cmake/ns3/ns3Config.cmake "$PREFIX"/lib/*/cmake/ns3/ns3Config.cmake; do
    [[ -f "$f" ]] && { echo "$f"; return 0; }
  done
  return 1
}

if existing="$(find_config)" && [[ $FORCE -eq 0 ]]; then
  log "ns-3 already installed in $PREFIX ($existing); nothing to do (use --force to rebuild)."
  exit 0
fi

[[ $EUID -eq 0 ]] || die "must run as root (apt-get, install into $PREFIX)"

# --- 1. deb-src entry -------------------------------------------------------
has_deb_src() {
  grep -Eqs '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list && return 0
  grep -Eqs '^[[:space:]]*Types:.*deb-src' /etc/apt/sources.list.d/*.sources && return 0
  return 1
}
if has_deb_src; then
  log "deb-src entry already present"
else
  if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
    log "adding /etc/apt/sources.list.d/ns3-src.sources (deb-src copy of debian.sources)"
    { echo "# Added by build-optimized-ns3.sh: source packages (apt-get source ns3)"
      sed -E 's/^([[:space:]]*Types:).*/\1 deb-src/' /etc/apt/sources.list.d/debian.sources
    } > /etc/apt/sources.list.d/ns3-src.sources
  elif grep -Eqs '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list; then
    log "adding /etc/apt/sources.list.d/ns3-src.list (deb-src copy of sources.list)"
    { echo "# Added by build-optimized-ns3.sh: source packages (apt-get source ns3)"
      sed -nE 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list
    } > /etc/apt/sources.list.d/ns3-src.list
  else
    die "no Debian apt source found to derive a deb-src entry from"
  fi
fi

log "apt-get update"
apt-get update -qq

# --- 2. build dependencies (only the missing ones) -------------------------
WANT=(cmake g++ libopenmpi-dev openmpi-bin libgsl-dev libsqlite3-dev libxml2-dev libboost-dev dpkg-dev)
if apt-cache show ninja-build >/dev/null 2>&1; then WANT+=(ninja-build); fi
MISSING=()
for p in "${WANT[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || MISSING+=("$p")
done
if [[ ${#MISSING[@]} -gt 0 ]]; then
  log "installing missing build deps: ${MISSING[*]}"
  apt-get install -y -qq --no-install-recommends "${MISSING[@]}"
else
  log "all build deps already installed"
fi

# --- 3. source --------------------------------------------------------------
mkdir -p "$WORKDIR"
find_src() { compgen -G "$WORKDIR/ns3-${NS3_VERSION}*/ns-${NS3_VERSION}/CMakeLists.txt" | head -n1 || true; }
SRC_CML="$(find_src)"
if [[ -z "$SRC_CML" ]]; then
  log "apt-get source ns3 (into $WORKDIR)"
  (cd "$WORKDIR" && apt-get source -qq ns3)
  SRC_CML="$(find_src)"
  [[ -n "$SRC_CML" ]] || die "apt-get source ns3 did not yield ns-${NS3_VERSION} under $WORKDIR"
else
  log "source already unpacked: ${SRC_CML%/CMakeLists.txt}"
fi
SRC="${SRC_CML%/CMakeLists.txt}"
PKGDIR="$(dirname "$SRC")"
[[ -f "$PKGDIR/debian/patches/series" ]] && log "debian patches applied: $(tr '\n' ' ' < "$PKGDIR/debian/patches/series")"
BUILD="$WORKDIR/build-optimized"

# --- 4. configure, build, install ------------------------------------------
GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
if [[ -f "$BUILD/CMakeCache.txt" ]] && ! grep -q "^CMAKE_INSTALL_PREFIX:PATH=$PREFIX\$" "$BUILD/CMakeCache.txt"; then
  log "existing build dir configured for another prefix; wiping it"
  rm -rf "$BUILD"
fi
if [[ -f "$BUILD/CMakeCache.txt" ]] && [[ ${#GEN[@]} -gt 0 ]] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$BUILD/CMakeCache.txt"; then
  rm -rf "$BUILD"
fi
log "configuring ($SRC -> $BUILD)"
cmake -S "$SRC" -B "$BUILD" "${GEN[@]}" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$PREFIX" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -DCMAKE_INSTALL_RPATH="$PREFIX/lib" \
  -DNS3_MPI=ON \
  -DNS3_ENABLED_MODULES="$MODULES" \
  -DNS3_EXAMPLES=OFF -DNS3_TESTS=OFF \
  -DNS3_PYTHON_BINDINGS=OFF -DNS3_VISUALIZER=OFF \
  -DNS3_LOG=OFF -DNS3_ASSERT=OFF \
  -DNS3_WARNINGS_AS_ERRORS=OFF \
  -DNS3_GTK3=OFF -DNS3_NETANIM=OFF

log "building with JOBS=$JOBS under nice -n 10"
t0=$SECONDS
nice -n 10 cmake --build "$BUILD" -j "$JOBS"
log "build finished in $((SECONDS - t0)) s"

log "installing into $PREFIX"
cmake --install "$BUILD"

# --- 5. verify ----------------------------------------------------------------
CONFIG="$(find_config)" || die "no ns3Config.cmake under $PREFIX after install"
log "found $CONFIG"
TARGETS_FILE="$(dirname "$CONFIG")/ns3Targets.cmake"
EXPORTED="$(grep -oE 'add_library\(ns3::[A-Za-z0-9_-]+' "$TARGETS_FILE" | sed 's/add_library(//' | sort | tr '\n' ' ')"
log "exported targets: $EXPORTED"
grep -q 'ns3::libmpi ' <<<"$EXPORTED " || die "ns3::libmpi not exported (MPI not enabled?)"

if grep -q -- '-DNS3_LOG_ENABLE\|-DNS3_ASSERT_ENABLE' "$BUILD/compile_commands.json"; then
  log "WARNING: NS3_LOG_ENABLE/NS3_ASSERT_ENABLE found in compile flags"
else
  log "logging and asserts compiled out (no -DNS3_LOG_ENABLE / -DNS3_ASSERT_ENABLE); CXX_FLAGS_RELEASE: $(sed -n 's/^CMAKE_CXX_FLAGS_RELEASE:STRING=//p' "$BUILD/CMakeCache.txt")"
fi
log "MPI: $(sed -n 's/^MPI_CXX_LIBRARIES:INTERNAL=//p;s/^MPI_mpi_LIBRARY:FILEPATH=//p' "$BUILD/CMakeCache.txt" | head -n1) ($(mpirun --version 2>/dev/null | head -n1 || echo 'mpirun not found'))"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cat > "$TMP/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(ns3_optimized_smoke CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
find_package(ns3 3.37 REQUIRED)
message(STATUS "ns3_DIR=${ns3_DIR}")
add_executable(smoke main.cc)
target_link_libraries(smoke PRIVATE ns3::libcore ns3::libmpi ${CMAKE_DL_LIBS})
EOF
cat > "$TMP/main.cc" <<'EOF'
#include "ns3/core-module.h"
#include "ns3/mpi-interface.h"
#include <dlfcn.h>
#include <iostream>
using namespace ns3;
static const char* where(void* sym) { Dl_info i{}; return (dladdr(sym, &i) && i.dli_fname) ? i.dli_fname : "?"; }
int main(int argc, char* argv[]) {
  MpiInterface::Enable(&argc, &argv);
  bool ran = false;
  Simulator::Schedule(Seconds(1), [&ran]() { ran = true; });
  Simulator::Run();
  const uint32_t id = MpiInterface::GetSystemId(), n = MpiInterface::GetSize();
  if (id == 0) {
    std::cout << "libcore loaded from: " << where(reinterpret_cast<void*>(&Simulator::Now)) << "\n"
              << "libmpi  loaded from: " << where(reinterpret_cast<void*>(&MpiInterface::GetSize)) << "\n";
  }
  std::cout << "rank " << id << "/" << n << " event ran=" << ran << " t=" << Simulator::Now().GetSeconds() << "s\n";
  Simulator::Destroy();
  MpiInterface::Disable();
  return ran ? 0 : 1;
}
EOF
log "verifying with a find_package(ns3 3.37) project in $TMP"
cmake -S "$TMP" -B "$TMP/build" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON > "$TMP/configure.log" \
  || { cat "$TMP/configure.log"; die "smoke project configure failed"; }
FOUND_DIR="$(sed -n 's/.*ns3_DIR=//p' "$TMP/configure.log")"
log "find_package(ns3) resolved to: $FOUND_DIR"
[[ "$FOUND_DIR" == "$PREFIX"/* ]] || die "find_package(ns3) did not use $PREFIX"
cmake --build "$TMP/build" >/dev/null || die "smoke project build failed"
log "ldd of smoke binary (ns3 libraries):"
ldd "$TMP/build/smoke" | grep -E 'libns3|libmpi' | sed 's/^/    /'
if ldd "$TMP/build/smoke" | grep -E 'libns3' | grep -vq "=> $PREFIX/"; then
  die "some libns3 libraries resolve outside $PREFIX"
fi
if [[ $EUID -eq 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
OUT="$("$TMP/build/smoke")" || die "smoke binary failed"; echo "$OUT" | sed 's/^/    /'
grep -q "libcore loaded from: $PREFIX/" <<<"$OUT" || die "libns3-core was not loaded from $PREFIX"
if command -v mpirun >/dev/null 2>&1; then
  log "mpirun -np 2"
  MPIOUT="$(mpirun --oversubscribe -np 2 "$TMP/build/smoke")" || die "mpirun -np 2 failed"
  echo "$MPIOUT" | sed 's/^/    /'
  grep -q 'rank 1/2' <<<"$MPIOUT" || die "mpirun -np 2 did not report rank 1/2"
fi
log "OK: optimized MPI-enabled ns-3 $NS3_VERSION installed in $PREFIX (use -DCMAKE_PREFIX_PATH=$PREFIX)"
