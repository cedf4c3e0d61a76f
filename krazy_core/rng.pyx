# cython: language_level=3
"""Python face of the engine's PRNG (``src/krazy/rng.h``): xoshiro256** seeded by
splitmix64, unbiased bounded draws, Fisher-Yates shuffle, 2d6.  States carry their own
generator inside their struct; this class is for bots, tools and tests."""

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from krazy_core._ops cimport kz_rng, kz_rng_seed, kz_next, kz_bounded, kz_d6, kz_uniform
from krazy_core.errors import ConfigError


def check_seed(seed):
    """A seed as an unsigned 64-bit int.  ``None`` draws one from the OS.  Raises
    ``ConfigError`` for anything that is not an int.  (``krazy_core._state.check_seed`` is
    this function: the PRNG sits below the state.)"""
    if seed is None:
        import os
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"seed must be an int, got {seed!r}")
    return seed & 0xFFFFFFFFFFFFFFFF


cdef class Rng:
    """A seeded generator.  ``Rng(seed)``; ``seed=None`` draws one from the OS."""
    cdef kz_rng r

    def __cinit__(self):
        # seeded at allocation too, so ``Rng.__new__(Rng)`` (or a subclass skipping
        # ``__init__``) is never the all-zero xoshiro state (it would give 0 forever and
        # bounded() would never return): as ``Rng(0)`` until ``__init__`` seeds it
        kz_rng_seed(&self.r, 0)

    def __init__(self, seed=None):
        kz_rng_seed(&self.r, <uint64_t>check_seed(seed))

    def __reduce__(self):
        """Pickle and copy by value: the four 64-bit words of the xoshiro256** state, so
        a copy draws exactly what the original would draw next."""
        return (_rng_from_words, (self.r.s[0], self.r.s[1], self.r.s[2], self.r.s[3]))

    def __copy__(self):
        return _rng_from_words(self.r.s[0], self.r.s[1], self.r.s[2], self.r.s[3])

    def __deepcopy__(self, memo):
        return self.__copy__()

    def next_u64(self) -> int:
        """Next raw 64-bit output."""
        return kz_next(&self.r)

    def bounded(self, n) -> int:
        """Uniform int in ``[0, n)``, exactly unbiased; ``1 <= n < 2**32``.  Raises ``ValueError``."""
        if not 1 <= n < 2 ** 32:
            raise ValueError(f"bounded(n) needs 1 <= n < 2**32, got {n!r}")
        return kz_bounded(&self.r, <uint32_t>n)

    def uniform(self) -> float:
        """Uniform float in ``[0, 1)``."""
        return kz_uniform(&self.r)

    def d6(self) -> int:
        """One die, 1..6."""
        return kz_d6(&self.r)

    def roll_2d6(self) -> tuple:
        """Two dice ``(d1, d2)``."""
        cdef int a = kz_d6(&self.r)
        cdef int b = kz_d6(&self.r)
        return (a, b)

    def choice(self, seq):
        """A uniformly chosen element of a non-empty sequence."""
        n = len(seq)
        if n == 0:
            raise ValueError("choice() from an empty sequence")
        return seq[kz_bounded(&self.r, <uint32_t>n)]

    def shuffle(self, list items):
        """Fisher-Yates shuffle of a list in place."""
        cdef Py_ssize_t i, j
        for i in range(len(items) - 1, 0, -1):
            j = kz_bounded(&self.r, <uint32_t>(i + 1))
            items[i], items[j] = items[j], items[i]


def _rng_from_words(s0, s1, s2, s3):
    """An ``Rng`` whose xoshiro256** state is the four given 64-bit words (the unpickler of
    ``Rng.__reduce__``).  Raises ``ValueError`` for words out of range or all zero."""
    words = (s0, s1, s2, s3)
    for w in words:
        if isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < 2 ** 64:
            raise ValueError(f"Rng state words must be ints in [0, 2**64), got {words!r}")
    if not any(words[:3]):
        raise ValueError("a state whose first three words are zero is invalid (all zero: "
                         "xoshiro's fixed point; (0, 0, 0, x): a tape, src/krazy/rng.h)")
    cdef Rng g = Rng.__new__(Rng)
    g.r.s[0] = <uint64_t>s0
    g.r.s[1] = <uint64_t>s1
    g.r.s[2] = <uint64_t>s2
    g.r.s[3] = <uint64_t>s3
    return g
