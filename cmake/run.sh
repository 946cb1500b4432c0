#!/usr/bin/env bash
# recur's one entry point for a fresh machine (Debian or Ubuntu):
#
#   cmake/run.sh demo    build the demo (dependencies included) and run it
#   cmake/run.sh test    build everything, run the whole test suite (ctest)
#   cmake/run.sh perf    build the perf suite and run it (JSON in build/)
#   cmake/run.sh asan    unit and command tests under AddressSanitizer and
#                        UndefinedBehaviorSanitizer, Serial backend (build/asan)
#   cmake/run.sh fuzz [SECONDS]  fuzz the .npy header parser (default 60 s)
#   cmake/run.sh deps    only make sure the dependencies are there
#   cmake/run.sh kokkos  only make sure Kokkos is there, and print its prefix
#                        (what `pip install .` uses when no Kokkos is named)
#   cmake/run.sh arch-flags  print what recur adds to that Kokkos' architecture
#                        flags on this machine (RECUR_ARCH_FLAGS; `pip install .`
#                        takes them with that Kokkos)
#   cmake/run.sh install PREFIX  install recur (library, headers, the recur
#                        command, CMake package) into PREFIX, and with it the
#                        Kokkos and Kokkos Kernels it builds in .deps/, so that
#                        PREFIX stands alone: it may be moved, and the checkout
#                        deleted (a Kokkos named by Kokkos_ROOT stays where it is)
#
# Dependencies, each looked for before anything is installed or built:
#   - GoogleTest and Google Benchmark: Debian's libgtest-dev and
#     libbenchmark-dev, installed with apt-get when missing; likewise
#     python3-numpy and python3-openturns, which the tests of the recur
#     command use (OpenTURNS for the multivariate bases), OpenMPI
#     (openmpi-bin, libopenmpi-dev) for recur/mpi.hpp and its tests, and
#     OpenBLAS (libopenblas-dev), the vendor BLAS behind Kokkos Kernels.
#   - Kokkos and Kokkos Kernels: the install named by $Kokkos_ROOT if set;
#     otherwise a cached build in .deps/ (git-ignored), made once from the
#     Kokkos 3.4.01 and Kokkos Kernels 3.4.01 sources that Debian's trilinos
#     source package carries: OpenMP + Serial for the openmp preset, Serial
#     alone for the serial preset (the backend is the Kokkos built against).
#     apt runs with private state directories, so the system's apt
#     configuration is left as it was.
#
# Environment: RECUR_PRESET (openmp | serial | cuda; default openmp),
# Kokkos_ROOT (use this Kokkos instead of building one), RECUR_DEPS (cache
# folder, default .deps), RECUR_JOBS (parallel build jobs, default nproc),
# RECUR_KOKKOS_ARCH (the Kokkos_ARCH_<name> of the Kokkos this builds: SKX by
# default where this CPU has Skylake-X's AVX-512 and transactional memory,
# else HSW where it has Haswell's instructions, AVX2 and FMA among them;
# none for a build that runs on any x86-64), RECUR_ARCH_FLAGS (compile options
# recur adds to that architecture's; by default AVX-512's where the CPU has it
# and Kokkos is built for HSW, below).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=${RECUR_PRESET:-openmp}
deps=${RECUR_DEPS:-$root/.deps}
jobs=${RECUR_JOBS:-$(nproc)}
kokkos_sources=$deps/kokkos-3.4.01-sources

