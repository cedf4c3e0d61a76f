"""Checks an sdist against the checkout it was built from: every file git tracks is in it
(except .github/ and .gitignore, which only the repository needs), and no build output
(.c, .so, .pyd, .o) is.  A wheel built from an sdist that lacks a file fails later, or not at
all when no test reads the file; this names the file.

    python .ci/check_sdist.py dist/krazy_core-X.tar.gz
"""
import os
import subprocess
import sys
import tarfile

NOT_SHIPPED = (".github/", ".gitignore", ".gitattributes")
BUILD_OUTPUT = (".c", ".so", ".pyd", ".o", ".pyc")


def main(path):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tracked = subprocess.run(["git", "ls-files"], cwd=root, check=True, capture_output=True,
                             text=True).stdout.split()
    with tarfile.open(path) as tar:
        names = [m.name for m in tar.getmembers() if m.isfile()]
    top = names[0].split("/", 1)[0]
    shipped = {n.split("/", 1)[1] for n in names if "/" in n}
    missing = sorted(f for f in tracked if not f.startswith(NOT_SHIPPED) and f not in shipped)
    # hand-written C sources in src/ would be shipped on purpose
    junk = sorted(f for f in shipped if f.endswith(BUILD_OUTPUT) and not f.startswith("src/"))
    for f in missing:
        print(f"{path}: missing {f} (add it to MANIFEST.in)")
    for f in junk:
        print(f"{path}: build output {f} shipped (exclude it in MANIFEST.in)")
    print(f"{path}: {top}, {len(shipped)} files, {len(tracked)} tracked by git")
    return 1 if missing or junk else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
