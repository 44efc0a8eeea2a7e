#!/usr/bin/env python3
"""Build and bench Tessera with OpenBench's own client code, the way a worker does.

    tools/openbench_check.py OPENBENCH_CHECKOUT [--commit REV] [--compiler g++]
                             [--evalfile NETWORK [--evalfile-bench N]] [--threads N]
                             [--jobs N] [--nice N] [--keep]

OPENBENCH_CHECKOUT is a checkout of OpenBench (github.com/AndyGrant/OpenBench); this script
fetches nothing and holds none of its code: it imports the checkout's Client/utils.py and
Client/bench.py and calls them as Client/worker.py does.

- The commit (default HEAD) is packed as GitHub packs a zipball (`git archive --format=zip`,
  one top folder, no .git), and utils.prepare_engine gets it in place of the download: it
  unpacks it, runs the worker's build command (utils.makefile_command: `make -j EXE=<name>
  CXX=<compiler> [EVALFILE=<network>]`) in the repository root and moves the binary to
  Engines/. --jobs N turns the worker's unbounded -j into -jN and --nice N runs make under
  nice, for a machine that is busy; otherwise the command is the worker's.
- bench.run_benchmark runs `./Engines/<name> bench` (--threads copies at once, default 1),
  parses the output as the worker does and compares it with the bench OpenBench reads from
  the commit message (the last match of its pattern), as a test's expected bench.
- With --evalfile, the same again for a network test: the file is placed in Networks/ under
  the first 8 hex digits of its SHA-256, as the worker stores a download, and the build gets
  EVALFILE=<absolute path>; its bench is expected to be --evalfile-bench (default: the
  commit's, right for a copy of the default network).
- Not the client's, but what a worker needs: `ldd` of each binary lists system libraries
  only (the make build is standalone).
- genfens.create_genfens_opening_book, as a DATAGEN workload calls it (two threads, each its
  own seed), with no book, with no book and `dfrc`, with a Chess960 EPD book (named FRC, as
  OpenBench's Chess960 books are; its lines from --frc-source, default the shared Chess960
  perft suite) and with a PGN book; each must give exactly the openings asked for, and the
  engine must accept every one of them (in Chess960 mode where it is one).

Prints PASS or FAIL for each check and exits 1 if any failed. Works in a temporary folder,
removed at the end unless --keep.
"""

import argparse
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# OpenBench's pattern for a bench in a commit message (its server's determine_bench).
OPENBENCH_BENCH = re.compile(r"(?:BENCH|NODES)[ :=]+([0-9,]+)", re.IGNORECASE)
SYSTEM_LIBRARIES = re.compile(r"^(linux-vdso|linux-gate|ld-linux[-\w.]*|libc|libm|libpthread|"
                              r"libdl|librt)\.so")

failures = 0


def report(ok, check, detail=""):
    global failures
    failures += 0 if ok else 1
    print(f"{'PASS' if ok else 'FAIL'}  {check}" + (f": {detail}" if detail else ""), flush=True)
    return ok


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], check=True, capture_output=True).stdout


def expected_bench(message):
    matches = OPENBENCH_BENCH.findall(message)
    digits = matches[-1].replace(",", "") if matches else ""
    return int(digits) if digits and int(digits) else None


class ZipballSource:
    """Stands in for the `requests` module in utils: get() answers with the commit's zip."""

    def __init__(self, content):
        self.content = content

    def get(self, url, headers=None):
        return self


def kill_by_binary(binary):
    """The client kills a bench that overruns by its name (pkill -f); this kills only the
    processes running this very file, by process id."""
    target = os.path.realpath(binary)
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.path.realpath(f"/proc/{pid}/exe") == target:
                os.kill(int(pid), signal.SIGKILL)
        except OSError:
            pass


