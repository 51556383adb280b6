#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, address + undefined sanitizers) and runs each one for
# SECONDS (default 60) on a working copy of its seed corpus. A crash, hang (> 10 s per input),
# leak or sanitizer report stops the run with a non-zero exit; the input is kept in
# build/fuzz/crashes/<target>/. Turn each into a regression: copy it to
# tests/fuzz/regressions/<target>/ (the test suite replays those).
# Usage: scripts/fuzz.sh [SECONDS|ci] [TARGET...]   targets: inp msh search exodus
#   ci: a fixed seed and a fixed number of inputs per target (at least its seed corpus), so that the
#   run is the same on every machine: the brief run to make after touching a reader or the input
#   checks (scripts/test.sh replays the corpus and regressions only).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
declare -A ciRuns=([inp]=5000 [msh]=5000 [search]=1000 [exodus]=300)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(inp msh search exodus)

packages=(clang-14 libclang-rt-14-dev libomp-14-dev cmake libeigen3-dev libnanoflann-dev libgtest-dev
          libexodusii-dev zlib1g-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build/fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCONTACT_FUZZ=ON "-DCONTACT_SANITIZE=address;undefined" -DCONTACT_BUILD_BENCH=OFF \
    -DCONTACT_BUILD_EXAMPLES=OFF -DCONTACT_BUILD_BINDINGS=OFF -DCONTACT_MPI=OFF \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" > /dev/null
cmake --build build/fuzz -j "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")

for t in "${targets[@]}"; do
    work=build/fuzz/work/$t
    crashes=build/fuzz/crashes/$t
    mkdir -p "$work" "$crashes"
    if [ "$secs" = ci ]; then
        budget=(-seed=1 -runs="${ciRuns[$t]}")
        work=build/fuzz/work-ci/$t  # starts from the committed corpus only
        rm -rf "$work"
        mkdir -p "$work"
        echo "== fuzz_$t: ${ciRuns[$t]} inputs, seed 1"
    else
        budget=(-max_total_time="$secs")
        echo "== fuzz_$t for ${secs}s"
    fi
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        build/fuzz/tests/fuzz/fuzz_$t "${budget[@]}" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/" \
        "$work" tests/fuzz/corpus/$t 2>&1 | grep -E "^#[0-9]+ *(DONE|INITED)|stat::number_of_executed_units|ERROR|SUMMARY|Test unit written" || true
    # grep hides the fuzzer's exit status: any artifact means it found something.
    if [ -n "$(ls -A "$crashes")" ]; then
        echo "fuzz_$t found a problem: $(ls "$crashes")"
        exit 1
    fi
done
echo "fuzzing: nothing found"
