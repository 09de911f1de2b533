#!/usr/bin/env bash
# Two processes at once: the regret sweep alone, then two sweeps started together on one cache
# (one history file, one machine), each printing its own summary. Within a process every runner
# meets the same load (rounds interleave), so each summary says whether auto still chose within
# 10% of the best pinned device while the other process loaded the machine and wrote history.
# Prints each run's cases over 1.10x, then its summary.
# Usage: bench/two_processes.sh [build-dir] [regret_bench options]   (default --max-size 1e6)
set -euo pipefail
build=${1:-build}
shift || true
options=("$@")
[[ ${#options[@]} -gt 0 ]] || options=(--max-size 1e6 --budget-s 0.3)
out=$(mktemp -d)
summary() { grep MISS "$1" || true; sed -n '/^Summary/,$p' "$1"; }

"$build/bench/regret_bench" "${options[@]}" >"$out/warm-up.txt"  # history for both, compiled
"$build/bench/regret_bench" "${options[@]}" >"$out/alone.txt"
"$build/bench/regret_bench" "${options[@]}" >"$out/first.txt" &
first=$!
"$build/bench/regret_bench" "${options[@]}" >"$out/second.txt" &
second=$!
wait "$first" "$second"

for run in alone first second; do
  echo "== $run"
  summary "$out/$run.txt"
done
