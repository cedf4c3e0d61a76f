# cython: language_level=3
"""The contract optimizer's runs DPs (runs.pyx)."""
from krazy_core.games.melds.laydown cimport kz_laydown

# The best value (points * RX_CARD + cards) still layable from st when only runs are left to
# lay (st.gd_k >= the contract's books); -1 when the lay-down cannot be completed.
cdef int _runs_rest(const kz_laydown *st) noexcept nogil
