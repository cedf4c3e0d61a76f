"""``python -m krazy_core.cli ARGS``: the ``krazy`` command."""
import sys

from krazy_core.cli import main

if __name__ == "__main__":
    sys.exit(main())
