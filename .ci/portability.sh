#!/usr/bin/env bash
# Portability checks of the C the build compiles (issue 13, "Portable C"):
#
#   bash .ci/portability.sh aarch64   # compile-only: every generated C file (build/cython*/)
#                                     # with gcc-aarch64-linux-gnu, warnings shown
#   bash .ci/portability.sh clang     # a full build with clang (CC=clang) in a fresh venv
#                                     # and the whole test suite against it
#   bash .ci/portability.sh shims     # the MSVC stand-ins for the GCC builtins
#                                     # (src/krazy/portable.h) against the builtins
#
# aarch64 needs the generated C (any build of this checkout makes build/cython/) and uses this
# host's Python headers (-I, -c only: a syntax and portability check, nothing is linked).
# Debian: apt-get install gcc-aarch64-linux-gnu clang
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}

case "${1:-}" in
aarch64)
    CC=${AARCH64_CC:-aarch64-linux-gnu-gcc}
    command -v "$CC" >/dev/null || { echo "no $CC (apt-get install gcc-aarch64-linux-gnu)"; exit 1; }
    inc=$($PY -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    files=$(ls build/cython*/krazy_core/*.c build/cython*/krazy_core/*/*.c 2>/dev/null || true)
    [ -n "$files" ] || { echo "no generated C in build/cython*/ (build first)"; exit 1; }
    out=$(mktemp -d)
    n=0
    for f in $files; do
        # -O0: the compiler's front end (headers, builtins, attributes, intrinsics) is what
        # differs between targets; optimising would only make the check slower
        "$CC" -c -O0 -Wall -Wno-unused-function -Wno-unreachable-code -fPIC -Isrc -I"$inc" \
            "$f" -o "$out/$(basename "$f").o"
        n=$((n + 1))
    done
    rm -rf "$out"
    echo "aarch64: $n generated C files compile with $($CC --version | head -1)"
    ;;
clang)
    command -v clang >/dev/null || { echo "no clang (apt-get install clang)"; exit 1; }
    # built from an sdist in a directory of its own, so no gcc object is ever reused
    work=${CLANG_DIR:-/tmp/krazy-clang}
    rm -rf "$work" && mkdir -p "$work"
    $PY -m venv "$work/venv"
    "$work/venv/bin/python" -m pip install --quiet --upgrade pip build
    "$work/venv/bin/python" -m build --sdist --outdir "$work" . >/dev/null
    tar -xzf "$work"/krazy_core-*.tar.gz -C "$work"
    src=$(ls -d "$work"/krazy_core-*/)
    CC=clang LDSHARED="clang -shared" "$work/venv/bin/python" -m pip install --quiet "$src[test]"
    (cd "$work" && "$work/venv/bin/python" - <<'PY'
import glob, os, subprocess, krazy_core
for so in sorted(glob.glob(os.path.join(os.path.dirname(krazy_core.__file__), "**", "*.so"), recursive=True)):
    note = subprocess.run(["readelf", "-p", ".comment", so], capture_output=True, text=True).stdout
    assert "clang" in note, (so, note)
print("every module built by", [l.split("]", 1)[-1].strip() for l in note.splitlines() if "clang" in l][0])
PY
    )
    (cd "$src" && KRAZY_TEST_INSTALLED=1 "$work/venv/bin/pytest" -q ${PYTEST_ARGS:-})
    ;;
shims)
    cc=${CC:-cc}            # may be "ccache gcc": split into words below
    out=$(mktemp -d)
    cat > "$out/shims.c" <<'C'
#define KZ_PORTABLE_FALLBACK 1
#include "krazy/portable.h"
#include "krazy/clock.h"
#include <stdio.h>
int main(void) {
    unsigned long long x = 0x9E3779B97F4A7C15ULL;
    long bad = 0, n = 0;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        unsigned long long v = x >> (i % 64);
        if (i % 97 == 0) v = 1ULL << (i % 64);
        if (v == 0) continue;
        unsigned int w = (unsigned int)v ? (unsigned int)v : 1u;
        bad += kz_pt_popcountll(v) != __builtin_popcountll(v);
        bad += kz_pt_popcount(w) != __builtin_popcount(w);
        bad += kz_pt_ctz(w) != __builtin_ctz(w);
        bad += kz_pt_ctzll(v) != __builtin_ctzll(v);
        bad += kz_pt_clzll(v) != __builtin_clzll(v);
        n++;
    }
    int64_t t0 = kz_monotonic_ns(), t1 = kz_monotonic_ns();
    double s0 = kz_monotonic_s();
    if (t1 < t0 || s0 <= 0) bad++;
    printf("shims: %ld values, %ld differences from the builtins\n", n, bad);
    return bad != 0;
}
C
    $cc -std=c99 -D_POSIX_C_SOURCE=200809L -O1 -Wall -Isrc "$out/shims.c" -o "$out/shims" && "$out/shims"
    rc=$?
    rm -rf "$out"
    exit $rc
    ;;
*)
    echo "usage: $0 aarch64|clang|shims"; exit 2 ;;
esac
