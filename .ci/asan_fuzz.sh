#!/usr/bin/env bash
# Issue 19: build krazy_core under AddressSanitizer in a scratch copy of this tree (the
# in-place .so files here are left alone) and run the fuzz harness and the hostile sweep on
# it.  Usage: .ci/asan_fuzz.sh [EXAMPLES_PER_TEST [PYTEST_ARGS...]]   (default 2000; not every
# CI run needs it; e.g. --hypothesis-show-statistics counts the inputs each test tried)
# Needs gcc with libasan (Debian: apt-get install gcc) and the test extra installed; PYTHON=
# names the interpreter (default python3: its setuptools must be >= 77, e.g. a venv's).
set -euo pipefail
cd "$(dirname "$0")/.."
EXAMPLES=${1:-2000}
shift || true
PY=${PYTHON:-python3}
WORK=$(mktemp -d /tmp/krazy-asan.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
git ls-files -z | xargs -0 -I{} cp --parents {} "$WORK"       # the tracked sources only
for f in $(git ls-files --others --exclude-standard); do cp --parents "$f" "$WORK"; done
cd "$WORK"
export CFLAGS="-fsanitize=address -fno-omit-frame-pointer -O1 -g"
export LDFLAGS="-fsanitize=address"
$PY setup.py build_ext --inplace -j 2 >/dev/null
# Python itself is not built with ASan: preload the runtime, ignore CPython's own leaks
export LD_PRELOAD="$(gcc -print-file-name=libasan.so)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1"
KRAZY_FUZZ_EXAMPLES=$EXAMPLES $PY -m pytest -q -p no:cacheprovider tests/test_fuzz.py tests/test_hostile.py -k "fuzz or sweep" "$@"
