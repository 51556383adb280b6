#!/usr/bin/env python3
"""Runs contact-search with outputs that are not plain new files and checks that nothing that is
not ours is destroyed: a symlink is written through (the link stays), a dangling symlink creates
its target, a FIFO with a reader and - are streams (a FIFO without one is refused, not waited
on), /dev/stdout stays the system's link and, with standard output in a file, writes to standard output instead of replacing that file, a directory and a
read-only directory are refused, an input is never written (by symlink or hard link), an existing
file needs --force, no temporary file is left behind.
Usage: check_safe_writing.py CONTACT-SEARCH MODEL.inp WORKDIR"""
import os
import shutil
import stat
import subprocess
import sys
import time

failures = []


def check(ok, what):
    print(("ok:     " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)


def main(tool, model_src, work):
    work = os.path.abspath(os.path.join(work, "safe_writing"))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    model = os.path.join(work, "model.inp")
    shutil.copy(model_src, model)
    with open(model, "rb") as f:
        model_bytes = f.read()

    def run(*args, stdin=None):
        return subprocess.run([tool, model, "--quiet"] + list(args), cwd=work,
                              capture_output=True, text=True, stdin=stdin)

    def read(name):
        with open(os.path.join(work, name)) as f:
            return f.read()

    def leftovers():
        return [n for n in os.listdir(work) if ".tmp." in n]

    header = "interface,slave_node"

    # An existing file: refused without --force, replaced with it.
    with open(os.path.join(work, "old.csv"), "w") as f:
        f.write("precious\n")
    r = run("--pairs", "old.csv")
    check(r.returncode == 2 and "exists; pass --force" in r.stderr and read("old.csv") ==
          "precious\n", "existing file refused without --force, left as it was")
    r = run("--pairs", "old.csv", "--force")
    check(r.returncode == 0 and read("old.csv").startswith(header), "--force replaces it")

    # A symlink to a file: the target is written, the link stays a link.
    with open(os.path.join(work, "target.csv"), "w") as f:
        f.write("old target\n")
    os.symlink("target.csv", os.path.join(work, "link.csv"))
    r = run("--pairs", "link.csv")
    check(r.returncode == 2 and read("target.csv") == "old target\n",
          "symlink to an existing file refused without --force")
    r = run("--pairs", "link.csv", "--force")
    check(r.returncode == 0 and os.path.islink(os.path.join(work, "link.csv")) and
          read("target.csv").startswith(header), "symlink written through, link kept")

    # A dangling symlink: its target is created (nothing is replaced: no --force needed).
    os.symlink("created.json", os.path.join(work, "dangling.json"))
    r = run("--json", "dangling.json")
    check(r.returncode == 0 and os.path.islink(os.path.join(work, "dangling.json")) and
          read("created.json").startswith("{"), "dangling symlink creates its target")

    # A FIFO: written as a stream while a reader drains it; it stays a FIFO.
    fifo = os.path.join(work, "pipe")
    os.mkfifo(fifo)
    # The reader opens it before the tool starts (a FIFO no one reads is refused, below), and
    # drains it until the tool has finished.
    rfd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    tool_run = subprocess.Popen([tool, model, "--quiet", "--pairs", "pipe"], cwd=work,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    data = b""
    while True:
        try:
            chunk = os.read(rfd, 65536)
        except BlockingIOError:
            chunk = None
        if chunk:
            data += chunk
            continue
        if tool_run.poll() is not None:
            break
        time.sleep(0.01)
    os.close(rfd)
    check(tool_run.returncode == 0 and data.decode().startswith(header) and
          stat.S_ISFIFO(os.lstat(fifo).st_mode), "FIFO written as a stream, still a FIFO")
    # A FIFO no process reads: refused before the search (opening it would wait for a reader).
    r = run("--pairs", "pipe")
    check(r.returncode == 2 and "a FIFO that no process reads" in r.stderr,
          "FIFO without a reader refused, no wait")

    # -: standard output; the report moves to standard error.
    r = subprocess.run([tool, model, "--pairs", "-"], cwd=work, capture_output=True, text=True)
    check(r.returncode == 0 and r.stdout.startswith(header) and "interface 1" in r.stderr and
          not os.path.exists(os.path.join(work, "-")), "- writes to standard output, report to "
          "standard error, no file named -")

    # /dev/stdout (a symlink owned by the system) with --force: written as a stream, and it is
    # still the system's symlink afterwards (as root it could have been replaced by a file).
    r = subprocess.run([tool, model, "--quiet", "--json", "/dev/stdout", "--force"], cwd=work,
                       capture_output=True, text=True)
    check(r.returncode == 0 and r.stdout.startswith("{") and os.path.islink("/dev/stdout"),
          "/dev/stdout written as a stream and left a symlink")
    # Standard output a pipe and /dev/stdout named: the pipe is standard output, so the data
    # goes there alone and the report to standard error (it was appended to the CSV); a second
    # output to it is refused; standard error a pipe and /dev/stderr named: refused.
    r = subprocess.run([tool, model, "--pairs", "/dev/stdout"], cwd=work, capture_output=True,
                       text=True)
    rows = r.stdout.splitlines()
    check(r.returncode == 0 and rows and rows[0].startswith(header) and
          all(len(row.split(",")) == len(rows[0].split(",")) for row in rows) and
          "interface 1" in r.stderr, "/dev/stdout on a pipe: the CSV alone there, the report on "
          "standard error")
    r = subprocess.run([tool, model, "--pairs", "/dev/stdout", "--json", "-"], cwd=work,
                       capture_output=True, text=True)
    check(r.returncode == 2 and "only one output can go to standard output" in r.stderr,
          "/dev/stdout on a pipe and -: refused as two outputs to standard output")
    r = subprocess.run([tool, model, "--pairs", "/dev/stderr"], cwd=work, capture_output=True,
                       text=True)
    check(r.returncode == 2 and "where standard error goes" in r.stderr,
          "/dev/stderr on a pipe: refused")
    # Standard output sent to a file, and /dev/stdout (or that file) named: the data goes to
    # standard output, the report to standard error, nothing is replaced (so nothing is lost).
    for name in ("/dev/stdout", "captured.txt"):
        with open(os.path.join(work, "captured.txt"), "w") as out:
            r = subprocess.run([tool, model, "--pairs", name, "--force"], cwd=work, stdout=out,
                               stderr=subprocess.PIPE, text=True)
        got = read("captured.txt")
        check(r.returncode == 0 and got.startswith(header) and "interface 1" in r.stderr and
              leftovers() == [], name + " with standard output in a file: the data there, the "
              "report on standard error")
    with open(os.path.join(work, "errors.txt"), "w") as err:
        r = subprocess.run([tool, model, "--pairs", "/dev/stderr", "--force"], cwd=work,
                           stdout=subprocess.PIPE, stderr=err, text=True)
    check(r.returncode == 2 and "where standard error goes" in read("errors.txt"),
          "/dev/stderr sent to a file: refused, the message kept")
    r = run("--pairs", "/dev/null")
    check(r.returncode == 0 and stat.S_ISCHR(os.lstat("/dev/null").st_mode),
          "/dev/null: a character device, written without --force, left as it is")

    # A directory: refused.
    os.makedirs(os.path.join(work, "adir"))
    r = run("--vtu", "adir", "--force")
    check(r.returncode == 2 and "it is a directory" in r.stderr and
          os.path.isdir(os.path.join(work, "adir")), "directory refused")

    # A read-only directory: refused before the search runs, nothing created. (Root writes into
    # a mode 0555 directory regardless; sysfs takes no new file from anyone.)
    if os.geteuid() == 0:
        ro = "/sys"
    else:
        ro = os.path.join(work, "ro")
        os.makedirs(ro)
        os.chmod(ro, 0o555)
    r = run("--pairs", os.path.join(ro, "out.csv"))
    check(r.returncode == 2 and "cannot create a temporary file in " + ro in r.stderr and
          not os.path.exists(os.path.join(ro, "out.csv")), "read-only directory refused")

    # The input, by name, symlink and hard link: never written, even with --force.
    os.symlink("model.inp", os.path.join(work, "alias.inp"))
    os.link(model, os.path.join(work, "hard.inp"))
    for name in ("model.inp", "alias.inp", "hard.inp"):
        r = run("--pairs", name, "--force")
        check(r.returncode == 2 and "it is an input file" in r.stderr, "input refused as " + name)
    with open(model, "rb") as f:
        check(f.read() == model_bytes, "the input is unchanged")

    # Two outputs to one file: refused before anything is written.
    r = run("--pairs", "same.csv", "--json", "./same.csv")
    check(r.returncode == 2 and "same place" in r.stderr and
          not os.path.exists(os.path.join(work, "same.csv")), "two outputs to one file refused")

    # --mortar's files are checked with the other outputs, before anything is written; a directory
    # made for the check goes again when it fails.
    def there(name):
        return os.path.exists(os.path.join(work, name))

    r = run("--mode", "segment", "--mortar", "mo", "--pairs", "mo/interface1_D.mtx", "--force")
    check(r.returncode == 2 and "same place" in r.stderr and not there("mo"),
          "--pairs naming a --mortar file refused, the directory made for the check removed")
    os.makedirs(os.path.join(work, "mo"))
    with open(os.path.join(work, "mo", "interface1_M.mtx"), "w") as f:
        f.write("precious\n")
    r = run("--mode", "segment", "--mortar", "mo", "--pairs", "p.csv")
    check(r.returncode == 2 and "interface1_M.mtx exists; pass --force" in r.stderr and
          not there("p.csv") and not there("mo/interface1_D.mtx") and
          read("mo/interface1_M.mtx") == "precious\n",
          "an existing --mortar file refused before any output is written")
    r = run("--mode", "segment", "--mortar", "new/deeper", "--pairs", "new/deeper")
    check(r.returncode == 2 and "it is a directory" in r.stderr and not there("new"),
          "--pairs naming the --mortar directory refused, the directories made removed")
    r = run("--mode", "segment", "--mortar", "-")
    check(r.returncode == 2 and "not - (standard output)" in r.stderr and not there("-"),
          "--mortar - refused, no directory named -")
    r = run("--pairs", "")
    check(r.returncode == 2 and "--pairs: expects a file name, got ''" in r.stderr,
          "an empty output name refused")

    check(leftovers() == [], "no temporary file left behind: %r" % leftovers())
    if os.geteuid() != 0:
        os.chmod(ro, 0o755)
    if failures:
        print("check_safe_writing: %d failed" % len(failures))
        sys.exit(1)
    print("check_safe_writing: all cases passed")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print("usage: check_safe_writing.py CONTACT-SEARCH MODEL.inp WORKDIR")
        sys.exit(1)
    main(*sys.argv[1:])
