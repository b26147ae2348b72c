#!/bin/sh
# tools/compat.sh - the compatibility report: build and run CANN example programs, unmodified,
# against an installed dvsim (make install PREFIX=DIR) and write a table of how far each one got.
# Not part of make test: it needs the public example sources, which stay out of this repository
# (docs/COMPAT.md says where to get them and records the figures measured).
#
#   sh tools/compat.sh [-j JOBS] [-t SECONDS] [-o OUTDIR] [-n NAME] PREFIX SOURCE_DIR...
#
# Every .c / .cpp file under the SOURCE_DIRs (only those whose name matches the find(1) pattern
# NAME, with -n: -n 'test_aclnn_*.cpp' keeps the aclnn examples of a tree) is a candidate:
#   - an operator example (test_aclnn_*.cpp, the layout of ops-math and ops-nn) is one program:
#     compiled, linked and run on its own;
#   - any other host source (the hicann/runtime examples) is compiled on its own; a source that
#     defines main() is then linked with the other sources of its directory and of the directory
#     above that compiled and have no main() (the helpers those examples share), and with the
#     other sources its CMakeLists.txt gives add_executable(<name> <this source> ...), and run;
#   - Ascend C kernel sources (they use __aicore__ or __global__) are listed as "kernel" and not
#     built on their own: a program whose directory's CMakeLists.txt names kernel sources in
#     ascendc_library(...) is linked with them, compiled by the install's dvcc.
# Compile: $CXX (or $CC for .c) -I$PREFIX/include -I$PREFIX/include/aclnn -I$PREFIX/include/aclnnop,
# as CANN's build_example.sh does (the last for its custom-package mode, which the experimental
# examples use: they include "aclnn_<op>.h" without the aclnnop/ prefix), and -I for the source's
# directory and each one above it up to its SOURCE_DIR (the runtime examples include headers from
# the example root), and those the program directory's CMakeLists.txt adds with
# include_directories(${CMAKE_CURRENT_SOURCE_DIR}/...).
# Link: -L$PREFIX/lib -lascendcl -lnnopbase -lopapi.  Run: in its own empty directory, with
# LD_LIBRARY_PATH=$PREFIX/lib, DVSIM_PROFILE_OUT=<that directory>/prof and a timeout; the
# profile rows are the data rows of the op_summary.csv it leaves (docs/ACL.md, "Profiling").
#
# Output in OUTDIR (default compat-out):
#   results.tsv  program, kind, compiled, linked, ran (exit 0), profile rows, first error line
#   missing.tsv  count, what (header / undeclared / undefined), name: what stopped the programs,
#                most frequent first (a program counts once per name)
#   summary.txt  the totals, per source directory
#   logs/        each program's compiler, linker and run output
# Environment: CC, CXX (default gcc, g++), CXXSTD (default c++17).
set -u

usage() {
    echo "usage: sh tools/compat.sh [-j JOBS] [-t SECONDS] [-o OUTDIR] [-n NAME] PREFIX SOURCE_DIR..." >&2
    exit 2
}

