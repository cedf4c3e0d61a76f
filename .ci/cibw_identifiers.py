"""Checks that cibuildwheel (the version in .ci/cibuildwheel.txt) builds exactly the wheels
pyproject.toml promises: CPython 3.9-3.14 on manylinux x86_64 and aarch64, musllinux x86_64,
macOS x86_64 and arm64, Windows AMD64.  Prints each platform's identifiers.

    python .ci/cibw_identifiers.py
"""
import os
import subprocess
import sys

PYTHONS = ["cp39", "cp310", "cp311", "cp312", "cp313", "cp314"]
PLATFORMS = {
    "linux": ["manylinux_x86_64", "manylinux_aarch64", "musllinux_x86_64"],
    "macos": ["macosx_x86_64", "macosx_arm64"],
    "windows": ["win_amd64"],
}


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bad = 0
    env = {k: v for k, v in os.environ.items() if not k.startswith("CIBW_")}
    for platform, tags in PLATFORMS.items():
        out = subprocess.run([sys.executable, "-m", "cibuildwheel", "--print-build-identifiers",
                              "--platform", platform], cwd=root, env=env, check=True,
                             capture_output=True, text=True).stdout.split()
        want = {f"{py}-{tag}" for py in PYTHONS for tag in tags}
        print(f"{platform} ({len(out)}): {' '.join(out)}")
        for ident in sorted(want - set(out)):
            print(f"  missing: {ident}")
            bad += 1
        for ident in sorted(set(out) - want):
            print(f"  not promised: {ident}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
