#!/usr/bin/env bash
# Regenerates the Gmsh meshes of this folder from their .geo scripts (needs Debian's gmsh; the
# build and the tests only read the committed .msh files).
set -euo pipefail
cd "$(dirname "$0")"
gmsh -2 -format msh41 cylinder_on_block_2d.geo -o cylinder_on_block_2d.msh
gmsh -2 -format msh22 cylinder_on_block_2d.geo -o cylinder_on_block_2d_v22.msh
gmsh -2 -bin -format msh41 cylinder_on_block_2d.geo -o cylinder_on_block_2d_bin.msh
gmsh -3 -format msh41 sphere_on_block.geo -o sphere_on_block.msh
gmsh -3 -order 2 -format msh22 sphere_on_block_o2.geo -o sphere_on_block_o2.msh
