#!/usr/bin/env bash
# The main job: set up and build, then run the contact-search tool on a model shipped in the repo
# and print its report. Arguments replace the default ones, e.g.
#   scripts/run.sh examples/data/sphere_on_block.msh --master SphereSurface --slave BlockTop
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh release
echo
if [ $# -eq 0 ]; then
    set -- examples/data/punch_on_block.inp --verify
fi
exec build/release/examples/contact-search "$@"
