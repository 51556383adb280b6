/* SPDX-License-Identifier: MIT */
/* Writes printf("%.17g") of a fixed sequence of doubles (random bit patterns, then random values
 * scaled from 1e-7 to 1e19), the reference g17_values.f90's g17() must equal byte for byte.
 * Usage: g17_values_c OUT COUNT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t state = 12345;

/* Park and Miller's minimal standard generator: 1 .. 2^31 - 2. */
static int64_t next(void) {
    state = (16807 * state) % 2147483647;
    return state;
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: g17_values_c OUT COUNT\n");
        return 2;
    }
    FILE* out = fopen(argv[1], "w");
    const long count = strtol(argv[2], NULL, 10);
    if (out == NULL || count <= 0) {
        fprintf(stderr, "g17_values_c: cannot write %s or bad count\n", argv[1]);
        return 2;
    }
    for (long i = 0; i < count; ++i) {
        const uint64_t hi = (uint64_t)next();
        const uint64_t mid = (uint64_t)next();
        const uint64_t lo = (uint64_t)(next() % 4);
        const uint64_t bits = (hi << 33) | (mid << 2) | lo;
        double v;
        memcpy(&v, &bits, sizeof v); /* NOLINT(clang-analyzer-security.insecureAPI.*): no Annex K */
        fprintf(out, "%.17g\n", v);
    }
    for (long i = 0; i < count; ++i) {
        const double r = (double)next() / 2147483647.0;
        const int k = (int)(next() % 27) - 7; /* -7 .. 19 */
        double scale = 1.0;
        for (int j = 0; j < k; ++j) {
            scale = scale * 10.0;
        }
        for (int j = 0; j > k; --j) {
            scale = scale / 10.0;
        }
        fprintf(out, "%.17g\n", r * scale);
    }
    return fclose(out) == 0 ? 0 : 2;
}
