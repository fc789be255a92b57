#!/usr/bin/env bash
# End-to-end smoke test of target/libompprof.so. Usage: tests/smoke.sh TARGET_DIR
set -euo pipefail
T=$1
AGENT=$T/libompprof.so
PROG=$T/smoke_omp
export OMP_NUM_THREADS=2
export OMP_TOOL=enabled
passed=0 failed=0
ok() { echo "smoke: ok: $1"; passed=$((passed + 1)); }
ko() { echo "smoke: FAILED: $1" >&2; failed=$((failed + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Without OMPPROF_SHM the agent stays silent and out of the way.
if env -u OMPPROF_SHM OMP_TOOL_LIBRARIES="$AGENT" "$PROG" quick >"$tmp/out" 2>"$tmp/err" &&
   [[ ! -s $tmp/err ]] && grep -q "threads 2" "$tmp/out"; then
  ok "no OMPPROF_SHM: silent, program unaffected"
else
  ko "no OMPPROF_SHM: $(cat "$tmp/err")"
fi

# A region the agent does not understand: one line, then the program runs.
head -c 8192 /dev/zero >"$tmp/bad-region"
if OMP_TOOL_LIBRARIES="$AGENT" OMPPROF_SHM="$tmp/bad-region" "$PROG" quick >"$tmp/out" 2>"$tmp/err" &&
   [[ $(wc -l <"$tmp/err") == 1 ]] &&
   grep -qx "ompprof agent: bad magic in OMPPROF_SHM region, profiling disabled" "$tmp/err" &&
   grep -q "threads 2" "$tmp/out"; then
  ok "bad region: one line, profiling disabled"
else
  ko "bad region: $(cat "$tmp/err")"
fi

# The real thing, as the JVM would run it. The wall run lets the harness
# unlink the region after attach (exec'd child: ENOENT); the cpu run keeps
# the file (exec'd child: agent_pid already taken). Both stay silent.
if "$T/shm_harness" --agent "$AGENT" --mode wall --threads 2 -- "$PROG"; then
  ok "wall-clock run"
else
  ko "wall-clock run"
fi
if "$T/shm_harness" --agent "$AGENT" --mode cpu --threads 2 --keep-file -- "$PROG"; then
  ok "cpu-time run"
else
  ko "cpu-time run"
fi

echo "smoke: $passed passed, $failed failed"
((failed == 0))