def check_libraries(binary):
    result = subprocess.run(["ldd", binary], capture_output=True, text=True)
    names = [line.split()[0] for line in result.stdout.splitlines() if line.strip()]
    others = [name for name in names if not SYSTEM_LIBRARIES.match(os.path.basename(name))]
    report(result.returncode == 0 and not others, f"run-time libraries of {binary} (ldd)",
           ", ".join(names) + (f"; not system libraries: {', '.join(others)}" if others else ""))


def build_and_bench(utils, bench, args, sha, zipball, net_path, expected):
    label = f"EVALFILE={net_path}" if net_path else "no network"
    name = utils.engine_binary_name("Tessera", sha, net_path)
    out_path = os.path.join("Engines", name)
    utils.requests = ZipballSource(zipball)
    try:
        built = utils.prepare_engine("Tessera", net_path, args.commit, "zipball of " + sha, "",
                                     out_path, False, args.compiler)
    except utils.OpenBenchBuildFailedException as error:
        report(False, f"build ({label})", error.message)
        print("\n".join("    " + line for line in error.logs.rstrip().splitlines()[-25:]))
        return
    if not report(built == name and os.path.isfile(out_path), f"build ({label})",
                  f"utils.prepare_engine left {out_path}"):
        return
    check_libraries(out_path)
    try:
        nps, nodes = bench.run_benchmark(out_path, args.threads, 1, expected)
        report(nodes == expected, f"bench ({label})",
               f"bench.run_benchmark parsed {nodes} nodes at {nps} nps "
               f"({args.threads} at once), the expected {expected}")
    except utils.OpenBenchBadBenchException as error:
        report(False, f"bench ({label})", f"{error.message} (expected {expected})")
    return out_path


PGN_BOOK = """[Event "a"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *

[Event "b"]
[Result "*"]

1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. Qc2 O-O *
"""


def epd_to_fen(line):
    """The client's EPD line (`... hmvc H; fmvn F;`) back to a FEN."""
    fields = line.replace(";", "").split()
    return " ".join(fields[:4] + [fields[5], fields[7]])


