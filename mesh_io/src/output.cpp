// SPDX-License-Identifier: MIT
#include "mesh_io/output.hpp"

#include "text.hpp"

#include <climits>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <map>
#include <pthread.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace mesh_io {
namespace {

[[noreturn]] void fail(const std::string& msg) { throw std::runtime_error(msg); }

std::string errnoText() { return std::strerror(errno); }

// Writes all n bytes to fd; 0, or the errno of the write that failed. A FIFO whose reader left
// fails with EPIPE and raises SIGPIPE, which by default ends the process without a word: the
// signal is blocked in this thread for the call, and one the call raised is taken off again
// (one already pending is left), so the caller reports EPIPE and the process's handling of
// SIGPIPE is as it was.
int writeAll(int fd, const char* data, std::size_t n) {
    sigset_t pipe;
    sigset_t old;
    sigset_t pending;
    ::sigemptyset(&pipe);
    ::sigaddset(&pipe, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipe, &old);
    const bool wasPending = ::sigpending(&pending) == 0 && ::sigismember(&pending, SIGPIPE) == 1;
    int error = 0;
    while (n > 0) {
        const ssize_t w = ::write(fd, data, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            error = w < 0 ? errno : EIO;
            break;
        }
        data += w;
        n -= static_cast<std::size_t>(w);
    }
    if (error == EPIPE && !wasPending) {
        const timespec now{0, 0};
        while (::sigtimedwait(&pipe, nullptr, &now) < 0 && errno == EINTR) {
        }
    }
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    return error;
}

std::string dirOf(const std::string& p) {
    const auto slash = p.rfind('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : p.substr(0, slash);
}

std::string baseOf(const std::string& p) {
    const auto slash = p.rfind('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

// The last link of a chain of symlinks starting at p (p itself when it is not a link); relative
// links are read from their link's directory.
std::string followLinks(std::string p) {
    for (int hop = 0; hop < 40; ++hop) {
        struct stat ls {};
        if (::lstat(p.c_str(), &ls) != 0 || !S_ISLNK(ls.st_mode)) {
            return p;
        }
        char buf[PATH_MAX];
        const ssize_t n = ::readlink(p.c_str(), buf, sizeof buf - 1);
        if (n < 0) {
            fail("cannot write " + p + ": cannot read the symlink: " + errnoText());
        }
        std::string to(buf, static_cast<std::size_t>(n));
        if (to.empty() || to[0] != '/') {  // relative to the link's directory
            to.insert(0, dirOf(p) + "/");
        }
        p = std::move(to);
    }
    fail("cannot write " + p + ": too many levels of symbolic links");
}

// A file's identity (device and inode).
struct Identity {
    bool known = false;
    dev_t dev = 0;
    ino_t ino = 0;
    std::string path;  // for files not there yet: the absolute path they will have
    [[nodiscard]] bool operator==(const Identity& o) const {
        return known && o.known ? dev == o.dev && ino == o.ino : path == o.path;
    }
};

// Where an output goes, without touching anything.
struct Resolved {
    OutputKind kind = OutputKind::kCreate;
    std::string target;
    mode_t mode = 0;  // kReplace: the replaced file's permission bits, owner and group
    uid_t uid = 0;
    gid_t gid = 0;
    Identity id;
    bool fifo = false;  // a FIFO (kStream)
};

// True when file descriptor fd is open on the file st describes.
bool isOpenOn(int fd, const struct stat& st) {
    struct stat fs {};
    return ::fstat(fd, &fs) == 0 && fs.st_dev == st.st_dev && fs.st_ino == st.st_ino;
}

// FIFOs outputs go to, each held open by a writer from its first check until its output is
// written (OutputFile), so that its reader does not meet the end of the stream in between.
std::map<std::string, int>& heldFifos() {
    static std::map<std::string, int> held;
    return held;
}

// Opening a FIFO no process reads waits for one, maybe for ever: it is opened without waiting
// (ENXIO: no reader), so that the refusal comes at the check, before any search.
void holdFifo(const std::string& path) {
    std::map<std::string, int>& held = heldFifos();
    if (held.count(path) != 0) {
        return;
    }
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        fail(errno == ENXIO ? "cannot write " + path +
                                  ": it is a FIFO that no process reads (writing would wait for "
                                  "one)"
                            : "cannot write " + path + ": " + errnoText());
    }
    held[path] = fd;
}

bool isNullDevice(const struct stat& st) {
    struct stat null {};
    return S_ISCHR(st.st_mode) && ::stat("/dev/null", &null) == 0 && null.st_rdev == st.st_rdev;
}

bool isInput(const struct stat& st, const WriteOptions& options) {
    for (const std::string& in : options.inputs) {
        struct stat is {};
        if (::stat(in.c_str(), &is) == 0 && is.st_dev == st.st_dev && is.st_ino == st.st_ino) {
            return true;
        }
    }
    return false;
}

Resolved resolve(const std::string& path, const WriteOptions& options) {
    if (path.empty()) {
        fail("output file name is empty");
    }
    Resolved r;
    struct stat st {};
    if (path == "-") {
        r.kind = OutputKind::kStdout;
        r.target = "-";
        if (::fstat(STDOUT_FILENO, &st) == 0) {
            r.id = {true, st.st_dev, st.st_ino, "-"};
            if (isInput(st, options)) {
                fail("refusing to write - (standard output): it is an input file");
            }
        }
        return r;
    }
    if (::stat(path.c_str(), &st) == 0) {
        r.id = {true, st.st_dev, st.st_ino, path};
        if (S_ISDIR(st.st_mode)) {
            fail("cannot write " + path + ": it is a directory");
        }
        if (isInput(st, options)) {
            fail("refusing to write " + path + ": it is an input file");
        }
        const bool stream = S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode);
        if (!stream && !S_ISREG(st.st_mode)) {
            fail("cannot write " + path + ": not a regular file, FIFO or character device");
        }
        // Where standard output goes (/dev/stdout, the pipe, terminal or file it is on, or that
        // file by name) is standard output: the data goes there as with "-", the report to
        // standard error, and a file there is not replaced (what went to standard output would
        // be lost). Where standard error goes is refused. /dev/null stays a plain sink.
        const bool null = isNullDevice(st);
        if (!null && isOpenOn(STDOUT_FILENO, st)) {
            r.kind = OutputKind::kStdout;
            r.target = "-";
            return r;
        }
        if (!null && isOpenOn(STDERR_FILENO, st)) {
            fail("refusing to write " + path +
                 ": it is where standard error goes (the messages would be lost in the data)");
        }
        if (stream) {
            if (S_ISFIFO(st.st_mode)) {
                holdFifo(path);
                r.fifo = true;
            }
            r.kind = OutputKind::kStream;
            r.target = path;
            return r;
        }
        if (!options.overwrite) {
            fail(path + " exists; " +
                 (options.overwriteOption.empty()
                      ? std::string("set WriteOptions::overwrite to replace it")
                      : "pass " + options.overwriteOption + " to overwrite it"));
        }
        // The bits for everyone (root too), then whether this user may write it: a rename
        // needs only the directory, and would replace a file its owner keeps from us.
        if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0) {
            fail("refusing to replace " + path + ": it is read-only");
        }
        if (::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) != 0) {
            fail("refusing to replace " + path + ": it is not writable by this user (" +
                 errnoText() + ")");
        }
        char real[PATH_MAX];
        if (::realpath(path.c_str(), real) == nullptr) {
            fail("cannot write " + path + ": " + errnoText());
        }
        r.kind = OutputKind::kReplace;
        r.target = real;
        r.mode = st.st_mode & 07777;
        r.uid = st.st_uid;
        r.gid = st.st_gid;
        // In a sticky directory (/tmp) only the file's owner, the directory's owner or a
        // privileged process (taken as root) may rename over the file: refused now, not after
        // the search.
        const std::string dir = dirOf(r.target);
        struct stat ds {};
        const uid_t euid = ::geteuid();
        if (::stat(dir.c_str(), &ds) == 0 && (ds.st_mode & S_ISVTX) != 0 && st.st_uid != euid &&
            ds.st_uid != euid && euid != 0) {
            fail("refusing to replace " + path + ": it belongs to another user (uid " +
                 std::to_string(st.st_uid) + ") in the sticky directory " + dir +
                 ", where only its owner may replace it");
        }
        return r;
    }
    if (errno != ENOENT) {
        fail("cannot write " + path + ": " + errnoText());
    }
    r.kind = OutputKind::kCreate;
    r.target = followLinks(path);
    const std::string dir = dirOf(r.target);
    struct stat ds {};
    char real[PATH_MAX];
    if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode) ||
        ::realpath(dir.c_str(), real) == nullptr) {
        fail("cannot write " + path + ": directory " + dir + " does not exist" +
             (r.target != path ? " (the path is a symlink to " + r.target + ")" : ""));
    }
    r.id.path = std::string(real) + "/" + baseOf(r.target);
    return r;
}

