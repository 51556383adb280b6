// SPDX-License-Identifier: MIT
// How much memory a reader may take: files and counts that cannot fit are refused up front.
#pragma once

#include <string>

namespace mesh_io::detail {

/// Memory the system can give without swapping: MemAvailable of /proc/meminfo, or the
/// CONTACT_MEMORY_LIMIT_BYTES environment variable when set (tests use it). 0 when unknown.
[[nodiscard]] unsigned long long availableMemory();

/// "1.23 GB".
[[nodiscard]] std::string gigabytes(unsigned long long bytes);

}  // namespace mesh_io::detail