# ---- one candidate (the script runs itself with --one for each, JOBS at a time) ----
if [ "${1:-}" = --one ]; then
    LC_ALL=C # plain quotes in the compilers' messages, for missing.tsv
    export LC_ALL
    root=$2
    src=$3
    # the source's directory and each one above it up to the SOURCE_DIR it was found under: the
    # include directories the examples' own CMake files name (../../.. for hicann/runtime's)
    incs=
    d=$(dirname "$src")
    while :; do
        incs="$incs -I$d"
        [ "$d" = "$root" ] || [ "$d" = . ] || [ "$d" = / ] && break
        d=$(dirname "$d")
    done
    # and the directories the program directory's CMakeLists.txt adds with
    # include_directories(${CMAKE_CURRENT_SOURCE_DIR}/...) (or CMAKE_CURRENT_LIST_DIR, the same there)
    cm="$(dirname "$src")/CMakeLists.txt"
    if [ -f "$cm" ]; then
        # shellcheck disable=SC2013 # the directories are words
        for i in $(sed -n 's/^[[:space:]]*include_directories *( *\${CMAKE_CURRENT_\(SOURCE\|LIST\)_DIR}\([^ )]*\) *).*/\2/p' "$cm"); do
            [ -d "$(dirname "$src")$i" ] && incs="$incs -I$(dirname "$src")$i"
        done
    fi
    id=$(printf '%s' "$src" | sed 's|^\./||; s|[^A-Za-z0-9._-]|_|g')
    W="$COMPAT_OUT/work/$id"
    L="$COMPAT_OUT/logs/$id"
    mkdir -p "$W" "$COMPAT_OUT/logs"
    case "$src" in
    *.c) comp="$CC -std=c11" ;;
    *) comp="$CXX -std=$CXXSTD" ;;
    esac
    case "$(basename "$src")" in
    test_aclnn_*.cpp) kind=op ;;
    *) kind=src ;;
    esac
    compiled=no linked=- ran=- rows=- err=
    if grep -q '__aicore__\|__global__' "$src"; then
        printf '%s\tkernel\t-\t-\t-\t-\tAscend C kernel source: built by dvcc, not the host compiler\n' "$src"
        exit 0
    fi
    # shellcheck disable=SC2086 # comp is a command and its flags
    if $comp -I"$COMPAT_PREFIX/include" -I"$COMPAT_PREFIX/include/aclnn" -I"$COMPAT_PREFIX/include/aclnnop" $incs -c "$src" -o "$W/main.o" \
        >"$L.compile.log" 2>&1; then
        compiled=yes
    else
        err=$(grep -m1 'error' "$L.compile.log")
    fi
    hasmain=no
    if [ $compiled = yes ] && nm "$W/main.o" 2>/dev/null | grep -q ' T main$'; then
        hasmain=yes
    fi
    if [ $compiled = yes ] && [ $hasmain = yes ]; then
        linked=no
        objs="$W/main.o"
        if [ $kind = src ]; then
            # helpers: the other host sources without main() of this directory and the one above
            d=$(dirname "$src")
            for h in "$d"/*.c "$d"/*.cpp "$(dirname "$d")"/*.c "$(dirname "$d")"/*.cpp; do
                if [ ! -f "$h" ] || [ "$h" = "$src" ]; then continue; fi
                grep -q '__aicore__\|__global__' "$h" && continue
                grep -q '^[a-z0-9_ ]*main *(' "$h" && continue
                hc="$CXX -std=$CXXSTD"
                case "$h" in *.c) hc="$CC -std=c11" ;; esac
                ho="$W/helper_$(basename "$h").o"
                # shellcheck disable=SC2086
                $hc -I"$COMPAT_PREFIX/include" -I"$COMPAT_PREFIX/include/aclnn" -I"$COMPAT_PREFIX/include/aclnnop" $incs -c "$h" -o "$ho" \
                    >>"$L.helpers.log" 2>&1 && objs="$objs $ho"
            done
            # and the other sources its CMakeLists.txt gives add_executable(<name> <this source> ...)
            if [ -f "$cm" ]; then
                # shellcheck disable=SC2013 # the file names are words
                for h in $(grep "^[[:space:]]*add_executable *(.* $(basename "$src")[ )]" "$cm" |
                    sed 's/^[^(]*( *[^ ]* //; s/).*//' | tr ' ' '\n' | grep '\.\(c\|cpp\)$'); do
                    hf="$(dirname "$src")/$h"
                    if [ ! -f "$hf" ] || [ "$h" = "$(basename "$src")" ]; then continue; fi
                    case " $objs " in *" $W/helper_$(basename "$h").o "*) continue ;; esac
                    hc="$CXX -std=$CXXSTD"
                    case "$h" in *.c) hc="$CC -std=c11" ;; esac
                    ho="$W/helper_$(basename "$h").o"
                    # shellcheck disable=SC2086
                    $hc -I"$COMPAT_PREFIX/include" -I"$COMPAT_PREFIX/include/aclnn" -I"$COMPAT_PREFIX/include/aclnnop" $incs -c "$hf" -o "$ho" \
                        >>"$L.helpers.log" 2>&1 && objs="$objs $ho"
                done
            fi
        fi
        # kernels: the sources the example's CMakeLists.txt gives ascendc_library(), compiled by
        # the install's dvcc (as CANN's ascendc.cmake compiles them with its kernel compiler)
        if [ $kind = src ] && [ -f "$cm" ]; then
            # shellcheck disable=SC2013 # the file names are words
            for k in $(awk '/ascendc_library *\(/ { f = 1 } f { print } f && /\)/ { exit }' "$cm" |
                grep -o '[^ ()]*\.\(cpp\|asc\|c\)'); do
                kf="$(dirname "$src")/$k"
                ko="$W/kernel_$(basename "$k").o"
                # shellcheck disable=SC2086
                if "$COMPAT_PREFIX/bin/dvcc" $incs -c "$kf" -o "$ko" >>"$L.kernels.log" 2>&1; then
                    objs="$objs $ko"
                else
                    echo "compat: dvcc could not compile $kf" >>"$L.kernels.log"
                fi
            done
        fi
        # shellcheck disable=SC2086 # objs is a list of files
        if $CXX $objs -o "$W/prog" -L"$COMPAT_PREFIX/lib" -lascendcl -lnnopbase -lopapi -lpthread \
            >"$L.link.log" 2>&1; then
            linked=yes
        else
            err=$(grep -m1 'undefined reference\|error' "$L.link.log")
        fi
    elif [ $compiled = yes ]; then
        err="no main(): a helper of the programs beside it"
    fi
    if [ "$linked" = yes ]; then
        rm -rf "$W/prof"
        if (cd "$W" && LD_LIBRARY_PATH="$COMPAT_PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            DVSIM_PREFIX="$COMPAT_PREFIX" DVSIM_PROFILE_OUT="$W/prof" \
            timeout "$COMPAT_TIMEOUT" ./prog) >"$L.run.log" 2>&1 </dev/null; then
            ran=yes
        else
            st=$?
            ran=no
            if [ $st = 124 ]; then
                err="timed out after $COMPAT_TIMEOUT s"
            else
                err="exit status $st: $(grep -m1 -i 'error\|fail\|EZ9999' "$L.run.log")"
            fi
        fi
        rows=0
        if [ -f "$W/prof/op_summary.csv" ]; then
            rows=$(($(wc -l <"$W/prof/op_summary.csv") - 1))
        fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$src" "$kind" "$compiled" "$linked" "$ran" "$rows" \
        "$(printf '%s' "$err" | tr '\t' ' ' | cut -c1-300)"
    rm -f "$W/prog" "$W"/*.o
    exit 0
fi

# ---- the driver ----
JOBS=2
TIMEOUT=120
OUT=compat-out
NAME='*'
while getopts j:t:o:n: opt; do
    case $opt in
    n) NAME=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    t) TIMEOUT=$OPTARG ;;
    o) OUT=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
PREFIX=$1
shift
case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
case "$OUT" in /*) ;; *) OUT="$(pwd)/$OUT" ;; esac
if [ ! -d "$PREFIX/include/acl" ] || [ ! -f "$PREFIX/lib/libascendcl.so" ]; then
    echo "compat: $PREFIX is not an installed dvsim (no include/acl or lib/libascendcl.so): run make install PREFIX=$PREFIX" >&2
    exit 1
fi
for d in "$@"; do
    [ -d "$d" ] || { echo "compat: $d is not a directory" >&2; exit 1; }
done
command -v timeout >/dev/null 2>&1 || { echo "compat: needs timeout(1)" >&2; exit 1; }
rm -rf "$OUT/work" "$OUT/logs"
mkdir -p "$OUT/work" "$OUT/logs" || exit 1
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

for d in "$@"; do
    find "$d" -type f \( -name '*.c' -o -name '*.cpp' \) -name "$NAME" | sort | sed "s|^|$d	|"
done >"$OUT/candidates.txt"
echo "compat: $(wc -l <"$OUT/candidates.txt") sources, $JOBS at a time, against $PREFIX" >&2
COMPAT_OUT=$OUT COMPAT_PREFIX=$PREFIX COMPAT_TIMEOUT=$TIMEOUT CC=${CC:-gcc} CXX=${CXX:-g++} \
    CXXSTD=${CXXSTD:-c++17} export COMPAT_OUT COMPAT_PREFIX COMPAT_TIMEOUT CC CXX CXXSTD
tr '\t\n' '\0\0' <"$OUT/candidates.txt" | xargs -0 -n 2 -P "$JOBS" sh "$self" --one >"$OUT/results.body"
{
    printf 'program\tkind\tcompiled\tlinked\tran\tprofile_rows\tfirst_error\n'
    sort "$OUT/results.body"
} >"$OUT/results.tsv"
rm -f "$OUT/results.body"

# What stopped the programs: missing headers, undeclared names, undefined references, counted once
# per program.
for f in "$OUT"/logs/*.compile.log "$OUT"/logs/*.link.log; do
    [ -f "$f" ] || continue
    {
        sed -n "s/.*fatal error: \([^:]*\): No such file.*/header	\1/p" "$f"
        sed -n "s/.*error: '\([A-Za-z_][A-Za-z0-9_:]*\)' was not declared.*/undeclared	\1/p" "$f"
        sed -n "s/.*error: '\([A-Za-z_][A-Za-z0-9_:]*\)' has not been declared.*/undeclared	\1/p" "$f"
        sed -n "s/.*error: '\([A-Za-z_][A-Za-z0-9_:]*\)' does not name a type.*/undeclared	\1/p" "$f"
        sed -n "s/.*undefined reference to \`\([^'(]*\).*/undefined	\1/p" "$f"
    } | sort -u
done | sort | uniq -c | sort -k1,1nr -k2 | sed 's/^ *\([0-9]*\) /\1\t/' >"$OUT/missing.tsv"

# Totals per source directory.
{
    for d in "$@"; do
        awk -F'\t' -v d="$d" 'index($1, d) == 1 {
                n++; if ($2 == "kernel") { k++; next }
                h++; if ($3 == "yes") c++; if ($4 == "yes") l++; if ($5 == "yes") r++
                if ($5 == "yes" && $6 > 0) p++
            }
            END { printf "%s: %d sources (%d host, %d Ascend C kernels): %d compiled, %d linked, %d ran (exit 0), %d ran with >= 1 profile row\n",
                  d, n, h, k, c, l, r, p }' "$OUT/results.tsv"
    done
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
