// SPDX-License-Identifier: MIT
// The fuzz targets' scratch space: a private directory (mkdtemp under $TMPDIR, else /tmp) holding
// the file a reader is given, removed with its contents when the process exits. When it cannot be
// set up or written, the process stops (exit 2, naming the directory): a replay that never reached
// a reader must not pass.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace fuzz {

[[noreturn]] inline void scratchFailure(const std::string& what) {
    std::fprintf(stderr, "fuzz: %s: %s (set TMPDIR to a writable directory)\n", what.c_str(),
                 std::strerror(errno));
    std::exit(2);
}

class ScratchDir {
public:
    ScratchDir() {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern =
            std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/contact-fuzz-XXXXXX";
        std::vector<char> name(pattern.begin(), pattern.end());
        name.push_back('\0');
        if (::mkdtemp(name.data()) == nullptr) {
            scratchFailure("cannot create the scratch directory " + pattern);
        }
        dir_ = name.data();
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }

    [[nodiscard]] std::string path(const std::string& name) const { return dir_ + "/" + name; }

    // Writes the bytes to name (a sub-directory of the name is created); returns its path.
    std::string write(const std::string& name, const void* data, std::size_t size) const {
        const std::string p = path(name);
        const std::size_t slash = name.rfind('/');
        if (slash != std::string::npos && ::mkdir(path(name.substr(0, slash)).c_str(), 0700) != 0 &&
            errno != EEXIST) {
            scratchFailure("cannot create the scratch directory " + path(name.substr(0, slash)));
        }
        const int fd =
            ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) {
            scratchFailure("cannot write the scratch file " + p);
        }
        const char* at = static_cast<const char*>(data);
        while (size > 0) {
            const ssize_t n = ::write(fd, at, size);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                scratchFailure("cannot write the scratch file " + p);
            }
            at += n;
            size -= static_cast<std::size_t>(n);
        }
        if (::close(fd) != 0) {
            scratchFailure("cannot write the scratch file " + p);
        }
        return p;
    }
    std::string write(const std::string& name, const std::string& text) const {
        return write(name, text.data(), text.size());
    }

private:
    std::string dir_;
};

// CONTACT_FUZZ_VERBOSE set (and not "0"): the targets say on standard error what each input gave
// (a model's size or the reader's error), so a test can see which code an input reached.
inline bool verbose() {
    static const bool on = [] {
        const char* v = std::getenv("CONTACT_FUZZ_VERBOSE");
        return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
    }();
    return on;
}

}  // namespace fuzz
