// SPDX-License-Identifier: MIT
#include "detail/assert.hpp"

#include <cstdio>
#include <cstdlib>

namespace contact::detail {

void assertFailed(const char* expr, const char* file, int line) noexcept {
    std::fprintf(stderr, "%s:%d: CONTACT_ASSERT(%s) failed\n", file, line, expr);
    std::fflush(stderr);
    std::abort();
}

}  // namespace contact::detail
