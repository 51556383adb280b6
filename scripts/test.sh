#!/usr/bin/env bash
# The whole test suite: set up, build and run ctest in Release, then again with the address and
# undefined-behaviour sanitizers. Usage: scripts/test.sh [preset ...]   (default: release asan)
set -euo pipefail
cd "$(dirname "$0")/.."
presets=("$@")
[ ${#presets[@]} -eq 0 ] && presets=(release asan)
jobs=$(nproc 2>/dev/null || echo 2)
for preset in "${presets[@]}"; do
    scripts/setup.sh "$preset"
    echo "== ctest, preset '$preset'"
    ctest --preset "$preset" -j "$jobs"
done
