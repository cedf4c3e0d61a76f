"""What a benchmark records of where it ran: the commit of the tree its scripts are in."""
import os
import subprocess


def commit():
    """The short hash of HEAD of the repository holding this file, or None (no git, not a
    checkout)."""
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        return subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip() or None
    except Exception:
        return None
