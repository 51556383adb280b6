#!/usr/bin/env bash
# The main job: set up and build, then run the indenter solver loop and print its report.
# Arguments go to the example: --dim 2|3, --threads N.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh release
echo
build/release/examples/indenter "$@"
