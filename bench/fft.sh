#!/usr/bin/env bash
# The FFT benchmark: rfft of 2^20 float64 points with Switchyard (auto and pinned to each device)
# beside numpy.fft.rfft on the same input, one table with NumPy's time over each. Uses the
# python3 that has NumPy, or makes a virtual environment with NumPy from PyPI in
# build/bench-venv on first use. Builds nothing.
# Usage: bench/fft.sh [build-dir]
set -euo pipefail
build=${1:-build}
bin="$build/bench/fft_bench"
here=$(dirname "$0")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export SWITCHYARD_CACHE_DIR="$out/cache"

python=python3
if ! "$python" -c "import numpy" 2>/dev/null; then
  venv="$build/bench-venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -c "import numpy" 2>/dev/null || "$venv/bin/pip" install -q numpy
  python="$venv/bin/python"
fi

"$bin" --write "$out/data"
"$bin" >"$out/switchyard.json"
"$python" "$here/fft_numpy.py" "$out/data" "$out/switchyard.json"