// Gives the temporary file fd the owner, group and permission bits of the file it replaces
// (chown first: it clears set-user-ID bits). Refused when this user may not give the file to
// them: the file would change hands, and its owner might no longer read it.
void takeOwnership(int fd, const std::string& path, const Resolved& r) {
    struct stat ts {};
    if (::fstat(fd, &ts) != 0) {
        fail("cannot write " + path + ": " + errnoText());
    }
    if ((ts.st_uid != r.uid || ts.st_gid != r.gid) && ::fchown(fd, r.uid, r.gid) != 0) {
        const std::string why = errnoText();
        const std::string whose =
            ts.st_uid != r.uid
                ? "it belongs to another user (uid " + std::to_string(r.uid) + ")"
                : "its group (gid " + std::to_string(r.gid) + ") is not one of this user's";
        fail("refusing to replace " + path + ": " + whose +
             ", which the file replacing it could not keep (" + why + ")");
    }
    (void)::fchmod(fd, r.mode);
}

// Creates an empty temporary file next to r.target (O_EXCL: never an existing one), for kReplace
// with the replaced file's owner, group and permission bits; its name.
std::string createTemporary(const std::string& path, const Resolved& r) {
    static int counter = 0;
    const std::string& target = r.target;
    const std::string dir = dirOf(target);
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string tmp = dir + "/." + baseOf(target) + ".tmp." + std::to_string(::getpid()) + "." +
                          std::to_string(counter++);
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST) {
            continue;
        }
        if (fd < 0) {
            fail(detail::concat("cannot write ", path, ": cannot create a temporary file in ", dir,
                                ": ", errnoText()));
        }
        if (r.kind == OutputKind::kReplace) {
            try {
                takeOwnership(fd, path, r);
            } catch (...) {
                ::close(fd);
                ::unlink(tmp.c_str());
                throw;
            }
        }
        ::close(fd);
        return tmp;
    }
    fail("cannot write " + path + ": no free temporary file name in " + dir);
}

}  // namespace

