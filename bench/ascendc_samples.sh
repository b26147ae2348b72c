#!/bin/sh
# bench/ascendc_samples.sh - build and run Huawei's published Ascend C samples unmodified against an
# installed dvsim, as their READMEs say: cmake with their own CMakeLists.txt, make, gen_data.py,
# ./demo, verify_result.py.  The samples are not part of dvsim: point the script at a checkout of
# the asc-devkit repository (its examples/ directory); they are copied to a scratch directory and
# never modified.
#
#   sh bench/ascendc_samples.sh PREFIX ASC_DEVKIT_DIR [LIST]
#
# PREFIX is a `make install PREFIX=...` tree.  LIST is a file of sample directories relative to
# ASC_DEVKIT_DIR (one per line, '#' comments); without it every sample whose README lists Atlas A2
# with a CANN version is tried.  Each sample gets one line:
#   PASS    built, ran, and its verify_result.py accepted the output (or, without one, it exited 0 and
#           did not print that it failed: "test failed", "verification failed", "[Failed]", "result error")
#   BUILD   cmake or make failed (the first compiler error is shown)
#   RUN     ./demo (or the program the README runs, or gen_data.py) failed or timed out
#   VERIFY  verify_result.py rejected the output
# and, when the run wrote DVSIM_PROFILE_OUT, the kernels' Task Duration(us) from op_summary.csv.
# Environment: DVSIM_PROFILE (default ascend910b1, the chip of the samples' published figures),
# PYTHON (default /usr/bin/python3, which has numpy on Debian), WORK (scratch, default a temp dir),
# TIMEOUT_S (per command, default 600), SAMPLE_VARS (e.g. "SCENARIO_NUM=3 COPY_DST=L1": values that
# override the README's shell variables in its commands and the -D options of its cmake line).  The last line is "N passed, N failed of N".
# To compare Task Durations with the published ones, set DVSIM_WARM_UP=1: Huawei measured them with
# msopprof, which warms a kernel up and replays it on the same memory (docs/FIDELITY.md, Method).
set -u
PREFIX=${1:?usage: ascendc_samples.sh PREFIX ASC_DEVKIT_DIR [LIST]}
SRC=${2:?usage: ascendc_samples.sh PREFIX ASC_DEVKIT_DIR [LIST]}
LIST=${3:-}
PYTHON=${PYTHON:-/usr/bin/python3}
TIMEOUT_S=${TIMEOUT_S:-600}
SAMPLE_VARS=${SAMPLE_VARS:-}
export DVSIM_PROFILE=${DVSIM_PROFILE:-ascend910b1}
case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
case "$SRC" in /*) ;; *) SRC="$(pwd)/$SRC" ;; esac
if [ ! -f "$PREFIX/set_env.sh" ]; then
    echo "ascendc_samples: $PREFIX/set_env.sh is missing: make install PREFIX=$PREFIX first"
    exit 1
fi
WORK=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/dvsim-samples.XXXXXX")}
mkdir -p "$WORK" || exit 1
# shellcheck disable=SC1091 # the installed environment
. "$PREFIX/set_env.sh"

if [ -z "$LIST" ]; then
    LIST="$WORK/list"
    find "$SRC/examples" -name README.md | while read -r r; do
        if grep -q '^| *Atlas A2 [^|]*| *>=' "$r" && ls "$(dirname "$r")"/*.asc >/dev/null 2>&1; then
            dirname "$r" | sed "s|^$SRC/||"
        fi
    done | sort >"$LIST"
fi

# The README's command line that runs SCRIPT (gen_data.py / verify_result.py), or empty.
readme_cmd() {
    grep -h "python3 [^ ]*$2" "$1/README.md" 2>/dev/null | grep -v '^ *|' | head -n 1 | sed 's/#.*//; s/^ *//; s/ *$//'
}

