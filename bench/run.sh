#!/usr/bin/env bash
# Runs every benchmark and prints the side-by-side tables (ratios and medians) from one run.
# Usage: bench/run.sh [build-dir]
set -euo pipefail
build=${1:-build}
out=$(mktemp -d)
"$build/bench/elementwise_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out="$out/elementwise.json" --benchmark_out_format=json >/dev/null
python3 "$(dirname "$0")/report.py" "$out/elementwise.json"
