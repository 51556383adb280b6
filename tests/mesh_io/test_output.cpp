// SPDX-License-Identifier: MIT
// OutputFile and checkOutputs: what is written where, and what is never destroyed: symlinks are
// written through, dangling ones create their target, FIFOs and character devices are streams,
// directories and inputs (by any link) are refused, existing files need overwrite, permission
// bits survive a replacement, failures leave nothing behind.
#include "mesh_io/output.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <grp.h>
#include <iostream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace mesh_io {
namespace {

namespace fs = std::filesystem;

class Output : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("contact_test_output_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        ::chmod(dir_.c_str(), 0755);
        fs::remove_all(dir_);
    }
    [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }
    static void put(const std::string& p, const std::string& text) { std::ofstream(p) << text; }
    static std::string get(const std::string& p) {
        std::ifstream in(p);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
    static void write(const std::string& p, const std::string& text, const WriteOptions& o) {
        OutputFile f(p, o);
        f.out() << text;
        f.commit();
    }
    // Nothing but the given names in the directory (no temporary files left).
    [[nodiscard]] std::string listing() const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir_)) {
            names.push_back(e.path().filename().string());
        }
        std::sort(names.begin(), names.end());
        std::string out;
        for (const auto& n : names) {
            out += n + " ";
        }
        return out;
    }
    static void expectRefused(const std::string& p, const WriteOptions& o,
                              const std::string& what) {
        try {
            write(p, "new", o);
            FAIL() << p << " was written";
        } catch (const std::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << "names the path";
        }
    }

    fs::path dir_;
};

WriteOptions force() {
    WriteOptions o;
    o.overwrite = true;
    return o;
}

// Runs body in a child process, which alarm() ends after 10 s so that a hang fails the test
// instead of stopping the suite. "exit <body's result>", or "signal <n>" (14: it hung).
std::string inChild(const std::function<int()>& body) {
    std::cout.flush();
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::alarm(10);
        int rc = 100;
        try {
            rc = body();
        } catch (const std::exception& e) {
            std::cerr << "child: " << e.what() << "\n";
        }
        std::cerr.flush();
        ::_exit(rc);
    }
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid) {
        return "fork failed";
    }
    return WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                               : "exit " + std::to_string(WEXITSTATUS(status));
}

TEST_F(Output, NewFileIsCreatedAndAnExistingOneNeedsOverwrite) {
    const std::string p = path("out.csv");
    write(p, "one", {});
    EXPECT_EQ(get(p), "one");
    expectRefused(p, {}, "exists; set WriteOptions::overwrite to replace it");
    EXPECT_EQ(get(p), "one");
    write(p, "two", force());
    EXPECT_EQ(get(p), "two");
    EXPECT_EQ(listing(), "out.csv ");
}

// A library caller has no --force: the refusal names the setting, or the program's own option.
TEST_F(Output, RefusalNamesTheCallersOverwriteOption) {
    const std::string p = path("out.csv");
    put(p, "old");
    try {
        OutputFile f(p, WriteOptions{});
        ADD_FAILURE() << "not refused";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), p + " exists; set WriteOptions::overwrite to replace it");
    }
    WriteOptions o;
    o.overwriteOption = "--force";
    expectRefused(p, o, "exists; pass --force to overwrite it");
    EXPECT_EQ(get(p), "old");
}