pass=0
fail=0
total=0
while read -r rel; do
    case "$rel" in '' | '#'*) continue ;; esac
    total=$((total + 1))
    name=$(echo "$rel" | sed 's|^examples/||')
    d="$WORK/$(echo "$rel" | tr '/' '_')"
    rm -rf "$d"
    cp -R "$SRC/$rel" "$d" || { echo "RUN     $name: cannot copy"; fail=$((fail + 1)); continue; }
    # the scenario the README sets (SCENARIO_NUM=N, SCENARIO=N or TESTCASE=N), else the CMakeLists' default,
    # else 0
    scen=$(sed -n 's/^ *\(SCENARIO_NUM\|SCENARIO\|TESTCASE\)=\([0-9][0-9]*\).*/\2/p' "$d/README.md" 2>/dev/null |
        head -n 1)
    [ -n "$scen" ] || scen=$(sed -n 's/.*set(SCENARIO_NUM *"*\([0-9]*\)"*.*/\1/p' "$d/CMakeLists.txt" | head -n 1)
    scen=${scen:-0}
    # the shell variables the README's commands set (`SCENARIO_NUM=1 ASC_ARCH=dav-2201`, `COPY_DST=UB`): the
    # first value of each, as a sed script that puts them into the commands; SCENARIO_NUM is $scen
    vars="$d/vars.sed"
    : >"$vars"
    for kv in $SAMPLE_VARS; do
        printf 's/\\$%s/%s/g; s/\\${%s}/%s/g\n' "${kv%%=*}" "${kv#*=}" "${kv%%=*}" "${kv#*=}" >>"$vars"
    done
    printf 's/\\$SCENARIO_NUM/%s/g; s/\\${SCENARIO_NUM}/%s/g; s/\\$SCENARIO/%s/g\n' "$scen" "$scen" "$scen" >>"$vars"
    sed 's/ *#.*//' "$d/README.md" 2>/dev/null |
        grep -E '^ *[A-Z_][A-Z0-9_]*=[A-Za-z0-9_.-]+( +[A-Z_][A-Z0-9_]*=[A-Za-z0-9_.-]+)* *$' |
        tr ' ' '\n' | grep = | awk -F= '!seen[$1]++ { printf "s/\\$%s/%s/g; s/\\${%s}/%s/g\n", $1, $2, $1, $2 }' >>"$vars"
    # the README's cmake options for the default (npu) run mode
    opts=$(grep -h '^ *cmake .*\.\.' "$d/README.md" 2>/dev/null | grep -v RUN_MODE | head -n 1 |
        grep -o -- '-D[A-Za-z_][A-Za-z0-9_]*=[^ ;]*' | sed -f "$vars" |
        grep -v '\$' | grep -v CMAKE_ASC_ARCHITECTURES | tr '\n' ' ')
    for kv in $SAMPLE_VARS; do # SAMPLE_VARS also override a -D the README spells out
        opts=$(echo "$opts" | sed "s|-D${kv%%=*}=[^ ]*|-D$kv|")
    done
    opts="$opts -DCMAKE_ASC_ARCHITECTURES=dav-2201"
    log="$d/log.txt"
    # shellcheck disable=SC2086 # opts is a list of -D options
    if ! (cd "$d" && mkdir -p build && cd build &&
        timeout "$TIMEOUT_S" cmake $opts .. >"$log" 2>&1 &&
        timeout "$TIMEOUT_S" make -j2 >>"$log" 2>&1); then
        echo "BUILD   $name: $(grep -m 1 -E 'error|Error' "$log" | cut -c 1-200)"
        fail=$((fail + 1))
        continue
    fi
    gen=$(readme_cmd "$d" gen_data.py | sed -f "$vars")
    ver=$(readme_cmd "$d" verify_result.py | sed -f "$vars")
    # the README's arguments of ./demo (broadcast: ./demo $TESTCASE), without redirections or pipes
    args=$(grep -h '^ *\./demo' "$d/README.md" 2>/dev/null | head -n 1 |
        sed 's/#.*//; s|^ *\./demo *||; s/[0-9]*[;|&<>].*//; s/ *$//' | sed -f "$vars" | grep -v '\$')
    gen=$(echo "$gen" | sed "s|^python3 |$PYTHON |")
    ver=$(echo "$ver" | sed "s|^python3 |$PYTHON |")
    # the program the README runs (`./demo` unless it names another)
    exe=$(grep -h -m 1 -o '^ *\./[A-Za-z0-9_]*' "$d/README.md" 2>/dev/null | sed 's/^ *//')
    exe=${exe:-./demo}
    prof="$d/build/prof"
    # shellcheck disable=SC2086 # args is the README's argument list
    if ! (cd "$d/build" && mkdir -p input output &&
        { [ -z "$gen" ] || timeout "$TIMEOUT_S" sh -c "$gen" >>"$log" 2>&1; } &&
        DVSIM_PROFILE_OUT="$prof" timeout "$TIMEOUT_S" "$exe" $args >>"$log" 2>&1); then
        echo "RUN     $name: $(tail -n 3 "$log" | tr '\n' ' ' | cut -c 1-200)"
        fail=$((fail + 1))
        continue
    fi
    times=""
    if [ -f "$prof/op_summary.csv" ]; then
        times=$("$PYTHON" -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(", ".join("%s=%s us" % (r["Op Name"], r["Task Duration(us)"]) for r in rows))' "$prof/op_summary.csv")
    fi
    if [ -n "$ver" ] && ! (cd "$d/build" && timeout "$TIMEOUT_S" sh -c "$ver" >>"$log" 2>&1); then
        # a kernel that failed on the model says why on stderr: that line, else verify's last words
        why=$(grep -m 1 'dvsim: \[ERROR\]' "$log" | cut -c 1-240)
        [ -n "$why" ] || why=$(tail -n 2 "$log" | tr '\n' ' ' | cut -c 1-160)
        echo "VERIFY  $name: $why [$times]"
        fail=$((fail + 1))
        continue
    fi
    # without a verify_result.py the program judges itself: it must not say it failed
    if [ -z "$ver" ] && grep -qiE 'test fail|verification failed|\[failed\]|result error' "$log"; then
        echo "VERIFY  $name: $(grep -m 1 -iE 'test fail|verification failed|\[failed\]|result error' "$log" | cut -c 1-160) [$times]"
        fail=$((fail + 1))
        continue
    fi
    echo "PASS    $name [$times]"
    pass=$((pass + 1))
done <"$LIST"
echo "$pass passed, $fail failed of $total"
[ "$fail" -eq 0 ]
