#!/usr/bin/env bash
# Checks that everything the SIGPROF handler can reach is async-signal-safe: the agent's
# sources are compiled one function per section and linked into one relocatable object; the
# calls (relocations) inside each function give the call graph; every external function
# reached from the handler must be on the allowlist (tests/signal_safe.allow, POSIX's
# async-signal-safe functions that the agent uses, and the few vetted beyond them).
# Calls through function pointers (the OMPT inquiry functions) are not visible here; the
# OMPT specification makes ompt_get_state, ompt_get_task_info and ompt_get_parallel_info
# async-signal-safe.
#   usage: tests/signal_safety.sh OUTDIR CC FLAGS... -- SOURCES...
set -euo pipefail
out=$1 cc=$2; shift 2
flags=()
while [[ $1 != -- ]]; do flags+=("$1"); shift; done
shift
mkdir -p "$out"
objs=()
for src in "$@"; do
  o=$out/$(basename "${src%.c}").o
  "$cc" "${flags[@]}" -ffunction-sections -c "$src" -o "$o"
  objs+=("$o")
done
ld -r -o "$out/all.o" "${objs[@]}"
here=$(cd "$(dirname "$0")" && pwd)
entry=on_sigprof
# function -> callee edges, from each function's relocations (a static function may be named
# by its section, .text.NAME)
objdump -dr --no-show-raw-insn "$out/all.o" | awk '
  /^[0-9a-f]+ <[^>]+>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
  /R_X86_64_(PLT32|PC32|GOTPCREL|GOTPCRELX|REX_GOTPCRELX|32S|64)/ && fn != "" {
    t = $NF; sub(/[-+]0x[0-9a-f]+$/, "", t); sub(/^\.text\./, "", t); sub(/@.*$/, "", t)
    print fn, t
  }' | sort -u > "$out/edges"
nm "$out/all.o" | awk '$1 == "U" || NF == 2 {print $NF}' | sort -u > "$out/undefined"
nm "$out/all.o" | awk 'NF == 3 && $2 ~ /^[Tt]$/ {print $3}' | sort -u > "$out/functions"
grep -qx "$entry" "$out/functions" || { echo "signal safety: no function $entry in the agent" >&2; exit 1; }
# breadth-first from the handler over calls to the agent's own functions
declare -A seen=([$entry]=1)
queue=("$entry") reached_external=()
while ((${#queue[@]})); do
  f=${queue[0]}; queue=("${queue[@]:1}")
  while read -r callee; do
    [[ -n ${seen[$callee]:-} ]] && continue
    seen[$callee]=1
    if grep -qx "$callee" "$out/functions"; then queue+=("$callee")
    elif grep -qx "$callee" "$out/undefined"; then reached_external+=("$callee")
    fi
  done < <(awk -v f="$f" '$1 == f {print $2}' "$out/edges")
done
allowed=$(grep -v '^#' "$here/signal_safe.allow" | awk 'NF {print $1}')
bad=()
for s in "${reached_external[@]}"; do
  # data the handler reads (the agent's globals) are defined in the object: only functions get here
  grep -qx "$s" <<<"$allowed" || bad+=("$s")
done
internal=$(printf '%s\n' "${!seen[@]}" | grep -cxFf "$out/functions" || true)
if ((${#bad[@]})); then
  echo "signal safety: the SIGPROF handler can reach functions not known to be async-signal-safe: ${bad[*]}" >&2
  echo "  (make them unreachable from $entry, or vet them and add them to tests/signal_safe.allow)" >&2
  exit 1
fi
echo "signal safety: $entry reaches $internal agent functions and ${#reached_external[@]} external ones, all allowed: ${reached_external[*]:-none}"
