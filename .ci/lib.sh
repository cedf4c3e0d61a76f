# Sourced by .ci/run and .ci/pythons.sh (issue 13).
#
# find_python 3.X   prints the path of a CPython 3.X interpreter: python3.X on PATH first, else
#                   pyenv's newest 3.X.* (pyenv root versions/3.X.*/bin); returns 1 if none
# cpu_seconds       sets CPU_S to the CPU seconds (user + sys) this shell's finished children
#                   used so far (bash `times`): a step's CPU is the difference of two readings
#                   (on a loaded machine wall time says little, CPU time what the step costs)
find_python() {
    local v=$1 p root
    if p=$(command -v "python$v") && "$p" -c pass 2>/dev/null; then echo "$p"; return; fi
    root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
    for p in $(ls -d "$root"/versions/"$v".* 2>/dev/null | sort -V -r); do
        if [ -x "$p/bin/python$v" ]; then echo "$p/bin/python$v"; return; fi
    done
    return 1
}

cpu_seconds() {
    # the second line of `times` (run in this shell, not a subshell, which has no children
    # yet): children's user and sys, e.g. "3m1.250s 0m4.100s"; sets CPU_S (whole seconds)
    local f cu cs
    f=$(mktemp)
    times >"$f"
    { read -r _; read -r cu cs; } <"$f"
    rm -f "$f"
    CPU_S=$(awk -v u="$cu" -v s="$cs" 'function sec(x, a) { split(x, a, "m"); sub("s", "", a[2]); return a[1] * 60 + a[2] }
        BEGIN { printf "%d", sec(u) + sec(s) + 0.5 }')
}
