#!/bin/sh
# tests/examples.sh - the AscendCL examples, built and run the way a user would: against an installed
# tree (make install PREFIX=...), with only -I$PREFIX/include, -L$PREFIX/lib and
# -lascendcl -lnnopbase -lopapi, and run with LD_LIBRARY_PATH=$PREFIX/lib.  Each example checks its
# own results and exits nonzero on a wrong one; a failure prints the example's output.  One more case
# runs aclnn_add against the libraries without their model plugin (lib/dvsim/) and wants the error
# that names the file tried.
#
#   PREFIX=/tmp/dvsim-install sh tests/examples.sh
#
# Environment: PREFIX (the installed tree, default $B/install), B (build directory, default build;
# the example programs go to $B/examples), CC / CXX (default gcc / g++), PYTHON (default: python3,
# or /usr/bin/python3 when only that one has numpy).  The Python example is skipped, with a message,
# only when python3 or numpy is missing.
# The last line is always "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
PREFIX=${PREFIX:-$B/install}
CC=${CC:-gcc}
CXX=${CXX:-g++}
OUT="$B/examples"

case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
if [ ! -d "$PREFIX/include/acl" ] || [ ! -d "$PREFIX/lib" ]; then
    echo "examples: $PREFIX is not an installed tree (no include/acl or lib): run make install PREFIX=$PREFIX"
    echo "0 passed, 1 failed"
    exit 1
fi
mkdir -p "$OUT" || exit 1
LIBS="-lascendcl -lnnopbase -lopapi"
# a hung simulation must not hang the test suite
TIMEOUT=
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 600"

pass=0
fail=0

# run NAME COMMAND...: run an example with the installed libraries; its output goes to $OUT/NAME.log
run() {
    name=$1
    shift
    # shellcheck disable=SC2086 # TIMEOUT is empty or a command and its argument
    if LD_LIBRARY_PATH="$PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" DVSIM_PREFIX="$PREFIX" \
        $TIMEOUT "$@" >"$OUT/$name.log" 2>&1; then
        echo "ok   $name: $(tail -n 1 "$OUT/$name.log")"
        pass=$((pass + 1))
    else
        echo "FAIL $name: exited with status $?; its output:"
        sed 's/^/    /' "$OUT/$name.log"
        fail=$((fail + 1))
    fi
}

# One compiled example per line: name, language (c or c++), source files.
while read -r name lang srcs; do
    case "$name" in '' | '#'*) continue ;; esac
    case "$lang" in
    c) compile="$CC -std=c11" ;;
    c++) compile="$CXX -std=c++11" ;;
    *)
        echo "FAIL $name: unknown language '$lang' in tests/examples.sh"
        fail=$((fail + 1))
        continue
        ;;
    esac
    # shellcheck disable=SC2086 # compile, srcs and LIBS are word lists on purpose
    if ! $compile -Wall -Wextra -Werror -I"$PREFIX/include" $srcs -o "$OUT/$name" -L"$PREFIX/lib" $LIBS \
        >"$OUT/$name.build.log" 2>&1; then
        echo "FAIL $name: does not build against $PREFIX:"
        sed 's/^/    /' "$OUT/$name.build.log"
        fail=$((fail + 1))
        continue
    fi
    run "$name" "$OUT/$name"
done <<'EXAMPLES'
runtime         c       examples/runtime/main.c
aclnn_add       c++     examples/aclnn_add/main.cpp
aclnn_matmul    c++     examples/aclnn_matmul/main.cpp
custom_kernel   c       examples/custom_kernel/main.c examples/custom_kernel/add_custom.c
fusion_graph    c       examples/fusion_graph/main.c
EXAMPLES

# The model is a plugin that libascendcl.so loads from dvsim/ beside itself on the first kernel
# (acl/model_plugin.h): libraries without it fail that kernel with an error naming the file tried.
if [ -x "$OUT/aclnn_add" ]; then
    rm -rf "$OUT/noplugin"
    mkdir -p "$OUT/noplugin/lib" && ln -s "$PREFIX"/lib/lib*.so "$OUT/noplugin/lib/"
    dir=$(cd "$OUT/noplugin/lib" && pwd)
    want="cannot load the SystemC model $dir/dvsim/libdvsim_model.so"
    if LD_LIBRARY_PATH="$dir" "$OUT/aclnn_add" >"$OUT/noplugin.log" 2>&1; then
        echo "FAIL noplugin: aclnn_add ran without lib/dvsim/libdvsim_model.so"
        fail=$((fail + 1))
    elif grep -qF "$want" "$OUT/noplugin.log"; then
        echo "ok   noplugin: $want"
        pass=$((pass + 1))
    else
        echo "FAIL noplugin: aclnn_add without the plugin does not say '$want'; its output:"
        sed 's/^/    /' "$OUT/noplugin.log"
        fail=$((fail + 1))
    fi
fi

