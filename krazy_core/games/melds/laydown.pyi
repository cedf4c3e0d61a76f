# C-level (cimport the .pxd), but for one Python name: CR-4's contracts (Crazy Rummy's CONTRACTS).
from typing import Dict, Tuple

CONTRACTS: Dict[int, Tuple[int, int]]
