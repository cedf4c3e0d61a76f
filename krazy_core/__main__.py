"""``python -m krazy_core ...`` runs the ``krazy`` command (the same as the console script)."""

import sys

from krazy_core.cli import main

if __name__ == "__main__":
    sys.exit(main())
