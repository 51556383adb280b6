// SPDX-License-Identifier: MIT
// Writes an Exodus II model for the tool's tests with the exodusII library: two unit cubes 0.1
// apart (one hexahedron each), side sets "A_TOP" (the lower cube's top, side 6) and "B_BOTTOM"
// (the upper cube's bottom, side 5). Usage: write_exodus_model FILE.exo
#include <exodusII.h>

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: write_exodus_model FILE.exo\n");
        return 2;
    }
    int cpu = sizeof(double);
    int io = sizeof(double);
    const int id = ex_create(argv[1], EX_CLOBBER, &cpu, &io);
    if (id < 0) {
        return 1;
    }
    const double x[] = {0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0};
    const double y[] = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1};
    const double z[] = {0, 0, 0, 0, 1, 1, 1, 1, 1.1, 1.1, 1.1, 1.1, 2.1, 2.1, 2.1, 2.1};
    const int lower[] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int upper[] = {9, 10, 11, 12, 13, 14, 15, 16};
    const int topElement[] = {1};
    const int topSide[] = {6};
    const int bottomElement[] = {2};
    const int bottomSide[] = {5};
    char top[] = "A_TOP";
    char bottom[] = "B_BOTTOM";
    char* names[] = {top, bottom};
    bool ok = ex_put_init(id, "two cubes", 3, 16, 2, 2, 0, 2) >= 0 &&
              ex_put_coord(id, x, y, z) >= 0 &&
              ex_put_block(id, EX_ELEM_BLOCK, 1, "HEX8", 1, 8, 0, 0, 0) >= 0 &&
              ex_put_conn(id, EX_ELEM_BLOCK, 1, lower, nullptr, nullptr) >= 0 &&
              ex_put_block(id, EX_ELEM_BLOCK, 2, "HEX8", 1, 8, 0, 0, 0) >= 0 &&
              ex_put_conn(id, EX_ELEM_BLOCK, 2, upper, nullptr, nullptr) >= 0 &&
              ex_put_set_param(id, EX_SIDE_SET, 1, 1, 0) >= 0 &&
              ex_put_set(id, EX_SIDE_SET, 1, topElement, topSide) >= 0 &&
              ex_put_set_param(id, EX_SIDE_SET, 2, 1, 0) >= 0 &&
              ex_put_set(id, EX_SIDE_SET, 2, bottomElement, bottomSide) >= 0 &&
              ex_put_names(id, EX_SIDE_SET, names) >= 0;
    ok = ex_close(id) >= 0 && ok;
    return ok ? 0 : 1;
}
