#!/usr/bin/env python3
"""Checks that src/'s folders include one another in one direction.

Reads every #include "folder/..." under src/<folder>/, prints the folder graph, and exits 1 if
it has a cycle (naming one), so that a lower layer never comes to depend on a higher one. Also
exits 1 when a folder below the public side includes a public header of arrays and their
operations (implemented in api/ and ops/): the lazy graph and the runtime work on runtime views,
and an Array there would make them depend on the layers above them.
Usage: check_layers.py [SRC_DIR]
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.MULTILINE)
PUBLIC_INCLUDE = re.compile(r'^\s*#\s*include\s+"switchyard/([a-z_]+)\.hpp"', re.MULTILINE)
# The public side, and the public headers only it may include. dist/ is built on the public API
# (arrays spread over MPI ranks), beside it.
PUBLIC_SIDE = {"api", "dist", "ops"}
ARRAY_HEADERS = {"algorithms", "array", "calibration", "capture", "complex", "dlpack", "expr",
                 "fft", "linalg", "ops", "pipeline", "switchyard"}


def folder_graph(src: pathlib.Path) -> dict:
    folders = sorted(p.name for p in src.iterdir() if p.is_dir())
    graph = {}
    for folder in folders:
        used = set()
        for path in (src / folder).rglob("*"):
            if path.suffix in (".cpp", ".hpp", ".h", ".cu"):
                used.update(INCLUDE.findall(path.read_text(errors="replace")))
        graph[folder] = sorted(u for u in used if u in folders and u != folder)
    return graph


def find_cycle(graph: dict):
    state = {}  # folder -> "open" while on the path, "done" after

    def visit(node, path):
        state[node] = "open"
        for nxt in graph[node]:
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt, path + [nxt])
                if cycle:
                    return cycle
        state[node] = "done"
        return None

    for node in graph:
        if node not in state:
            cycle = visit(node, [node])
            if cycle:
                return cycle
    return None


def array_includes(src: pathlib.Path) -> list:
    """(file, header) for each array header included below the public side."""
    found = []
    for folder in sorted(p for p in src.iterdir() if p.is_dir() and p.name not in PUBLIC_SIDE):
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".cpp", ".hpp", ".h", ".cu"):
                for header in PUBLIC_INCLUDE.findall(path.read_text(errors="replace")):
                    if header in ARRAY_HEADERS:
                        found.append((path.relative_to(src), f"switchyard/{header}.hpp"))
    return found


def main() -> int:
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")
    graph = folder_graph(src)
    for folder, uses in graph.items():
        print(f"{folder} -> {' '.join(uses) or '(nothing)'}")
    cycle = find_cycle(graph)
    if cycle:
        print("cycle: " + " -> ".join(cycle), file=sys.stderr)
        return 1
    below = array_includes(src)
    for path, header in below:
        print(f"{path} includes {header}: below {'/'.join(sorted(PUBLIC_SIDE))}, "
              "expected runtime views instead of arrays", file=sys.stderr)
    if below:
        return 1
    print("no cycle; no array header below the public side")
    return 0


if __name__ == "__main__":
    sys.exit(main())
