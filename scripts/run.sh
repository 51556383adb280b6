#!/usr/bin/env bash
# The main job: set up and build, then run the contact search example and print its report.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh release
echo
build/release/examples/two_surfaces "$@"
