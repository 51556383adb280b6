#!/usr/bin/env bash
# Checks the habits the repository commits to: every C/C++ file formatted as .clang-format says
# (a difference fails), and contact, contact_mpi, mesh_io, the C API and the tool clean under
# .clang-tidy (its warnings are errors). Usage: scripts/check_style.sh [format|tidy]  (default both)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
jobs=$(nproc 2>/dev/null || echo 2)

packages=(clang-format clang-tidy)
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

status=0
if [ "$what" = all ] || [ "$what" = format ]; then
    echo "== clang-format: every tracked C/C++ file"
    mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.c' | grep -v '^tests/fuzz/corpus/')
    if ! clang-format --dry-run --Werror "${files[@]}"; then
        echo "clang-format: the files above differ from .clang-format (run clang-format -i on them)"
        status=1
    fi
fi
if [ "$what" = all ] || [ "$what" = tidy ]; then
    echo "== clang-tidy: contact, contact_mpi, mesh_io, the C API and the tool"
    cmake -S . -B build/tidy -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
        -DCONTACT_BUILD_BENCH=OFF > /dev/null
    # contact, contact_mpi, mesh_io, the C API and the tool (a file takes 15-20 s of CPU: the test
    # command must stay within CI's time; the Python module's glue and the examples are left out).
    mapfile -t sources < <(git ls-files 'contact/src/*.cpp' 'contact_mpi/src/*.cpp' \
                                        'mesh_io/src/*.cpp' 'bindings/c/src/*.cpp' \
                                        examples/contact_search_tool.cpp \
                                        examples/contact_search_mpi.cpp)
    mapfile -t csources < <(git ls-files 'bindings/c/*.c')  # C: the standard of the compile database
    # A source whose key (scripts/tidy_keys.py: clang-tidy's version, .clang-tidy, the compile
    # command and every file the compiler reads for it) is in scripts/tidy-clean.txt was checked
    # clean with exactly that input and is skipped. The record is rewritten with the keys of the
    # sources clean now: commit it with the change.
    record=scripts/tidy-clean.txt
    keys=build/tidy/keys.txt
    passed=build/tidy/passed.txt
    scripts/tidy_keys.py build/tidy "${sources[@]}" "${csources[@]}" > "$keys"
    touch "$record"
    mapfile -t todo < <(awk 'FILENAME == ARGV[1] { clean[$0] = 1; next } !($0 in clean) { print $2 }' \
                            "$record" "$keys")
    echo "   $(( ${#sources[@]} + ${#csources[@]} - ${#todo[@]} )) files unchanged since checked clean, ${#todo[@]} to check"
    : > "$passed"
    tidy_one() {  # SOURCE: clang-tidy on one file (C++17 for C++; C as the database says)
        local extra=()
        [[ $1 == *.cpp ]] && extra=(--extra-arg=-std=c++17)
        clang-tidy -p build/tidy --quiet "${extra[@]}" "$1" 2>/dev/null && echo "$1" >> "$passed"
    }
    export -f tidy_one
    export passed
    printf '%s\n' "${todo[@]}" | grep -v '^$' | xargs -r -P "$jobs" -n 1 bash -c 'tidy_one "$0"' ||
        true
    mapfile -t failed < <(printf '%s\n' "${todo[@]}" | grep -v '^$' | grep -vxFf "$passed" || true)
    # Clean now: the unchanged and the passed (a source outside the build has the key "none").
    awk 'FILENAME == ARGV[1] { failed[$0] = 1; next } $1 != "none" && !($2 in failed)' \
        <(printf '%s\n' "${failed[@]}") "$keys" | sort -k 2 > "$record.new"
    mv "$record.new" "$record"
    if [ ${#failed[@]} -gt 0 ]; then
        echo "clang-tidy: warnings above in ${failed[*]} (see .clang-tidy)"
        status=1
    fi
fi
exit $status