# The CPU architecture the Kokkos built here targets, as Kokkos names it:
# this machine's, as a local build should (Kokkos 3.4 has no "native"
# option). Haswell's instruction set (AVX2, FMA, BMI2, ...: every x86-64 CPU
# since 2013-2015 has it) where /proc/cpuinfo shows all of it, so that
# recur's double-double arithmetic gets hardware FMA and its lockstep lanes
# 256-bit vectors; Skylake-X's (Kokkos SKX: AVX-512 F, CD, BW, DQ and VL on
# top) where the CPU also has those and RTM, which Kokkos' SKX build uses for
# its host locks: the same 256-bit lanes then have 32 vector registers
# instead of 16 (on this project's Intel VM float He_n/sqrt(n!) 1.1-1.2 times
# and double-double 1.25-1.3 times as fast; docs/performance.md, "CPU,
# 2026-12-04: Kokkos for AVX-512"); none elsewhere. Kokkos passes the flags on
# to everything built against it, recur included.
host_kokkos_arch() {
  if [ -n "${RECUR_KOKKOS_ARCH:-}" ]; then
    [ "$RECUR_KOKKOS_ARCH" = none ] || echo "$RECUR_KOKKOS_ARCH"
    return 0
  fi
  local flags
  flags=$(grep -m 1 '^flags' /proc/cpuinfo 2>/dev/null) || return 0
  for f in avx2 fma bmi1 bmi2 movbe f16c popcnt aes pclmulqdq fsgsbase rdrand; do
    [[ " $flags " == *" $f "* ]] || return 0
  done
  for f in avx512f avx512cd avx512bw avx512dq avx512vl rtm; do
    [[ " $flags " == *" $f "* ]] || { echo HSW; return 0; }
  done
  echo SKX
}
kokkos_arch=$(host_kokkos_arch)
# What recur adds to that architecture (CMake's RECUR_ARCH_FLAGS): AVX-512 F,
# CD, BW, DQ and VL where this CPU has them but Kokkos is built for HSW
# because it lacks transactional memory (AMD Zen 4 and later): 32 vector
# registers for the lanes, as SKX gives them (on this project's Zen 4 VM,
# one thread in cache, double-double rows 1.3 times and double Fast rows 1.4
# times as fast: docs/performance.md, "CPU, 2026-12-08: AVX-512 on AMD Zen 4").
# $RECUR_ARCH_FLAGS, if set, instead (empty for none). Only with the Kokkos
# built here: one named by Kokkos_ROOT brings its own flags.
host_arch_flags() {
  [ "$kokkos_arch" = HSW ] && [ -z "${Kokkos_ROOT:-}" ] || return 0
  local flags
  flags=$(grep -m 1 '^flags' /proc/cpuinfo 2>/dev/null) || return 0
  for f in avx512f avx512cd avx512bw avx512dq avx512vl; do
    [[ " $flags " == *" $f "* ]] || return 0
  done
  echo "-mavx512f -mavx512cd -mavx512bw -mavx512dq -mavx512vl"
}
arch_flags=${RECUR_ARCH_FLAGS-$(host_arch_flags)}
# The vendor BLAS that Kokkos Kernels is built against where the machine has
# it: Debian's OpenBLAS (libopenblas-dev); none otherwise, and Kokkos
# Kernels' own kernels do the products.
openblas_library() {
  local d
  for d in "/usr/lib/$(uname -m)-linux-gnu" /usr/lib64 /usr/lib; do
    [ -e "$d/libopenblas.so" ] && { echo "$d/libopenblas.so"; return 0; }
  done
  return 0
}
# One prefix per preset, architecture and BLAS: kokkos-3.4.01-openmp-skx-openblas-pic.
# Position-independent code (-pic), so that recur's Python module, a shared
# library, can link it.
kokkos_prefix_of() {
  local blas
  blas=$(openblas_library)
  echo "$deps/kokkos-3.4.01-$1${kokkos_arch:+-${kokkos_arch,,}}${blas:+-openblas}-pic"
}

say() { printf 'recur: %s\n' "$*" >&2; }
die() { printf 'recur: error: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "need root to run: $* (install it, or rerun as root)"; fi
}

