#!/usr/bin/env bash
# Builds krazy_core and runs the test suite on each CPython we claim (requires-python >= 3.9),
# each in its own fresh venv (/tmp/krazy-pythons/venv-3.X), and prints a Markdown table of
# the results (docs/guide/contributors.md, "Building and wheels").
#
#   bash .ci/pythons.sh                      # 3.9 3.10 3.11 3.12 3.13, whole suite
#   bash .ci/pythons.sh 3.9 3.13             # only these
#   PYTEST_ARGS='-m "not slow"' bash .ci/pythons.sh 3.9 3.13    # the fast subset (.ci/run)
#
# An interpreter is python3.X on PATH, else pyenv's 3.X.* (pyenv root versions/3.X.*/bin).
# Exit status: 0 when every version built and passed, 1 otherwise (a missing interpreter fails).
set -uo pipefail
cd "$(dirname "$0")/.."
versions=("$@")
[ ${#versions[@]} -eq 0 ] && versions=(3.9 3.10 3.11 3.12 3.13)
work=${KRAZY_PYTHONS_DIR:-/tmp/krazy-pythons}
mkdir -p "$work"

. .ci/lib.sh                  # find_python, cpu_seconds

rows=()
status=0
for v in "${versions[@]}"; do
    log="$work/$v.log"
    if ! py=$(find_python "$v"); then
        rows+=("| $v | not found | — | — | — |"); status=1; continue
    fi
    full=$("$py" -c 'import platform; print(platform.python_version())')
    echo "== Python $full ($py): build, then pytest ${PYTEST_ARGS:-} (log: $log)"
    venv="$work/venv-$v"
    rm -rf "$venv"
    t0=$SECONDS; cpu_seconds; c0=$CPU_S
    if ! { "$py" -m venv "$venv" && "$venv/bin/python" -m pip install --quiet --upgrade pip \
            && "$venv/bin/python" -m pip install --quiet '.[test]'; } >"$log" 2>&1; then
        tail -20 "$log"
        rows+=("| $full | **build failed** | $((SECONDS - t0)) s | — | — |"); status=1; continue
    fi
    cpu_seconds; build="$((SECONDS - t0)) s ($((CPU_S - c0)) s CPU)"
    t0=$SECONDS; c0=$CPU_S
    # the venv's pytest (console script): the installed package, not the checkout's sources
    eval "\"$venv/bin/pytest\" -q ${PYTEST_ARGS:-}" >>"$log" 2>&1
    rc=$?
    cpu_seconds; tests="$((SECONDS - t0)) s ($((CPU_S - c0)) s CPU)"
    summary=$(grep -E '^(=+ )?[0-9]+ (passed|failed)' "$log" | tail -1 | sed -e 's/=//g' -e 's/ in [0-9.]*s.*//' -e 's/^ *//;s/ *$//')
    [ $rc -eq 0 ] && result="passed" || { result="**FAILED**"; status=1; tail -30 "$log"; }
    echo "   $result: $summary (build $build, tests $tests; load $(cut -d' ' -f1 /proc/loadavg))"
    rows+=("| $full | $result | $build | $summary | $tests |")
done

echo
echo "| Python | result | build (\`pip install '.[test]'\`), wall (CPU) | tests | test time, wall (CPU) |"
echo "|---|---|---:|---|---:|"
printf '%s\n' "${rows[@]}"
exit $status
