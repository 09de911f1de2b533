#!/usr/bin/env bash
# Usage: run_shards.sh N PROGRAM [ARGS...]
# Runs a GoogleTest program as N shards at once (GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX), for a
# suite that spends its time in one device's compiler on one thread (the Vulkan conformance
# cases on lavapipe). Prints each shard's output in order; fails if any shard failed.
set -uo pipefail
shards=$1
shift
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=()
for ((i = 0; i < shards; i++)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$@" > "$logs/$i" 2>&1 &
  pids+=($!)
done
status=0
for ((i = 0; i < shards; i++)); do
  wait "${pids[i]}" || status=1
  echo "shard $((i + 1)) of $shards: $*"
  cat "$logs/$i"
done
exit $status
