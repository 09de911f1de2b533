#!/usr/bin/env bash
# Runs every benchmark and prints the side-by-side tables (ratios and medians) from one run.
# Usage: bench/run.sh [build-dir]
set -euo pipefail
build=${1:-build}
out=$(mktemp -d)
"$build/bench/elementwise_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out="$out/elementwise.json" --benchmark_out_format=json >/dev/null
python3 "$(dirname "$0")/report.py" "$out/elementwise.json"

echo
echo "Devices: launch + wait of a trivial kernel, copies (medians of 5)"
"$build/bench/device_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out="$out/device.json" --benchmark_out_format=json >/dev/null
python3 "$(dirname "$0")/report.py" --devices "$out/device.json"

echo
echo "Kernel cache on opencl:0: one kernel prepared in a new process (5 runs each)"
# PoCL keeps a compiled-kernel cache of its own; it is switched off so "cold" is a real build and
# "warm" is what our cache alone gives.
cold=(); warm=()
for i in 1 2 3 4 5; do
  dir=$(mktemp -d)
  cold+=("$(POCL_KERNEL_CACHE=0 "$build/bench/device_bench" --cache-probe "$dir")")
  warm+=("$(POCL_KERNEL_CACHE=0 "$build/bench/device_bench" --cache-probe "$dir")")
  rm -rf "$dir"
done
python3 "$(dirname "$0")/report.py" --cache "${cold[*]}" "${warm[*]}"

echo
echo "First auto decision on an uncalibrated machine (3 runs, each with no profile)"
for i in 1 2 3; do
  SWITCHYARD_PROFILE="$out/first-use-$i.json" "$build/bench/first_use"
done

echo
echo "Regret: auto vs every fixed candidate, workloads x sizes x where the inputs live (1-2 min)"
"$build/bench/regret_bench"

echo
echo "Expression a*b + sin(c)*2.5 - sqrt(abs(a)): fused loop, Switchyard, NumPy, targets (2-3 min)"
"$(dirname "$0")/expression.sh" "$build"
