#!/usr/bin/env bash
# Fuzzes recur's .npy header parser for SECONDS (default 60):
#
#   unit_tests/fuzz/run.sh [SECONDS]
#
# Builds npy_header_fuzz.cpp with src/npy.cpp (no Kokkos) by clang++
# -fsanitize=fuzzer,address,undefined and runs it from the seed corpus in
# unit_tests/fuzz/corpus (read only; new inputs go to build/fuzz/corpus).
# Exits non-zero when the fuzzer finds a crash, a sanitizer report or an
# exception other than recur::npy::Error; the input that did it is saved in
# build/fuzz/ as crash-*, to add to the corpus once fixed.
#
# clang and its libFuzzer runtime come from the distribution (Debian 12:
# clang, libclang-rt-14-dev), installed with apt-get when missing.
set -euo pipefail

seconds=${1:-60}
case "$seconds" in ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;; esac
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${RECUR_FUZZ_DIR:-$root/build/fuzz}
mkdir -p "$work/corpus"

say() { printf 'recur fuzz: %s\n' "$*" >&2; }
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else say "need root to run: $*"; exit 1; fi
}

find_clang() {
  local candidate
  for candidate in clang++ clang++-{19,18,17,16,15,14}; do
    command -v "$candidate" >/dev/null || continue
    # Usable only with its libFuzzer runtime (a separate package on Debian).
    if printf 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }\n' |
       "$candidate" -x c++ -fsanitize=fuzzer - -o "$work/probe" >/dev/null 2>&1; then
      echo "$candidate"
      return
    fi
  done
}

cxx=${CXX_FUZZ:-$(find_clang)}
if [ -z "$cxx" ]; then
  say "installing clang with its libFuzzer runtime"
  as_root apt-get update -qq
  packages=(clang)
  for runtime in libclang-rt-dev libclang-rt-14-dev; do
    if apt-cache show "$runtime" >/dev/null 2>&1; then packages+=("$runtime"); break; fi
  done
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
  cxx=$(find_clang)
  [ -n "$cxx" ] || { say "clang++ cannot link -fsanitize=fuzzer even after installing ${packages[*]}"; exit 1; }
fi

say "building the harness with $cxx"
"$cxx" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$root/include" "$here/npy_header_fuzz.cpp" "$root/src/npy.cpp" -o "$work/npy_header_fuzz"

say "fuzzing for $seconds s"
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
"$work/npy_header_fuzz" "$work/corpus" "$here/corpus" -dict="$here/npy.dict" \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/"