def check_genfens(genfens, binary, args):
    """`binary` relative to the working folder, as the worker names it (Engines/<name>)."""
    frc_lines = []
    if os.path.isfile(args.frc_source):
        with open(args.frc_source) as f:
            frc_lines = [line.split(";")[0].strip() for line in f if line.strip()][:40]
    os.makedirs("Books", exist_ok=True)
    with open(os.path.join("Books", "openbench-FRC-check.epd"), "w") as f:
        f.write("\n".join(frc_lines) + "\n")
    with open(os.path.join("Books", "openbench-check.pgn"), "w") as f:
        f.write(PGN_BOOK)
    cases = [("no book", "None", "", False), ("no book, dfrc", "None", "dfrc", True),
             ("Chess960 EPD book", os.path.join("Books", "openbench-FRC-check.epd"), "", True),
             ("PGN book", os.path.join("Books", "openbench-check.pgn"), "", False)]
    for label, book, extra, chess960 in cases:
        if "FRC" in book and not frc_lines:
            report(False, f"genfens ({label})", f"no Chess960 positions in {args.frc_source}")
            continue
        out_path = os.path.join("Books", "openbench.genfens.epd")
        with open(out_path, "w") as out:
            gen_args = {"N": 4, "book": book, "seeds": [11, 12], "extra": extra,
                        "engine": binary, "threads": 2, "output": out}
            try:
                genfens.create_genfens_opening_book(gen_args)
            except Exception as error:  # the client's OpenBenchFailedGenfensException and others
                report(False, f"genfens ({label})", getattr(error, "message", str(error)))
                continue
        with open(out_path) as f:
            lines = [line.strip() for line in f if line.strip()]
        commands = ["uci"] + (["setoption name UCI_Chess960 value true"] if chess960 else [])
        for line in lines:
            commands += [f"position fen {epd_to_fen(line)}", "isready"]
        answer = subprocess.run([os.path.abspath(binary)], input="\n".join(commands + ["quit"]) + "\n",
                                capture_output=True, text=True, timeout=60).stdout
        errors = [l for l in answer.splitlines() if l.startswith("info string error")]
        report(len(lines) == 8 and not errors, f"genfens ({label})",
               f"{len(lines)} openings of 8, {len(errors)} refused by the engine"
               + (f": {errors[0]}" if errors else f"; first: {lines[0] if lines else '-'}"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("openbench", help="a checkout of OpenBench (its Client/ folder is used)")
    parser.add_argument("--commit", default="HEAD", help="the Tessera commit to build (HEAD)")
    parser.add_argument("--compiler", default="g++", help="as the worker's config names it (g++)")
    parser.add_argument("--evalfile", help="also build a network test with this network file")
    parser.add_argument("--evalfile-bench", type=int, help="its bench (default: the commit's)")
    parser.add_argument("--threads", type=int, default=1, help="benches at once (1)")
    parser.add_argument("--jobs", type=int, help="make -jN instead of the worker's plain -j")
    parser.add_argument("--nice", type=int, help="run make under nice -n N")
    parser.add_argument("--keep", action="store_true", help="keep the working folder")
    parser.add_argument("--frc-source", default=os.path.join(ROOT, "..", "shared", "data", "perft",
                                                             "fischer.epd"),
                        help="Chess960 positions (EPD) for the FRC book check")
    args = parser.parse_args()

    client = os.path.join(os.path.abspath(args.openbench), "Client")
    if not os.path.isfile(os.path.join(client, "utils.py")):
        parser.error(f"{client}/utils.py not found: give the root of an OpenBench checkout")
    sys.path.insert(0, client)
    try:
        import bench  # noqa: E402  (the client's modules import each other by plain name)
        import genfens
        import utils
    except ImportError as error:
        report(False, "import Client/utils.py and Client/bench.py", str(error))
        return 1
    report(True, "import Client/utils.py and Client/bench.py", client)

    sha = git("rev-parse", args.commit).decode().strip()
    message = git("log", "-1", "--format=%B", sha).decode()
    expected = expected_bench(message)
    if not report(expected is not None, "bench in the commit message",
                  f"OpenBench reads {expected} from {sha[:8]}'s message"):
        return 1

    make_command = utils.makefile_command

    def worker_make_command(net_path, make_path, out_path, compiler):
        command = make_command(net_path, make_path, out_path, compiler)
        report(command[:2] == ["make", "-j"] and f"EXE={out_path}" in command,
               "the worker's build command", " ".join(command))
        if args.jobs:
            command = [f"-j{args.jobs}" if word == "-j" else word for word in command]
        if args.nice is not None:
            command = ["nice", "-n", str(args.nice)] + command
        if args.jobs or args.nice is not None:
            print(f"      run here as: {' '.join(command)}", flush=True)
        return command

    utils.makefile_command = worker_make_command
    utils.kill_process_by_name = kill_by_binary
    zipball = git("archive", "--format=zip", f"--prefix=Tessera-{sha[:7]}/", sha)

    work = tempfile.mkdtemp(prefix="openbench-check-")
    cwd = os.getcwd()
    try:
        os.chdir(work)
        os.makedirs("Engines")
        os.makedirs("Networks")
        binary = build_and_bench(utils, bench, args, sha, zipball, None, expected)
        if binary:
            check_genfens(genfens, binary, args)
        if args.evalfile:
            with open(os.path.join(cwd, args.evalfile), "rb") as f:
                content = f.read()
            net_path = os.path.join("Networks", hashlib.sha256(content).hexdigest()[:8].upper())
            with open(net_path, "wb") as f:
                f.write(content)
            build_and_bench(utils, bench, args, sha, zipball, net_path,
                            args.evalfile_bench or expected)
    finally:
        os.chdir(cwd)
        if args.keep:
            print(f"working folder kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)

    print(f"{'all checks passed' if failures == 0 else f'{failures} check(s) failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
