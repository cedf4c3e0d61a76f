from typing import Dict, Tuple

CONTRACTS: Dict[int, Tuple[int, int]]
