// SPDX-License-Identifier: MIT
// CONTACT_ASSERT(cond): checks a programmer's invariant (a fixed stack's bound, an index range, a
// decoded count), reports the file and line on stderr and aborts when it fails. On where
// CONTACT_ENABLE_ASSERTS is defined: Debug and RelWithDebInfo builds, sanitizer builds, and the
// library the tests link (contact/CMakeLists.txt); off in Release, where it costs nothing.
// Internal; never installed. Not for input checks: bad input gets an exception or a status.
#pragma once

namespace contact::detail {

/// Prints "<file>:<line>: CONTACT_ASSERT(<expr>) failed" to stderr and aborts.
[[noreturn]] void assertFailed(const char* expr, const char* file, int line) noexcept;

}  // namespace contact::detail

#ifdef CONTACT_ENABLE_ASSERTS
#define CONTACT_ASSERT(cond)                                                                       \
    ((cond) ? static_cast<void>(0) : ::contact::detail::assertFailed(#cond, __FILE__, __LINE__))
#else
#define CONTACT_ASSERT(cond) static_cast<void>(0)
#endif
