#!/bin/sh
# tests/fuzz/run.sh B SECONDS TARGET... - run each libFuzzer target B/fuzz_TARGET for SECONDS from a
# corpus in B/corpus_TARGET, seeded with the shipped files of its input path; stop at the first
# target that finds a crash, a leak, an input over 10 s or over 2 GB (its input is saved as
# B/crash_TARGET-*).  Prints each target's executions (libFuzzer's final stats).  The binary trace
# target's seeds are the shipped traces converted by $DVSIM (default bin/dvsim, built if missing).
set -u
B=$1 SECS=$2
DVSIM=${DVSIM:-bin/dvsim}
shift 2
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0
for t in "$@"; do
    c=$B/corpus_$t
    mkdir -p "$c"
    case $t in
    trace) cp traces/*.trace "$c"/ ;;
    trace_binary)
        [ -x "$DVSIM" ] || make -j2 "$DVSIM" >/dev/null || exit 1
        for f in traces/*.trace; do
            "$DVSIM" convert "$f" -o "$c/$(basename "$f" .trace).dvtb" --binary || exit 1
        done ;;
    profile) cp configs/*.yaml "$c"/ ;;
    graph) cp graphs/*.yaml "$c"/ ;;
    sweep) cp bench/whatif/*.yaml "$c"/ ;;
    set)
        printf 'chip.freq_mhz=1500\n' >"$c/seed1"
        printf 'l2.size_bytes=100663296\nl2.ways=8\n' >"$c/seed2"
        printf 'core.ub_size_bytes=131072\nqueue.mte1_depth=4\n' >"$c/seed3" ;;
    acl) # bytes decoded into calls (fuzz_acl.c): allocate, copy in, a stream, an event, a tensor, relu
        printf '\000\001\377\017\002\002\001\000\001\000\004\000\000\005\003\007\004\010\000\300\303' >"$c/seed1"
        printf '\000\002\000\100\012\002\002\040\040\040\040\040\040\001\000\000\000\000\000\001\002\020\020\001\002\000' >"$c/seed2"
        printf '\005\001\017\001\000\377\377\001\000\015\000\005\001' >"$c/seed3" ;;
    aclinit)
        printf '{}' >"$c/seed1"
        printf '{"dvsim": {"profile": "ascend310", "set": ["chip.freq_mhz=1500", "l2.ways=8"]}}' >"$c/seed2"
        printf '{"profiler": {"switch": "on", "output": "prof"}, "dump": {"dump_mode": "all"}}' >"$c/seed3"
        printf '{"dvsim": {"config": "my.yaml", "set": ["core.ub_size_bytes=131072"]}}' >"$c/seed4" ;;
    op)
        printf 'add --shape 64x64 --dtype fp16 --cores 4' >"$c/seed1"
        printf 'matmul --m 128 --n 256 --k 64 --base-m 64 --depth-a1 2' >"$c/seed2"
        printf 'softmax --shape 8x1000 --dtype fp32' >"$c/seed3"
        printf 'conv2d' >"$c/seed4" ;;
    esac
    echo "fuzz: $t for $SECS s"
    if ! "$B/fuzz_$t" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$B/crash_$t-" "$c" >"$B/fuzz_$t.log" 2>&1; then
        echo "fuzz: $t FAILED (see $B/fuzz_$t.log and $B/crash_$t-*)"
        tail -40 "$B/fuzz_$t.log"
        status=1
        break
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$B/fuzz_$t.log" | sed "s/^/fuzz: $t /"
done
exit $status