namespace detail {

// An output stream buffer over a file descriptor it owns (a FIFO or a character device); after a
// failed write it writes nothing more, and close() returns that write's errno.
class DescriptorBuf : public std::streambuf {
public:
    explicit DescriptorBuf(int fd) : fd_(fd) { setp(buf_.data(), buf_.data() + buf_.size()); }
    ~DescriptorBuf() override {  // unflushed data is dropped: an output not committed
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    DescriptorBuf(const DescriptorBuf&) = delete;
    DescriptorBuf& operator=(const DescriptorBuf&) = delete;

    // Writes what is buffered and closes the descriptor; 0 or the first error's errno.
    int close() {
        (void)drain();
        if (fd_ >= 0 && ::close(fd_) != 0 && error_ == 0 && errno != EINTR) {
            error_ = errno;
        }
        fd_ = -1;
        return error_;
    }

protected:
    int_type overflow(int_type c) override {
        if (!drain()) {
            return traits_type::eof();
        }
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    // Writes the buffer out; false after a failed write (and from then on).
    bool drain() {
        const auto n = static_cast<std::size_t>(pptr() - pbase());
        setp(buf_.data(), buf_.data() + buf_.size());
        if (error_ == 0 && n > 0) {
            error_ = fd_ < 0 ? EBADF : writeAll(fd_, buf_.data(), n);
        }
        return error_ == 0;
    }

    int fd_;
    int error_ = 0;
    std::array<char, 65536> buf_{};
};

}  // namespace detail

OutputFile::OutputFile(const std::string& path, const WriteOptions& options) : path_(path) {
    const Resolved r = resolve(path, options);
    kind_ = r.kind;
    target_ = r.target;
    if (kind_ == OutputKind::kStdout) {
        return;
    }
    if (kind_ == OutputKind::kStream) {
        // A FIFO is written through the writer its check opened (reopening it would wait for a
        // reader, for ever if the one seen at the check left); it is made blocking, as a FIFO
        // opened by a shell redirection is. A character device is opened here.
        std::map<std::string, int>& held = heldFifos();
        const auto fifo = held.find(target_);
        int fd = -1;
        if (fifo != held.end()) {
            fd = fifo->second;
            held.erase(fifo);
        } else {
            fd = ::open(target_.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        }
        const int flags = fd < 0 ? -1 : ::fcntl(fd, F_GETFL);
        if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
            const std::string what = "cannot write " + path_ + ": " + errnoText();
            if (fd >= 0) {
                ::close(fd);
            }
            fail(what);
        }
        descriptor_ = std::make_unique<detail::DescriptorBuf>(fd);
        stream_.rdbuf(descriptor_.get());
        return;
    }
    tmp_ = createTemporary(path_, r);
    file_.open(tmp_, std::ios::out | std::ios::binary | std::ios::trunc);
    if (!file_) {
        const std::string what = "cannot write " + path_ + ": " + errnoText();
        ::unlink(tmp_.c_str());
        fail(what);
    }
}

OutputFile::~OutputFile() {
    stream_.rdbuf(nullptr);
    if (!committed_ && !tmp_.empty()) {
        file_.close();
        ::unlink(tmp_.c_str());
    }
}

std::ostream& OutputFile::out() {
    if (kind_ == OutputKind::kStdout) {
        return std::cout;
    }
    if (kind_ == OutputKind::kStream) {
        return stream_;
    }
    return file_;
}

void OutputFile::commit() {
    std::ostream& o = out();
    o.flush();
    bool good = o.good();
    if (kind_ == OutputKind::kStdout) {
        if (!good) {
            fail("writing to standard output failed");
        }
        committed_ = true;
        return;
    }
    if (kind_ == OutputKind::kStream) {
        const int error = descriptor_->close();
        if (error == EPIPE) {
            fail("writing " + path_ + " failed: the FIFO's reader went away (" +
                 std::strerror(error) + "); what was written is incomplete");
        }
        if (error == ENOSPC || (!good && error == 0)) {
            fail("writing " + path_ + " failed (disk full?)");  // as for files
        }
        if (error != 0) {
            fail("writing " + path_ + " failed: " + std::strerror(error));
        }
        committed_ = true;
        return;
    }
    file_.close();
    good = good && !file_.fail();
    if (!good) {
        fail("writing " + path_ + " failed (disk full?)");
    }
    if (kind_ == OutputKind::kReplace) {
        if (::rename(tmp_.c_str(), target_.c_str()) != 0) {
            fail("cannot write " + path_ + ": " + errnoText());
        }
    } else if (kind_ == OutputKind::kCreate) {
        // Into place only if nothing appeared there meanwhile.
        if (::renameat2(AT_FDCWD, tmp_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE) != 0) {
            if (errno == EEXIST) {
                fail(path_ + " appeared while it was being written; it was left as it is");
            }
            if ((errno != EINVAL && errno != ENOSYS) ||
                ::rename(tmp_.c_str(), target_.c_str()) != 0) {
                fail("cannot write " + path_ + ": " + errnoText());
            }
        }
    }
    committed_ = true;
}

std::vector<OutputKind> checkOutputs(const std::vector<std::string>& paths,
                                     const WriteOptions& options) {
    std::vector<OutputKind> kinds;
    std::vector<Identity> seen;
    std::vector<bool> fifo;
    for (const std::string& p : paths) {
        const Resolved r = resolve(p, options);
        for (std::size_t k = 0; k < seen.size(); ++k) {
            // Outputs are written in turn, each closing its stream: the reader of a FIFO would
            // see the end of the stream after the first, and whether a second writer meets it
            // before it leaves is up to timing.
            if (fifo[k] && r.fifo && seen[k] == r.id) {
                fail("two outputs go to one FIFO: " + paths[k] + " and " + p +
                     " (its reader would see the end of the stream after the first); give each "
                     "output its own FIFO");
            }
            if (kinds[k] == OutputKind::kStream && r.kind == OutputKind::kStream) {
                continue;  // /dev/null twice, or two FIFOs: nothing is destroyed
            }
            if (kinds[k] == OutputKind::kStdout && r.kind == OutputKind::kStdout) {
                fail("only one output can go to standard output (-)");
            }
            if (seen[k] == r.id) {
                fail("two outputs go to the same place: " + paths[k] + " and " + p);
            }
        }
        if (r.kind == OutputKind::kReplace || r.kind == OutputKind::kCreate) {
            ::unlink(createTemporary(p, r).c_str());  // the directory takes it, the owner is kept
        }
        seen.push_back(r.id);
        kinds.push_back(r.kind);
        fifo.push_back(r.fifo);
    }
    return kinds;
}

}  // namespace mesh_io
