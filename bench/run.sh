#!/bin/sh
# bench/run.sh - simulation speed benchmark (prints figures; it is not a test).
# Generates two long double-buffered vector-add traces (~1 M and ~4 M instructions over 48
# blocks), runs each timing-only, and prints simulated instructions per host second and peak RSS.
# Memory must stay flat as the trace grows; the speed target is 2 M instructions per second.
#
# Then times the operator-library jobs of issue 3 (a 24-core fp16 8192^3 matmul, timing only,
# and a 48-core fp16 8192x8192 add with --check), each against a 30 s target, and the fusion study
# of the 8192^3 MatMul+GeLU graph (unfused and fused, timing only) against 60 s.
#
# Environment: DVSIM (default bin/dvsim), B (build directory, default build), KEEP=1 keeps the
# generated traces in $B.
set -eu
cd "$(dirname "$0")/.."
DVSIM=${DVSIM:-bin/dvsim}
B=${B:-build}
KEEP=${KEEP:-}
TARGET=2000000
BLOCKS=48

mkdir -p "$B"
cc -O2 tools/gentrace.c -o "$B/gentrace"

printf '%-8s %12s %10s %16s %14s\n' size instructions seconds 'instr/second' 'peak RSS (KB)'
met=yes
rss_first=
for tiles in 1600 6400; do
    trace="$B/bench_vadd_${BLOCKS}x${tiles}.trace"
    "$B/gentrace" --vadd-long "$BLOCKS" "$tiles" >"$trace"
    sync # write the new trace out now, so the kernel's write-back does not overlap the timed run
    "$DVSIM" run --no-data --quiet --host-stats "$trace" 2>"$B/bench.stats"
    stats=$(tail -n 1 "$B/bench.stats")
    field() { printf '%s\n' "$stats" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
    insns=$(field instructions)
    secs=$(field host_seconds)
    ips=$(field insns_per_second)
    rss=$(field peak_rss_kb)
    printf '%-8s %12s %10s %16s %14s\n' "${BLOCKS}x$tiles" "$insns" "$secs" "$ips" "$rss"
    [ "$ips" -ge "$TARGET" ] || met=no
    [ -n "$rss_first" ] || rss_first=$rss
    rss_last=$rss
    [ -n "$KEEP" ] || rm -f "$trace"
done
rm -f "$B/bench.stats"

growth=$(awk -v a="$rss_first" -v b="$rss_last" 'BEGIN { printf "%.2f", b / a }')
echo "peak RSS growth for 4x the instructions: ${growth}x (flat is ~1.0)"
echo "target: $TARGET instructions per host second: $([ "$met" = yes ] && echo met || echo NOT met)"

# Operator-library targets (issue 3): each job under 30 host seconds on one core.
echo
printf '%-58s %10s %10s %8s\n' 'operator job' seconds cycles target
op_met=yes
for job in "matmul --m 8192 --n 8192 --k 8192 --dtype fp16 --cores 24 --no-data" \
           "add --shape 8192x8192 --dtype fp16 --cores 48 --check"; do
    # shellcheck disable=SC2086
    "$DVSIM" op $job --quiet --json "$B/bench.json" --host-stats 2>"$B/bench.stats"
    secs=$(tail -n 1 "$B/bench.stats" | tr ' ' '\n' | sed -n 's/^host_seconds=//p')
    cycles=$(sed -n 's/^"cycles":\([0-9]*\),*$/\1/p' "$B/bench.json")
    ok=$(awk -v s="$secs" 'BEGIN { print (s < 30) ? "met" : "NOT met" }')
    [ "$ok" = met ] || op_met=no
    printf '%-58s %10s %10s %8s\n' "$job" "$secs" "$cycles" "$ok"
done
rm -f "$B/bench.stats" "$B/bench.json"
echo "operator jobs under 30 s each: $([ "$op_met" = yes ] && echo met || echo NOT met)"

# The fusion study (issue 13): the 8192^3 MatMul+GeLU graph unfused and fused, timing-only, under 60 s.
echo
printf '%-58s %10s %10s %8s\n' 'fusion job' seconds speedup target
"$DVSIM" fusion graphs/matmul_gelu_8192.yaml --no-data --quiet --json "$B/bench.json" --host-stats 2>"$B/bench.stats"
secs=$(tail -n 1 "$B/bench.stats" | sed -n 's/^host_seconds=//p')
speedup=$(sed -n 's/^ *"speedup": \([0-9.]*\),*$/\1/p' "$B/bench.json")
ok=$(awk -v s="$secs" 'BEGIN { print (s < 60) ? "met" : "NOT met" }')
printf '%-58s %10s %10s %8s\n' "fusion graphs/matmul_gelu_8192.yaml --no-data" "$secs" "${speedup}x" "$ok"
rm -f "$B/bench.stats" "$B/bench.json"
echo "fusion study of 8192^3 MatMul+GeLU under 60 s: $ok"