ensure_test_packages() {
  local missing=()
  dpkg -s libgtest-dev >/dev/null 2>&1 || missing+=(libgtest-dev)
  dpkg -s libbenchmark-dev >/dev/null 2>&1 || missing+=(libbenchmark-dev)
  dpkg -s python3-numpy >/dev/null 2>&1 || missing+=(python3-numpy)
  dpkg -s python3-dev >/dev/null 2>&1 || missing+=(python3-dev)
  dpkg -s python3-pip >/dev/null 2>&1 || missing+=(python3-pip)
  dpkg -s python3-pytest >/dev/null 2>&1 || missing+=(python3-pytest)
  dpkg -s python3-openturns >/dev/null 2>&1 || missing+=(python3-openturns)
  dpkg -s openmpi-bin >/dev/null 2>&1 || missing+=(openmpi-bin)
  dpkg -s libopenmpi-dev >/dev/null 2>&1 || missing+=(libopenmpi-dev)
  dpkg -s libopenblas-dev >/dev/null 2>&1 || missing+=(libopenblas-dev)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# nanobind, which the Python package is built with, from the Python package
# index into $deps/python for the distribution's Python (the one apt gives
# NumPy to), and the CMake arguments that build the package with them.
system_python=/usr/bin/python3
nanobind_version=2.4.0
ensure_nanobind() {
  local target=$deps/python
  if [ ! -f "$target/nanobind-$nanobind_version.dist-info/METADATA" ]; then
    say "installing nanobind $nanobind_version into $target (pip)"
    rm -rf "$target"
    "$system_python" -m pip install -q --disable-pip-version-check --root-user-action=ignore --target "$target" \
      "nanobind==$nanobind_version" || die "pip could not install nanobind (the Python package index must be reachable)"
  fi
  python_arguments=(-DRECUR_ENABLE_PYTHON=ON "-DPython_EXECUTABLE=$system_python"
                    "-Dnanobind_DIR=$target/nanobind/cmake")
}

# One-line deb-src entries for the machine's own archive (the entries of the
# release it runs, e.g. "bookworm"), read from its apt sources.
archive_sources() {
  local codename
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  [ -n "$codename" ] || die "cannot tell this system's release from /etc/os-release"
  {
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -e "$f" ] || continue
      awk -v RS= -v codename="$codename" '
        { types = uris = suites = comps = key = ""
          n = split($0, lines, "\n")
          for (i = 1; i <= n; i++) {
            line = lines[i]; sub(/^[ \t]+/, "", line)
            if (line ~ /^#/) continue
            split(line, kv, ":"); field = kv[1]; value = substr(line, length(field) + 2)
            sub(/^[ \t]+/, "", value)
            if (field == "Types") types = value
            else if (field == "URIs") uris = value
            else if (field == "Suites") suites = value
            else if (field == "Components") comps = value
            else if (field == "Signed-By") key = value
          }
          if (types !~ /(^| )deb( |$)/) next
          ns = split(suites, s, " "); nu = split(uris, u, " ")
          for (a = 1; a <= nu; a++) for (b = 1; b <= ns; b++)
            if (s[b] == codename)
              printf "deb-src %s %s %s %s\n", (key ? "[signed-by=" key "]" : ""), u[a], s[b], comps
        }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ -e "$f" ] || continue
      awk -v codename="$codename" '$1 == "deb" {
          line = $0; sub(/^deb/, "deb-src", line)
          for (i = 2; i <= NF; i++) if ($i == codename) { print line; break } }' "$f"
    done
  } | sort -u
}

fetch_kokkos_sources() {
  local work=$deps/work apt=$deps/work/apt
  rm -rf "$work" "$kokkos_sources"
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/etc/sources.list.d" \
           "$apt/etc/preferences.d" "$work/src"
  archive_sources > "$apt/etc/sources.list"
  [ -s "$apt/etc/sources.list" ] || die "found no apt source for this release to take the trilinos source package from"
  local opts=(-o "Dir::State=$apt" -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
              -o "Dir::Etc::SourceList=$apt/etc/sources.list" -o "Dir::Etc::SourceParts=$apt/etc/sources.list.d"
              -o "Dir::Etc::Preferences=$apt/etc/preferences" -o "Dir::Etc::PreferencesParts=$apt/etc/preferences.d"
              -o "Dir::State::status=/var/lib/dpkg/status" -o "APT::Sandbox::User=$(id -un)")
  say "fetching Debian's trilinos source package (it carries Kokkos 3.4.01 and Kokkos Kernels 3.4.01)"
  apt-get "${opts[@]}" -qq update
  (cd "$work/src" && apt-get "${opts[@]}" -qq source --download-only trilinos)
  local tarball
  tarball=$(ls "$work"/src/trilinos_*.orig.tar.* 2>/dev/null | head -n 1)
  [ -n "$tarball" ] || die "apt-get source trilinos brought no .orig tarball"
  tar -xf "$tarball" -C "$work/src" --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  mv "$(ls -d "$work"/src/*/packages | head -n 1)" "$kokkos_sources"
  rm -rf "$work"
}

