#!/bin/sh
# tests/exports.sh - the installed libraries export only the documented API, and libascendcl.so
# brings no SystemC into the program that links it.
#
#   PREFIX=/tmp/dvsim-install sh tests/exports.sh
#
# The documented names: every function declared with ACL_FUNC_VISIBILITY or ACLNN_API in the
# installed include/acl, include/aclnn, include/aclnnop and include/dvsim, and the kernel API that
# dvsim/acl_launch.h builds on (the functions of include/dv/kapi.h).  `nm -D --defined-only` of
# libascendcl.so must list only those; libnnopbase.so and libopapi.so nothing; the model plugin
# lib/dvsim/libdvsim_model.so its entry (acl/model_plugin.h) and sc_main.  libascendcl.so must not
# need libsystemc or libstdc++ (the plugin carries them, loaded RTLD_LOCAL).
#
# Environment: PREFIX (the installed tree, default build/install).
# The last line is always "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
PREFIX=${PREFIX:-build/install}
LIB="$PREFIX/lib"

pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dvsim-exports.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

for f in libascendcl.so libnnopbase.so libopapi.so dvsim/libdvsim_model.so; do
    if [ ! -f "$LIB/$f" ]; then
        echo "exports: no $LIB/$f: run make install PREFIX=$PREFIX"
        echo "0 passed, 1 failed"
        exit 1
    fi
done

# The documented names, one per line, sorted.
{
    sed -n 's/^\(ACL_FUNC_VISIBILITY\|ACLNN_API\) [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\2/p' \
        "$PREFIX"/include/acl/*.h "$PREFIX"/include/aclnn/*.h "$PREFIX"/include/aclnnop/*.h "$PREFIX"/include/dvsim/*.h
    sed -n 's/^[a-z][a-z0-9_ ]*[ *]\(dvk_[a-z0-9_]*\)(.*/\1/p' "$PREFIX/include/dv/kapi.h"
} | sort -u >"$tmp/declared"
n=$(wc -l <"$tmp/declared")
if [ "$n" -lt 100 ]; then
    bad "only $n documented names found in $PREFIX/include: the header scan is broken"
fi

# exports LIB: the names LIB defines in its dynamic symbol table, sorted
exports() { nm -D --defined-only "$1" | awk '{print $NF}' | sort -u; }

# only LIB EXPECTED-FILE: LIB exports a subset of EXPECTED-FILE
only() {
    exports "$LIB/$1" >"$tmp/exported"
    comm -23 "$tmp/exported" "$2" >"$tmp/extra"
    if [ -s "$tmp/extra" ]; then
        bad "$1 exports $(wc -l <"$tmp/extra") undocumented names: $(head -n 8 "$tmp/extra" | tr '\n' ' ')"
    else
        ok "$1 exports $(wc -l <"$tmp/exported") names, all documented"
    fi
}

only libascendcl.so "$tmp/declared"
# every documented name is exported (tests/examples.sh links each one; this names the missing)
exports "$LIB/libascendcl.so" | comm -13 - "$tmp/declared" >"$tmp/missing"
if [ -s "$tmp/missing" ]; then
    bad "libascendcl.so does not export $(head -n 8 "$tmp/missing" | tr '\n' ' ')"
else
    ok "libascendcl.so exports all $n documented names"
fi
: >"$tmp/none"
only libnnopbase.so "$tmp/none"
only libopapi.so "$tmp/none"
printf 'dv_model_plugin\nsc_main\n' >"$tmp/plugin"
exports "$LIB/dvsim/libdvsim_model.so" >"$tmp/exported"
if cmp -s "$tmp/exported" "$tmp/plugin"; then
    ok "dvsim/libdvsim_model.so exports dv_model_plugin and sc_main only"
else
    bad "dvsim/libdvsim_model.so exports $(tr '\n' ' ' <"$tmp/exported"), want dv_model_plugin sc_main"
fi

needed=$(readelf -d "$LIB/libascendcl.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
case " $needed" in
*" libsystemc"* | *" libstdc++"*) bad "libascendcl.so needs $needed: SystemC belongs to the plugin" ;;
*) ok "libascendcl.so needs $needed(no SystemC)" ;;
esac

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
