#!/usr/bin/env bash
# Runs every libFuzzer harness for a bounded time on its seed corpus, two at a time (CI has two
# cores). Fails when any harness finds a crash, a sanitizer report or a broken invariant; the
# input that did it is kept under $FUZZ_OUT/<name>/ and its path printed. The 60 s per-input
# limit leaves room for the quick calibration of the first placement (seconds under ASan).
#   tests/fuzz/run.sh BUILD_DIR/tests/fuzz [SECONDS]
# New corpus entries go to a scratch copy, never into the repository. FUZZ_REPLAY_CRASHES=1 also
# runs the recorded reproducers in tests/fuzz/crashes/<name>/ (known bugs until they are fixed).
set -uo pipefail
bin_dir=$1
seconds=${2:-45}
here="$(cd "$(dirname "$0")" && pwd)"
out=${FUZZ_OUT:-$(mktemp -d)}
names=(fuzz_expression fuzz_dlpack fuzz_profile fuzz_kernel_cache)

run_one() {
  local name=$1 work="$out/$1"
  mkdir -p "$work/corpus"
  cp -r "$here/corpus/$name/." "$work/corpus/"
  "$bin_dir/$name" "$work/corpus" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 \
    -max_len=4096 -print_final_stats=1 -artifact_prefix="$work/" >"$work/log" 2>&1
  local rc=$?
  if [ "${FUZZ_REPLAY_CRASHES:-0}" = 1 ] && [ -d "$here/crashes/$name" ] && [ $rc -eq 0 ]; then
    "$bin_dir/$name" "$here/crashes/$name"/* >>"$work/log" 2>&1
    rc=$?
  fi
  local runs
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" | grep -o '[0-9]*$')
  if [ $rc -eq 0 ]; then
    echo "fuzz: $name ok, ${runs:-?} inputs in ${seconds}s"
  else
    echo "fuzz: $name FAILED (exit $rc); log $work/log:"
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written|deadly signal' "$work/log" | head -20
  fi
  return $rc
}

status=0
for ((i = 0; i < ${#names[@]}; i += 2)); do
  run_one "${names[i]}" &
  first=$!
  second=""
  if [ $((i + 1)) -lt ${#names[@]} ]; then
    run_one "${names[i + 1]}" &
    second=$!
  fi
  wait $first || status=1
  [ -n "$second" ] && { wait "$second" || status=1; }
done
exit $status
