#!/usr/bin/env bash
# Makes .venv-peers (at the repository root) with the pinned peers of bench/peers/requirements.txt
# beside the Python module's own requirements; does nothing when it is already up to date.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/.venv-peers"
requirements=("$root/python/requirements-dev.txt" "$root/bench/peers/requirements.txt")
stamp="$venv/.requirements"
wanted="$(cat "${requirements[@]}")"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then exit 0; fi
if ! python3 -m venv --help >/dev/null 2>&1; then
  echo "bench/peers: python3-venv is missing: run scripts/install-deps.sh" >&2
  exit 1
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "${requirements[@]/#/-r}"
printf '%s' "$wanted" >"$stamp"
