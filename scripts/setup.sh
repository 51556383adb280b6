#!/usr/bin/env bash
# Installs the Debian packages the build needs (only those missing), then configures and builds
# one CMake preset. Usage: scripts/setup.sh [preset]   (default: release)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}

packages=(build-essential cmake gzip libeigen3-dev libnanoflann-dev libgtest-dev libbenchmark-dev
          libexodusii-dev libnetcdf-dev libcli11-dev zlib1g-dev python3 python3-vtk9
          gfortran pybind11-dev python3-dev python3-numpy python3-pytest python3-meshio
          python3-matplotlib libopenmpi-dev openmpi-bin libtrilinos-zoltan-dev)
if [ "$preset" = asan ]; then  # clang builds the sanitized tree
    packages+=(clang-14 libclang-rt-14-dev libomp-14-dev)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing Debian packages: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

jobs=$(nproc 2>/dev/null || echo 2)
echo "== configuring and building preset '$preset'"
cmake --preset "$preset" > /dev/null
cmake --build --preset "$preset" -j "$jobs"
