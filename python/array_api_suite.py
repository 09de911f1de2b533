"""Runs the official array API test suite (data-apis/array-api-tests, pinned in
../shared/array-api-tests) against the switchyard module, one pytest per test file so a crash
stays in its file, with a fixed Hypothesis seed so runs compare.

Known failures are listed, each with its reason, in python/array_api_xfails.txt; they run as
xfail. A failure not listed fails the run; a listed test that passes is reported (XPASS) so the
list can shrink. Usage:

    PYTHONPATH=build/python python python/array_api_suite.py [--version 2024.12]
        [--max-examples 10] [--tarball PATH] [--work DIR] [--write-xfails FILE] [FILE ...]

--write-xfails runs without the list and writes every failing test to FILE (to start a list).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TARBALL = ROOT.parent / "shared" / "array-api-tests" / "array-api-tests-55fcc601.tar.gz"
XFAILS = ROOT / "python" / "array_api_xfails.txt"
SKIPPED = 77  # ctest's SKIP_RETURN_CODE for this test (python/CMakeLists.txt)


def unpacked(tarball: Path, work: Path) -> Path:
    suite = work / "array-api-tests"
    stamp = suite / ".unpacked-from"
    if not (stamp.exists() and stamp.read_text() == str(tarball)):
        if not tarball.exists():
            # A checkout without ../shared has no copy: skipped (ctest's code 77), unless the
            # run requires it (CI sets SWITCHYARD_REQUIRE_ARRAY_API_SUITE=1).
            print(f"array_api_suite: the pinned suite {tarball} is missing")
            sys.exit(1 if os.environ.get("SWITCHYARD_REQUIRE_ARRAY_API_SUITE") else SKIPPED)
        suite.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tarball) as t:
            t.extractall(suite, filter="data")
        stamp.write_text(str(tarball))
    return suite


def counts(line: str) -> dict:
    return {word: int(n) for n, word in re.findall(r"(\d+) (\w+)", line)}


def failures(report: Path) -> list:
    """The node ids of the failed and erred tests of a JUnit report (ids may hold spaces)."""
    if not report.exists():
        return []
    failed = []
    for case in ElementTree.parse(report).iter("testcase"):
        if case.find("failure") is None and case.find("error") is None:
            continue
        parts = case.get("classname", "").split(".")
        node = "/".join(parts[:2]) + ".py"  # array_api_tests.test_x[.Class]
        failed.append("::".join([node, *parts[2:], case.get("name", "")]))
    return failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default="2024.12")
    parser.add_argument("--max-examples", type=int, default=10)
    parser.add_argument("--tarball", type=Path, default=DEFAULT_TARBALL)
    parser.add_argument("--work", type=Path, default=Path.cwd() / "array-api-suite")
    parser.add_argument("--write-xfails", type=Path)
    parser.add_argument("files", nargs="*", help="test files to run (default: all)")
    args = parser.parse_args()

    suite = unpacked(args.tarball, args.work)
    # The suite only checks that the standard's document folder exists (the signatures it reads
    # are in array-api/src); the pinned copy leaves the documents out.
    (suite / "array-api" / "spec" / args.version / "API_specification").mkdir(parents=True,
                                                                               exist_ok=True)
    files = args.files or sorted(p.name for p in (suite / "array_api_tests").glob("test_*.py"))
    env = dict(os.environ, ARRAY_API_TESTS_MODULE="switchyard",
               ARRAY_API_TESTS_VERSION=args.version)
    common = ["-q", "-p", "no:cacheprovider", "-rfE", f"--max-examples={args.max_examples}",
              "--hypothesis-seed=0", "--hypothesis-disable-deadline"]
    if not args.write_xfails:
        common.append(f"--xfails-file={XFAILS}")

    failed_ids, totals, broken = [], {}, []
    for name in files:
        start = time.monotonic()
        report = args.work / f"{name}.xml"
        report.unlink(missing_ok=True)
        run = subprocess.run([sys.executable, "-m", "pytest", f"array_api_tests/{name}", *common,
                              f"--junitxml={report}"],
                             cwd=suite, env=env, capture_output=True, text=True)
        lines = run.stdout.strip().splitlines() or [run.stderr.strip()]
        summary = lines[-1]
        for word, n in counts(summary).items():
            totals[word] = totals.get(word, 0) + n
        failed = failures(report)
        failed_ids += failed
        print(f"{name}: {summary} ({time.monotonic() - start:.0f} s)", flush=True)
        if run.returncode not in (0, 1) or (run.returncode == 1 and not failed):
            broken.append(name)
            # A crash's first lines name the thread that crashed (faulthandler); the last ones,
            # what the others were doing.
            err = run.stderr
            print(run.stdout[-3000:], err if len(err) <= 6000 else err[:3000] + "\n...\n" +
                  err[-3000:], sep="\n")
        for test in failed:
            print(f"  new failure: {test}")
    print("total: " + ", ".join(f"{n} {word}" for word, n in sorted(totals.items())))
    if args.write_xfails:
        args.write_xfails.write_text("".join(f"{t}\n" for t in sorted(set(failed_ids))))
        print(f"{len(set(failed_ids))} failing tests written to {args.write_xfails}")
        return 0
    if broken:
        print(f"array_api_suite: pytest itself failed in {', '.join(broken)}")
    return 1 if failed_ids or broken else 0


if __name__ == "__main__":
    sys.exit(main())