build_kokkos() {
  local backends=(-DKokkos_ENABLE_SERIAL=ON) build=$deps/build-$preset
  [ "$preset" = serial ] || backends+=(-DKokkos_ENABLE_OPENMP=ON)
  [ -z "$kokkos_arch" ] || backends+=("-DKokkos_ARCH_$kokkos_arch=ON")
  [ -d "$kokkos_sources/kokkos" ] || fetch_kokkos_sources
  rm -rf "$build" && mkdir -p "$build"
  say "building Kokkos (${backends[*]}) into $kokkos_prefix"
  cmake -S "$kokkos_sources/kokkos" -B "$build/kokkos" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$kokkos_prefix" -DCMAKE_CXX_STANDARD=17 "${backends[@]}" \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    > "$build/kokkos-configure.log" 2>&1 || { cat "$build/kokkos-configure.log" >&2; die "configuring Kokkos failed"; }
  cmake --build "$build/kokkos" -j "$jobs" > "$build/kokkos-build.log" 2>&1 ||
    { tail -40 "$build/kokkos-build.log" >&2; die "building Kokkos failed"; }
  cmake --install "$build/kokkos" > /dev/null

  local blas tpl=()
  blas=$(openblas_library)
  [ -z "$blas" ] || tpl=(-DKokkosKernels_ENABLE_TPL_BLAS=ON -DKokkosKernels_ENABLE_TPL_LAPACK=OFF
                         -DBLAS_LIBRARIES=openblas "-DBLAS_LIBRARY_DIRS=$(dirname "$blas")")
  say "building Kokkos Kernels (used header-only: no pre-instantiation; BLAS: ${blas:-its own kernels}) into $kokkos_prefix"
  cmake -S "$kokkos_sources/kokkos-kernels" -B "$build/kernels" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$kokkos_prefix" -DKokkos_ROOT="$kokkos_prefix" "${tpl[@]}" \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF \
    -DKokkosKernels_INST_LAYOUTLEFT=OFF -DKokkosKernels_INST_LAYOUTRIGHT=OFF \
    -DKokkosKernels_INST_OFFSET_INT=OFF -DKokkosKernels_INST_OFFSET_SIZE_T=OFF \
    -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_ENABLE_TESTS=OFF \
    > "$build/kernels-configure.log" 2>&1 || { cat "$build/kernels-configure.log" >&2; die "configuring Kokkos Kernels failed"; }
  cmake --build "$build/kernels" -j "$jobs" > "$build/kernels-build.log" 2>&1 ||
    { tail -40 "$build/kernels-build.log" >&2; die "building Kokkos Kernels failed"; }
  cmake --install "$build/kernels" > /dev/null
  rm -rf "$build"
}

user_kokkos=${Kokkos_ROOT:+yes}

