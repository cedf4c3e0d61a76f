# cython: language_level=3
"""The overlapping_runs runs DP with ace_wrap (runs_ovw.pyx)."""
from krazy_core.games.melds.laydown cimport kz_laydown, RX_W

# out[r][w]: the best value r fresh runs of suit s can lay below st using w pool wilds
cdef int _suit_runs_ovw(const kz_laydown *st, int s, int R, int W, int out[4][RX_W]) noexcept nogil
