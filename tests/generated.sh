#!/bin/sh
# tests/generated.sh - the committed generated docs are what their generators write now.
#
#   B=build sh tests/generated.sh docs/ISA.md configs/SCHEMA.md ...     (make test passes the list)
#
# Every build writes each doc FILE to $B/FILE (the Makefile's DOCS); a committed FILE that differs
# fails with the one-line hint "FILE is out of date: run make docs".  Two more checks keep this test
# honest: the comparison itself fails on a doc changed by one byte, and the build's dependencies
# regenerate each doc when one of its sources changes (make -q -W SOURCE says $B/FILE is out of date,
# while it is up to date without -W): editing a table without `make docs` cannot go unnoticed.
#
# Environment: B (build directory, default build), MAKE (default make).
# The last line is always "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
MAKE=${MAKE:-make}

pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# stale COMMITTED GENERATED NAME: the hint when the two differ, nothing when they are equal
stale() {
    if [ ! -f "$2" ]; then
        echo "$3: $2 was not generated: run make"
    elif ! cmp -s "$1" "$2"; then
        echo "$3 is out of date: run make docs"
    fi
}

if [ $# -eq 0 ]; then
    echo "generated: no docs named (make test passes the Makefile's DOCS)"
    echo "0 passed, 1 failed"
    exit 1
fi

# 1. The committed docs.
for f in "$@"; do
    hint=$(stale "$f" "$B/$f" "$f")
    if [ -z "$hint" ]; then ok "$f is current"; else bad "$hint"; fi
done

# 2. The comparison sees a one-byte change, and names the file in the hint.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dvsim-generated.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
first=$1
{ cat "$first"; printf 'x'; } >"$tmp/changed"
hint=$(stale "$first" "$tmp/changed" "$first")
if [ "$hint" = "$first is out of date: run make docs" ]; then
    ok "a changed $first gives the hint"
else
    bad "a changed $first: want the hint '$first is out of date: run make docs', got '$hint'"
fi

# 3. Each source regenerates its doc.  One line per source: the doc, then the files it is made from.
while read -r doc srcs; do
    case "$doc" in '' | '#'*) continue ;; esac
    # shellcheck disable=SC2086 # MAKE may carry options
    if ! $MAKE -s -q B="$B" "$B/$doc" >/dev/null 2>&1; then
        bad "$B/$doc is not up to date after the build: the dependency check below would prove nothing"
        continue
    fi
    for src in $srcs; do
        # shellcheck disable=SC2086
        if $MAKE -s -q -W "$src" B="$B" "$B/$doc" >/dev/null 2>&1; then
            bad "$doc does not depend on $src: a change to $src would leave $B/$doc as it is"
        else
            ok "$doc is regenerated when $src changes"
        fi
    done
done <<'SOURCES'
docs/ISA.md          isa/isa.def isa/fields.def isa/doc.c tools/gendoc.c tools/banner.h
configs/SCHEMA.md    configs/params.def configs/doc.c configs/ascend910b2.yaml configs/ascend310.yaml
docs/OPS.md          ops/ops.def ops/doc.c ops/matmul.c
docs/OP_SUMMARY.md   acl/op_summary.def acl/doc.c
docs/MICRO.md        bench/micro.def bench/micro.c tools/banner.h
docs/ERRORS.md       tools/generrors.c acl/memory.c configs/config.c tests/check_acl.c tests/golden.sh
SOURCES

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
