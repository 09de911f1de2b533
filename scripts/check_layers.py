#!/usr/bin/env python3
"""Checks that src/'s folders include one another in one direction.

Reads every #include "folder/..." under src/<folder>/, prints the folder graph, and exits 1 if
it has a cycle (naming one), so that a lower layer never comes to depend on a higher one.
Usage: check_layers.py [SRC_DIR]
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.MULTILINE)


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


def main() -> int:
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")
    graph = folder_graph(src)
    for folder, uses in graph.items():
        print(f"{folder} -> {' '.join(uses) or '(nothing)'}")
    cycle = find_cycle(graph)
    if cycle:
        print("cycle: " + " -> ".join(cycle), file=sys.stderr)
        return 1
    print("no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
