// SPDX-License-Identifier: MIT
// Where an output goes and how it is written, so that writing never destroys what is not ours.
#pragma once

#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace mesh_io {

namespace detail {
class DescriptorBuf;
}  // namespace detail

/// What a writer may do at its path.
struct WriteOptions {
    bool overwrite = false;           ///< replace an existing regular file (never an input)
    std::vector<std::string> inputs;  ///< files that must never be written
    /// The caller's own name for overwrite (a program's option, "--force"), given in the refusal
    /// of an existing file; empty: the refusal names WriteOptions::overwrite.
    std::string overwriteOption;
};

/// How a path is written, decided from what is there (stat, following symlinks):
enum class OutputKind {
    kStdout,   ///< "-", or the FIFO, terminal or file standard output is on: standard output
    kStream,   ///< a FIFO or a character device (/dev/null, a terminal): opened and written as
               ///< it is, never replaced; no overwrite needed (nothing is destroyed). A FIFO
               ///< must have a reader when checked (else refused: opening it would wait); the
               ///< writer opened for the check is held open and its OutputFile writes through
               ///< it, so the reader does not see the stream end in between and nothing waits
               ///< for a reader. A reader that left meanwhile fails the write (EPIPE, SIGPIPE
               ///< suppressed for that write)
    kReplace,  ///< an existing regular file (the target, when the path is a symlink): written to
               ///< a temporary file in the target's directory, renamed over it at commit (keeping
               ///< its permission bits, owner and group); needs WriteOptions::overwrite
    kCreate,   ///< nothing there, or a dangling symlink (as a shell redirection does, its target
               ///< is created, the link kept): written to a temporary file in that directory and
               ///< linked into place at commit without replacing anything that appeared meanwhile
};

/// An output being written. Refused, with a std::runtime_error naming the path: a directory,
/// a socket or a block device; a FIFO no process reads; where standard error goes; an input file
/// (same device and inode as one of WriteOptions::inputs, so a symlink or a hard link to an input
/// is refused too); an existing regular file without overwrite, and even with it one that is
/// read-only (no write permission bit), that this user may not write (faccessat W_OK with the
/// effective ids), whose owner and group the replacement cannot be given (another user's, unless
/// privileged), or that only its owner may replace (a sticky directory such as /tmp); a directory
/// that cannot take the temporary file. A file output is invisible until commit(); destroyed
/// without commit, it leaves nothing behind (the old file as it was).
class OutputFile {
public:
    OutputFile(const std::string& path, const WriteOptions& options);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    [[nodiscard]] std::ostream& out();
    /// Flushes; for files, moves the temporary file into place; for streams, closes the
    /// descriptor. Throws on a write error (a FIFO whose reader left included).
    void commit();

    [[nodiscard]] OutputKind kind() const noexcept { return kind_; }
    /// The file written (the symlink's final target for links; the path for streams).
    [[nodiscard]] const std::string& target() const noexcept { return target_; }

private:
    std::string path_;
    std::string target_;
    std::string tmp_;
    OutputKind kind_ = OutputKind::kCreate;
    std::ofstream file_;                                 // files: the temporary file
    std::unique_ptr<detail::DescriptorBuf> descriptor_;  // streams: the open descriptor
    std::ostream stream_{nullptr};                       // streams: writes to descriptor_
    bool committed_ = false;
};

/// Checks a set of outputs before anything is computed: each as OutputFile would (creating and
/// removing a temporary file where a file will be written), and no two the same file (the same
/// target, "-" twice, "-" and the file standard output goes to, one FIFO twice: its reader would
/// see the end of the stream after the first); two outputs to one character device are allowed
/// (written in turn).
/// Throws std::runtime_error naming the path. Returns the kind of each.
std::vector<OutputKind> checkOutputs(const std::vector<std::string>& paths,
                                     const WriteOptions& options);

}  // namespace mesh_io