ensure_kokkos() {
  if [ -n "${Kokkos_ROOT:-}" ]; then
    [ -d "$Kokkos_ROOT" ] || die "Kokkos_ROOT=$Kokkos_ROOT is not a folder; point it at a Kokkos install prefix"
    say "using Kokkos from Kokkos_ROOT=$Kokkos_ROOT"
    return
  fi
  kokkos_prefix=$(kokkos_prefix_of "$preset")
  [ "$preset" != cuda ] || die "the cuda preset needs a CUDA-enabled Kokkos: set Kokkos_ROOT to its install prefix (README.md, 'Building for CUDA')"
  if [ ! -f "$kokkos_prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ] &&
     [ ! -f "$kokkos_prefix/lib64/cmake/Kokkos/KokkosConfig.cmake" ]; then
    build_kokkos
  fi
  export Kokkos_ROOT=$kokkos_prefix
}

# Configures the preset and builds the given targets (all when none).
build() {
  ensure_test_packages
  ensure_kokkos
  ensure_nanobind
  # A build folder configured against another Kokkos (an older prefix, another
  # architecture) is configured afresh: CMake would keep its cached Kokkos_DIR.
  local cache=$root/build/$preset/CMakeCache.txt
  if [ -f "$cache" ] && ! grep -q "^Kokkos_DIR:PATH=$(cd "$Kokkos_ROOT" && pwd)/" "$cache"; then
    say "build/$preset was configured against another Kokkos: configuring it afresh"
    rm -f "$cache"
  fi
  cmake --preset "$preset" -S "$root" "${python_arguments[@]}" "-DRECUR_ARCH_FLAGS=$arch_flags" \
    > "$deps/configure-$preset.log" 2>&1 ||
    { cat "$deps/configure-$preset.log" >&2; die "configuring the '$preset' preset failed"; }
  local targets=()
  [ $# -eq 0 ] || targets=(--target "$@")
  cmake --build --preset "$preset" -j "$jobs" "${targets[@]}"
}

# The unit tests and the command's tests built with AddressSanitizer and
# UndefinedBehaviorSanitizer (any report fails the test) against a
# Serial-only Kokkos, in build/asan: only the test targets are built, and
# only those tests run (the compile-fail and install checks test no code).
# Unoptimized (-O0), and without UndefinedBehaviorSanitizer's alignment,
# null, vptr and pointer-overflow checks (AddressSanitizer reports a null
# dereference itself; the others instrument every access): the build is the
# stage's cost. On 2 cores the stage took 930 s this way, about 2250 s at -O1
# with every check (4000 CPU seconds of compiling against 1550; the tests
# ran 120 s against 240, the large Gauss rules of unit_tests/test_gauss.cpp
# at 2000 points instead of 10000 in sanitized builds).
asan() {
  preset=serial
  ensure_test_packages
  ensure_kokkos
  local build=$root/build/asan
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=None \
    -DCMAKE_CXX_FLAGS="-O0 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize=alignment,null,vptr,pointer-overflow -fno-sanitize-recover=undefined" \
    -DRECUR_ENABLE_BENCHMARKS=OFF -DRECUR_ENABLE_EXAMPLES=OFF -DRECUR_ENABLE_MPI=OFF \
    -DRECUR_ENABLE_PYTHON=OFF "-DRECUR_ARCH_FLAGS=$arch_flags" > "$deps/configure-asan.log" 2>&1 ||
    { cat "$deps/configure-asan.log" >&2; die "configuring the sanitizer build failed"; }
  cmake --build "$build" -j "$jobs" --target recur_unit_tests recur_cli
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
    ctest --test-dir "$build" --output-on-failure -j "$jobs" -R '^(unit_tests|cli)$'
}

# recur and, unless Kokkos_ROOT names the user's own, the Kokkos of .deps/
# into one prefix; recur's package config prefers the Kokkos of its own
# prefix, so the whole prefix can move.
install_into() {
  [ -n "${1:-}" ] || die "usage: cmake/run.sh install PREFIX"
  mkdir -p "$1" || die "cannot create the install prefix $1"
  local prefix build=$root/build/install-$preset
  prefix=$(cd "$1" && pwd)
  ensure_kokkos
  if [ -z "$user_kokkos" ]; then
    say "copying Kokkos and Kokkos Kernels from $Kokkos_ROOT into $prefix"
    cp -a "$Kokkos_ROOT/." "$prefix/"
    export Kokkos_ROOT=$prefix
  fi
  cmake --preset "$preset" -S "$root" -B "$build" -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DRECUR_ENABLE_TESTS=OFF -DRECUR_ENABLE_BENCHMARKS=OFF -DRECUR_ENABLE_EXAMPLES=OFF -DRECUR_ENABLE_PYTHON=OFF \
    "-DRECUR_ARCH_FLAGS=$arch_flags" > "$deps/configure-install-$preset.log" 2>&1 ||
    { cat "$deps/configure-install-$preset.log" >&2; die "configuring the install build failed"; }
  cmake --build "$build" -j "$jobs"
  cmake --install "$build" > /dev/null
  say "installed into $prefix: find_package(recur) with CMAKE_PREFIX_PATH=$prefix; the command is $prefix/bin/recur"
}

# Threads pinned one per core: what the OpenMP backend asks for (and
# without which it prints a warning at every start).
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}

case "$preset" in openmp|serial|cuda) ;; *) die "RECUR_PRESET must be openmp, serial or cuda, not '$preset'" ;; esac
mkdir -p "$deps"
case "${1:-}" in
  deps) ensure_test_packages; ensure_kokkos; say "Kokkos_ROOT=$Kokkos_ROOT" ;;
  kokkos) ensure_kokkos; echo "$Kokkos_ROOT" ;;
  arch-flags) echo "$arch_flags" ;;
  demo) build recur_demo; "$root/build/$preset/examples/recur_demo" ;;
  test) build; ctest --preset "$preset" ;;
  asan) asan ;;
  install) install_into "${2:-}" ;;
  fuzz) "$root/unit_tests/fuzz/run.sh" "${2:-60}" ;;
  perf) build recur_perf
        "$root/build/$preset/perf_tests/recur_perf" \
          --benchmark_out="$root/build/$preset/perf.json" --benchmark_out_format=json ;;
  *) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
