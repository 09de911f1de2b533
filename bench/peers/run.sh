#!/usr/bin/env bash
# The peers benchmark: makes .venv-peers if needed, builds the Python module, and runs every
# workload beside NumPy, numexpr, PyTorch and JAX. Arguments go to peers.py (--help lists them).
#   bash bench/peers/run.sh [build-dir] [peers.py options]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
shift || true
bash "$root/bench/peers/setup.sh"
cmake --build "$build" --target _switchyard
PYTHONPATH="$build/python" exec "$root/.venv-peers/bin/python" "$root/bench/peers/peers.py" "$@"