# Every function the installed headers declare links: a program takes each one's address, compiled
# once as C and once as C++ (both must accept every header).
api="$OUT/api_complete.c"
{
    echo '#include <stdio.h>'
    for h in "$PREFIX"/include/acl/*.h; do echo "#include \"acl/$(basename "$h")\""; done
    for h in "$PREFIX"/include/aclnnop/aclnn_*.h; do echo "#include \"aclnnop/$(basename "$h")\""; done
    for h in "$PREFIX"/include/dvsim/*.h; do echo "#include \"dvsim/$(basename "$h")\""; done
    echo 'int main(void) {'
    echo '    const void *fns[] = {'
    sed -n 's/^\(ACL_FUNC_VISIBILITY\|ACLNN_API\) [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/        (const void *)\&\2,/p' \
        "$PREFIX"/include/acl/*.h "$PREFIX"/include/aclnn/*.h "$PREFIX"/include/aclnnop/*.h "$PREFIX"/include/dvsim/*.h
    echo '    };'
    echo '    printf("%zu API functions link\\n", sizeof fns / sizeof fns[0]);'
    echo '    return 0;'
    echo '}'
} >"$api"
cp "$api" "$OUT/api_complete.cpp"
for lang in c c++; do
    case $lang in
    c) compile="$CC -std=c11" src="$api" ;;
    *) compile="$CXX -std=c++11" src="$OUT/api_complete.cpp" ;;
    esac
    # shellcheck disable=SC2086 # compile and LIBS are word lists
    if $compile -Wall -Wextra -Werror -I"$PREFIX/include" "$src" -o "$OUT/api_complete_$lang" -L"$PREFIX/lib" $LIBS \
        >"$OUT/api_complete_$lang.build.log" 2>&1; then
        run "api_complete_$lang" "$OUT/api_complete_$lang"
    else
        echo "FAIL api_complete_$lang: the headers do not compile as $lang, or a declared function does not link:"
        sed 's/^/    /' "$OUT/api_complete_$lang.build.log"
        fail=$((fail + 1))
    fi
done

# The pkg-config file of the install gives the same build.
if command -v pkg-config >/dev/null 2>&1; then
    # shellcheck disable=SC2046 # pkg-config prints word lists
    if $CC -std=c11 -Wall -Wextra -Werror examples/runtime/main.c -o "$OUT/runtime_pc" \
        $(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --cflags --libs ascendcl) >"$OUT/runtime_pc.build.log" 2>&1
    then
        run runtime_pkgconfig "$OUT/runtime_pc"
    else
        echo "FAIL runtime_pkgconfig: does not build with pkg-config ascendcl:"
        sed 's/^/    /' "$OUT/runtime_pc.build.log"
        fail=$((fail + 1))
    fi
fi

# The first interpreter that has numpy: $PYTHON when set, else python3 on PATH, else Debian's own
# (python3-numpy installs for /usr/bin/python3, which a pyenv or venv python3 on PATH does not see).
py=
for cand in ${PYTHON:-python3 /usr/bin/python3}; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import numpy' >/dev/null 2>&1; then
        py=$cand
        break
    fi
done
if [ -n "$py" ]; then
    run python "$py" examples/python/acl_ctypes.py
else
    # make test installs python3 and python3-numpy: a missing one is a failure, not a skip
    echo "FAIL python: no python3 with numpy (${PYTHON:-python3 or /usr/bin/python3}); apt-get install python3-numpy"
    fail=$((fail + 1))
fi

# The typical aclnn sample under the profiling switch: one op_summary row with the kernel's cycles
# and its UB occupancy, and a timeline.
rm -rf "$OUT/prof"
if [ -x "$OUT/aclnn_add" ] && [ -n "$py" ]; then
    run aclnn_add_profiled env DVSIM_PROFILE_OUT="$OUT/prof" "$OUT/aclnn_add"
    if "$py" - "$OUT/prof" <<'PY'; then
import csv, json, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/op_summary.csv")))
assert len(rows) == 1, "want one kernel row, got %d" % len(rows)
r = rows[0]
assert r["OP Type"] == "Add", r["OP Type"]
assert int(r["aiv_total_cycles"]) > 0, r["aiv_total_cycles"]
assert float(r["Task Duration(us)"]) > 0, r["Task Duration(us)"]
assert 0 < int(r["ub_peak_bytes"]) <= int(r["ub_capacity_bytes"]), r["ub_peak_bytes"]
assert 0 < float(r["ub_avg(%)"]) <= float(r["ub_peak(%)"]), r["ub_avg(%)"]
events = json.load(open(d + "/timeline.json"))["traceEvents"]
assert any(e.get("cat") == "kernel" for e in events), "no kernel in the timeline"
print("op_summary: Add, %s aiv cycles, UB peak %s bytes (%s%%), avg %s%%" % (
    r["aiv_total_cycles"], r["ub_peak_bytes"], r["ub_peak(%)"], r["ub_avg(%)"]))
PY
        pass=$((pass + 1))
    else
        echo "FAIL aclnn_add_profiled: op_summary.csv / timeline.json in $OUT/prof are not as expected"
        fail=$((fail + 1))
    fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
