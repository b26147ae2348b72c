#!/bin/sh
# tests/golden.sh - golden tests: every sample trace must be what tools/gentrace.c writes (else the
# hint "traces/NAME.trace is out of date: run make traces"), and its full text report must equal
# tests/golden/<name>.txt.  A mismatch prints a diff and fails.
#
#   sh tests/golden.sh            compare (used by make test)
#   UPDATE=1 sh tests/golden.sh   also write every new report to $B/golden-new/<name>.txt; tracked
#                                 files are never rewritten: review the diff, then copy by hand.
#
# Environment: DVSIM (default bin/dvsim), B (build directory, default build).
# The last line is always "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
DVSIM=${DVSIM:-bin/dvsim}
B=${B:-build}
UPDATE=${UPDATE:-}
NEW="$B/golden-new"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dvsim-golden.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
[ -n "$UPDATE" ] && mkdir -p "$NEW"

${CC:-cc} -O2 tools/gentrace.c -o "$tmp/gentrace" || exit 1

pass=0
fail=0
# One case per line: name (traces/<name>.trace, tests/golden/<name>.txt) and dvsim run options.
while read -r name opts; do
    case "$name" in '' | '#'*) continue ;; esac
    out="$tmp/$name.txt"
    # the committed trace is the generator's output, never edited by hand
    if ! "$tmp/gentrace" "$name" | cmp -s - "traces/$name.trace"; then
        echo "FAIL $name: traces/$name.trace is out of date: run make traces"
        fail=$((fail + 1))
        continue
    fi
    # shellcheck disable=SC2086 # opts is a word list on purpose
    if ! "$DVSIM" run $opts "traces/$name.trace" >"$out" 2>"$tmp/$name.err"; then
        echo "FAIL $name: dvsim exited with an error:"
        cat "$tmp/$name.err"
        fail=$((fail + 1))
        continue
    fi
    if [ -n "$UPDATE" ]; then
        cp "$out" "$NEW/$name.txt"
        echo "wrote $NEW/$name.txt"
    fi
    golden="tests/golden/$name.txt"
    if [ ! -f "$golden" ]; then
        echo "FAIL $name: no $golden (UPDATE=1 writes $NEW/$name.txt to review and copy)"
        fail=$((fail + 1))
    elif diff -u "$golden" "$out" >"$tmp/$name.diff"; then
        echo "ok   $name"
        pass=$((pass + 1))
    else
        echo "FAIL $name: report differs from $golden:"
        cat "$tmp/$name.diff"
        fail=$((fail + 1))
    fi
done <<'CASES'
vadd_double_buffer
matmul_tile
conv_tile_310       --profile ascend310
missing_wait
matmul_relu_mix
CASES

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