TEST_F(Output, ReplacedFileKeepsItsPermissionBits) {
    const std::string p = path("out.csv");
    put(p, "old");
    ::chmod(p.c_str(), 0640);
    write(p, "new", force());
    struct stat st {};
    ASSERT_EQ(::stat(p.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0640U);
}

TEST_F(Output, ReadOnlyFileIsNotReplacedEvenWithOverwrite) {
    const std::string p = path("locked.csv");
    put(p, "keep");
    ::chmod(p.c_str(), 0444);
    expectRefused(p, force(), "it is read-only");
    EXPECT_EQ(get(p), "keep");
}

// Another user, for the ownership tests: nobody (65534), which only root can become.
constexpr uid_t kNobody = 65534;

// body run as nobody in a child process (inChild): its result, or 90 when the ids cannot change.
std::string asNobody(const std::function<int()>& body) {
    return inChild([&] {
        if (::setgroups(0, nullptr) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) {
            return 90;
        }
        return body();
    });
}

// 0 when checkOutputs refuses p with a message naming it and containing what; else 1 (accepted)
// or 2 (another message, printed).
int refusedAtCheck(const std::string& p, const std::string& what) {
    try {
        (void)checkOutputs({p}, force());
        return 1;
    } catch (const std::runtime_error& e) {
        const std::string msg = e.what();
        std::cerr << msg << "\n";
        return msg.find(p) != std::string::npos && msg.find(what) != std::string::npos ? 0 : 2;
    }
}

TEST_F(Output, ForceDoesNotReplaceAFileThisUserMayNotWrite) {
    if (::geteuid() != 0) {
        GTEST_SKIP() << "needs root, to act as another user";
    }
    // Root's 0644 file in a directory anyone may write: the rename would be allowed, but the file
    // is not nobody's to replace.
    ::chmod(dir_.c_str(), 0777);
    const std::string p = path("roots.csv");
    put(p, "root's");
    ::chmod(p.c_str(), 0644);
    EXPECT_EQ(asNobody([&] { return refusedAtCheck(p, "it is not writable by this user"); }),
              "exit 0");
    EXPECT_EQ(get(p), "root's");
    EXPECT_EQ(listing(), "roots.csv ");
}

TEST_F(Output, ReplacedFileKeepsItsOwnerAndGroup) {
    if (::geteuid() != 0) {
        GTEST_SKIP() << "needs root, to replace another user's file";
    }
    // Replaced by root, nobody's 0640 file stays nobody's (it became root's: unreadable to nobody).
    const std::string p = path("nobodys.csv");
    put(p, "old");
    ASSERT_EQ(::chown(p.c_str(), kNobody, kNobody), 0);
    ASSERT_EQ(::chmod(p.c_str(), 0640), 0);
    write(p, "new", force());
    struct stat st {};
    ASSERT_EQ(::stat(p.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, kNobody);
    EXPECT_EQ(st.st_gid, kNobody);
    EXPECT_EQ(st.st_mode & 07777, 0640U);
    EXPECT_EQ(get(p), "new");
    EXPECT_EQ(listing(), "nobodys.csv ");
}

TEST_F(Output, AnotherUsersFileIsRefusedWhenItsOwnerCannotBeKept) {
    if (::geteuid() != 0) {
        GTEST_SKIP() << "needs root, to act as another user";
    }
    // Root's 0666 file: nobody may write it, but a replacement would be nobody's.
    ::chmod(dir_.c_str(), 0777);
    const std::string p = path("shared.csv");
    put(p, "root's");
    ::chmod(p.c_str(), 0666);
    EXPECT_EQ(asNobody([&] {
                  const int checked =
                      refusedAtCheck(p, "it belongs to another user (uid 0), which the file "
                                        "replacing it could not keep");
                  try {
                      write(p, "nobody's", force());
                      return 3;
                  } catch (const std::runtime_error&) {
                      return checked;
                  }
              }),
              "exit 0");
    EXPECT_EQ(get(p), "root's");
    struct stat st {};
    ASSERT_EQ(::stat(p.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 0U);
    EXPECT_EQ(listing(), "shared.csv ");
}

TEST_F(Output, StickyDirectoryIsRefusedAtTheCheckWhenTheRenameWouldBe) {
    if (::geteuid() != 0) {
        GTEST_SKIP() << "needs root, to act as another user";
    }
    // As in /tmp: root's directory, mode 1777. Root's file there, writable by all: the rename
    // would fail with EPERM after the search; refused at the check. Nobody's own file is replaced.
    const std::string sticky = path("sticky");
    fs::create_directories(sticky);
    ASSERT_EQ(::chmod(sticky.c_str(), 01777), 0);
    const std::string roots = sticky + "/roots.csv";
    put(roots, "root's");
    ::chmod(roots.c_str(), 0666);
    const std::string own = sticky + "/own.csv";
    put(own, "old");
    ASSERT_EQ(::chown(own.c_str(), kNobody, kNobody), 0);
    EXPECT_EQ(asNobody([&] {
                  const int checked = refusedAtCheck(roots, "in the sticky directory");
                  write(own, "new", force());
                  return checked;
              }),
              "exit 0");
    EXPECT_EQ(get(roots), "root's");
    EXPECT_EQ(get(own), "new");
    std::size_t files = 0;  // no temporary file left
    for (const auto& e : fs::directory_iterator(sticky)) {
        files += e.is_regular_file() ? 1 : 0;
    }
    EXPECT_EQ(files, 2U);
}

TEST_F(Output, SymlinkIsWrittenThroughToItsTarget) {
    const std::string target = path("target.json");
    const std::string link = path("link.json");
    put(target, "old");
    fs::create_symlink("target.json", link);  // relative, as people make them
    expectRefused(link, {}, "exists; set WriteOptions::overwrite");
    write(link, "new", force());
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(fs::read_symlink(link), "target.json");
    EXPECT_EQ(get(target), "new");
    EXPECT_EQ(OutputFile(link, force()).target(), fs::canonical(target).string());
}

TEST_F(Output, SymlinkChainIntoAnotherDirectoryIsFollowed) {
    fs::create_directories(dir_ / "sub");
    put(path("sub/target.csv"), "old");
    fs::create_symlink("sub/target.csv", path("a"));
    fs::create_symlink(path("a"), path("b"));
    write(path("b"), "new", force());
    EXPECT_TRUE(fs::is_symlink(path("a")));
    EXPECT_TRUE(fs::is_symlink(path("b")));
    EXPECT_EQ(get(path("sub/target.csv")), "new");
    EXPECT_EQ(listing(), "a b sub ");  // the temporary file went to sub/, and is gone
}

TEST_F(Output, DanglingSymlinkCreatesItsTarget) {
    const std::string link = path("link.csv");
    fs::create_symlink("made.csv", link);
    write(link, "new", {});  // nothing is replaced: no overwrite needed
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(get(path("made.csv")), "new");
    // A dangling link into a directory that does not exist: refused, naming both.
    fs::create_symlink("nowhere/x.csv", path("bad.csv"));
    expectRefused(path("bad.csv"), force(), "does not exist (the path is a symlink to");
}

TEST_F(Output, FifoIsWrittenAsAStreamAndStaysAFifo) {
    const std::string fifo = path("pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // No reader yet: refused at once (opening it would wait for one).
    try {
        OutputFile f(fifo, {});
        ADD_FAILURE() << "a FIFO without a reader was opened";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("a FIFO that no process reads"), std::string::npos)
            << e.what();
    }
    std::string received;
    std::thread reader([&] { received = get(fifo); });
    // Until the reader's open is under way the FIFO is refused as above: asked again meanwhile.
    for (int attempt = 0;; ++attempt) {
        try {
            write(fifo, "through the pipe", {});  // a stream: no overwrite needed
            break;
        } catch (const std::runtime_error& e) {
            if (attempt == 5000 ||
                std::string(e.what()).find("no process reads") == std::string::npos) {
                reader.detach();
                FAIL() << e.what();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
    reader.join();
    EXPECT_EQ(received, "through the pipe");
    struct stat st {};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    EXPECT_EQ(listing(), "pipe ");
}

TEST_F(Output, FifoWhoseReaderLeftAfterTheCheckFailsTheWriteWithoutWaiting) {
    const std::string fifo = path("pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // The reader is there at the check and gone at the write: the write fails with a message
    // (it waited for ever for a new reader; or SIGPIPE ended the process without a word).
    const std::string result = inChild([&] {
        const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
        if (reader < 0 || checkOutputs({fifo}, {}).at(0) != OutputKind::kStream) {
            return 2;
        }
        ::close(reader);
        OutputFile f(fifo, {});
        f.out() << "nobody reads this";
        try {
            f.commit();
            return 3;
        } catch (const std::runtime_error& e) {
            const std::string what = e.what();
            std::cerr << what << "\n";
            if (what.find(fifo) == std::string::npos ||
                what.find("reader went away") == std::string::npos) {
                return 4;
            }
        }
        sigset_t pending;
        ::sigpending(&pending);
        return ::sigismember(&pending, SIGPIPE) == 1 ? 5 : 0;  // no SIGPIPE left over either
    });
    EXPECT_EQ(result, "exit 0") << "signal 14: it hung; 13: SIGPIPE ended it";
    // A reader that stays gets the data, through the writer held since the check.
    EXPECT_EQ(inChild([&] {
                  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
                  (void)checkOutputs({fifo}, {});
                  write(fifo, "through the held writer", {});
                  char buf[64] = {};
                  const ssize_t n = ::read(reader, buf, sizeof buf);
                  return n > 0 && std::string(buf, static_cast<std::size_t>(n)) ==
                                      "through the held writer"
                             ? 0
                             : 6;
              }),
              "exit 0");
}

TEST_F(Output, CharacterDeviceIsAStream) {
    OutputFile f("/dev/null", {});
    EXPECT_EQ(f.kind(), OutputKind::kStream);
    f.out() << "discarded";
    f.commit();
    struct stat st {};
    ASSERT_EQ(::lstat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(Output, DashIsStandardOutput) {
    OutputFile f("-", {});
    EXPECT_EQ(f.kind(), OutputKind::kStdout);
    EXPECT_EQ(&f.out(), &std::cout);
}

TEST_F(Output, DirectoryIsRefused) {
    fs::create_directories(dir_ / "d");
    expectRefused(path("d"), force(), "it is a directory");
    EXPECT_TRUE(fs::is_directory(path("d")));
}

TEST_F(Output, ReadOnlyDirectoryIsRefusedBeforeAnythingIsWritten) {
    // Root writes into a mode 0555 directory regardless; sysfs takes no new files from anyone.
    const bool root = ::geteuid() == 0;
    const std::string ro = root ? "/sys" : path("ro");
    if (!root) {
        fs::create_directories(ro);
        ::chmod(ro.c_str(), 0555);
    }
    const std::string p = ro + "/contact_out.csv";
    expectRefused(p, force(), "cannot create a temporary file in " + ro);
    EXPECT_THROW((void)checkOutputs({p}, force()), std::runtime_error);
    EXPECT_FALSE(fs::exists(p));
}

TEST_F(Output, InputIsNeverWrittenThroughAnyLink) {
    const std::string model = path("model.inp");
    put(model, "*NODE\n");
    fs::create_symlink(model, path("sym.inp"));
    fs::create_hard_link(model, path("hard.inp"));
    WriteOptions o = force();
    o.inputs = {model};
    for (const char* name : {"model.inp", "sym.inp", "hard.inp"}) {
        SCOPED_TRACE(name);
        expectRefused(path(name), o, "it is an input file");
    }
    EXPECT_EQ(get(model), "*NODE\n");
    // And by another spelling of the path.
    expectRefused(dir_.string() + "/./model.inp", o, "it is an input file");
}

TEST_F(Output, UncommittedOutputLeavesTheOldFileAndNoTemporary) {
    const std::string p = path("out.csv");
    put(p, "old");
    {
        OutputFile f(p, force());
        f.out() << "half a file";
    }  // destroyed without commit: a failed run
    EXPECT_EQ(get(p), "old");
    EXPECT_EQ(listing(), "out.csv ");
}

TEST_F(Output, FileAppearingWhileWrittenIsNotReplaced) {
    const std::string p = path("race.csv");
    OutputFile f(p, {});
    f.out() << "ours";
    put(p, "theirs");  // created by someone else meanwhile
    EXPECT_THROW(f.commit(), std::runtime_error);
    EXPECT_EQ(get(p), "theirs");
}

TEST_F(Output, CheckOutputsRefusesTwoOutputsToOneFile) {
    put(path("x.csv"), "old");
    fs::create_symlink("x.csv", path("alias.csv"));
    EXPECT_THROW((void)checkOutputs({path("x.csv"), path("alias.csv")}, force()),
                 std::runtime_error);
    EXPECT_THROW((void)checkOutputs({path("new.csv"), dir_.string() + "/./new.csv"}, force()),
                 std::runtime_error);
    EXPECT_THROW((void)checkOutputs({"-", "-"}, force()), std::runtime_error);
    // Streams may be shared; different files are fine; nothing is left behind.
    const auto kinds =
        checkOutputs({"/dev/null", "/dev/null", path("a.csv"), path("x.csv")}, force());
    EXPECT_EQ(kinds[0], OutputKind::kStream);
    EXPECT_EQ(kinds[2], OutputKind::kCreate);
    EXPECT_EQ(kinds[3], OutputKind::kReplace);
    EXPECT_EQ(listing(), "alias.csv x.csv ");
}

TEST_F(Output, CheckOutputsRefusesTwoOutputsToOneFifo) {
    const std::string fifo = path("pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    fs::create_symlink("pipe", path("alias"));
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // not refused for want of one
    ASSERT_GE(reader, 0);
    // Its reader would see the end of the stream after the first output, the second then failing
    // or not depending on timing: refused at the check, naming both.
    for (const std::string& second : {fifo, path("alias")}) {
        SCOPED_TRACE(second);
        try {
            (void)checkOutputs({fifo, path("a.csv"), second}, {});
            ADD_FAILURE() << "two outputs to one FIFO were accepted";
        } catch (const std::runtime_error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("two outputs go to one FIFO: " + fifo + " and " + second),
                      std::string::npos)
                << what;
        }
    }
    // Two FIFOs are two outputs.
    ASSERT_EQ(::mkfifo(path("other").c_str(), 0600), 0);
    const int otherReader = ::open(path("other").c_str(), O_RDONLY | O_NONBLOCK);
    EXPECT_NO_THROW((void)checkOutputs({fifo, path("other")}, {}));
    ::close(otherReader);
    ::close(reader);
}

}  // namespace
}  // namespace mesh_io
