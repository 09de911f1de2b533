#!/usr/bin/env bash
# The expression benchmark in one go (about 2-3 minutes): the hand-written fused loop, Switchyard
# auto and pinned to each device, NumPy on the same inputs, auto's first 100 evaluations, sums
# beside the triad and a tiny op; prints one table with each target marked. Builds nothing.
# Usage: bench/expression.sh [build-dir]
set -euo pipefail
build=${1:-build}
bin="$build/bench/expression_bench"
here=$(dirname "$0")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export SWITCHYARD_CACHE_DIR="$out/cache"

# Steady state, every placement in one process (the binary warms up before timing).
"$bin" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_min_time=0.1 --benchmark_format=json --benchmark_out="$out/bench.json" \
  --benchmark_out_format=json >/dev/null

for n in 1000 100000 1000000 10000000; do "$bin" --write-inputs "$out/data-$n" "$n"; done
python3 "$here/expression_numpy.py" "$out"/data-* >"$out/numpy.json"

# First 100 evaluations of auto and of the best pinned device, each in a new process with an
# empty cache directory; PoCL's own kernel cache is off too, so every compile is a real one.
# Rounds interleave the two, so load on the machine hits both alike; three keep the run short
# (at 1e7 a round takes 10-25 s here).
python3 "$here/expression_report.py" --best-pinned "$out/bench.json" >"$out/best.txt"
for _ in 1 2 3; do
  while read -r n device; do
    for placement in auto "$device"; do
      POCL_KERNEL_CACHE=0 SWITCHYARD_CACHE_DIR="$(mktemp -d -p "$out")" \
        "$bin" --first-100 "$n" "$placement" >>"$out/first-100.jsonl"
    done
  done <"$out/best.txt"
done

python3 "$here/expression_report.py" "$out/bench.json" "$out/numpy.json" "$out/first-100.jsonl"
