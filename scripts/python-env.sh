#!/usr/bin/env bash
# Creates .venv, the Python module's build and test environment, with the pinned packages of
# python/requirements-dev.txt. Quiet and instant when .venv already has exactly those.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
requirements=python/requirements-dev.txt
stamp=$venv/requirements-dev.txt
if [ -x "$venv/bin/python" ] && cmp -s "$requirements" "$stamp"; then exit 0; fi
echo "python-env: installing $(grep -cv '^#' "$requirements") pinned packages into $venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements"
cp "$requirements" "$stamp"
